/// Where one value lies in a byte buffer that holds a whole entry's values: the unit in
/// which ``EntryJudge`` is told where values are, whatever put them there (a stored entry's
/// encoding, or an app's dictionary copied into one buffer).
@usableFromInline package struct ValueSpan: Sendable, Hashable {
    /// Byte offset of the value's first byte.
    @usableFromInline package var offset: Int32
    /// The value's length in bytes, or -1 when the value is absent.
    @usableFromInline package var length: Int32

    @inlinable package init(offset: Int32, length: Int32) {
        self.offset = offset
        self.length = length
    }

    // Computed, not a stored `static let`: a global read from another module goes through
    // an accessor call, once per absent value on the batch path.
    @inlinable package static var absent: ValueSpan { ValueSpan(offset: 0, length: -1) }

    @inlinable package var isPresent: Bool { length >= 0 }

    /// The value's bytes inside `bytes` (the buffer the spans locate values in), or nil when
    /// absent.
    @inlinable package func bytes(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard length >= 0 else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + length)])
    }
}
