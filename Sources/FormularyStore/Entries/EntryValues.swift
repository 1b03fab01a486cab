import FormularyRules

/// The compact encoding of an entry's values (column `entries.vals`) and of a layout's field
/// names (column `entry_layouts.fields`).
///
/// A sequence of slots, one per field of the layout, in layout order. Each slot starts with an
/// unsigned LEB128 varint tag: `0` means the value is absent (a JSON Lines object without that
/// key, or JSON `null`), `n + 1` means a present value of `n` UTF-8 bytes, which follow. Absent
/// slots at the end are omitted, so a slot beyond the end of the bytes is absent.
///
/// Why not JSON text: reading a value is a varint and a pointer, with no parsing, escaping or
/// allocation, which keeps batch validation close to SQLite's raw read speed (docs/storage.md).
@usableFromInline package enum EntryValues {
    /// Encodes `values` (nil for absent) into a new array.
    package static func encode(_ values: [String?]) -> [UInt8] {
        var out: [UInt8] = []
        encode(values, into: &out)
        return out
    }

    /// Encodes `values`, replacing the contents of `out` (whose capacity is reused).
    package static func encode(_ values: [String?], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var pendingAbsent = 0
        for value in values {
            guard var value else { pendingAbsent += 1; continue }
            // Absent slots are written only when a present one follows them.
            out.append(contentsOf: repeatElement(0, count: pendingAbsent))
            pendingAbsent = 0
            value.withUTF8 { utf8 in
                appendVarint(UInt64(utf8.count) + 1, to: &out)
                out.append(contentsOf: utf8)
            }
        }
    }

    /// Encodes non-optional strings (layout field names).
    package static func encode(_ names: [String]) -> [UInt8] {
        encode(names.map(Optional.some))
    }

    /// Decodes every slot present in `bytes` (trailing absent slots are not represented).
    package static func decode(_ bytes: [UInt8]) throws(EntryValuesError) -> [String?] {
        var values: [String?] = []
        let failure = bytes.withUnsafeBytes { buffer -> EntryValuesError? in
            var reader = EntryValuesReader(buffer)
            do throws(EntryValuesError) {
                while let slot = try reader.next() {
                    values.append(slot.map { String(decoding: $0, as: UTF8.self) })
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Decodes field names; an absent name is malformed.
    package static func decodeNames(_ bytes: [UInt8]) throws(EntryValuesError) -> [String] {
        var names: [String] = []
        for value in try decode(bytes) {
            guard let value else { throw EntryValuesError.malformed(offset: 0) }
            names.append(value)
        }
        return names
    }

    /// Finds every slot of `bytes` without copying: afterwards `spans[i]` locates slot `i` for
    /// `i < spans.count` (slots past the end of `bytes` are absent). `spans` keeps its count, so
    /// one array can be reused for every row of a layout.
    ///
    /// The slots are read as ``EntryValuesReader`` reads them (the same spans, the same error
    /// at the same offset), with the spans written through one buffer and a one-byte tag (a
    /// value under 127 bytes) read without the varint loop: the per-row path of batch
    /// validation, where callgrind counted 479 instructions a row for seven slots before.
    @inlinable
    package static func locate(_ bytes: UnsafeRawBufferPointer,
                              into spans: inout [ValueSpan]) throws(EntryValuesError) {
        let n = bytes.count
        // Offsets and lengths then fit a span's 32 bits without a check per value (SQLite
        // holds a blob of at most 2 GB).
        guard n <= Int(Int32.max) else { throw .malformed(offset: Int(Int32.max)) }
        var failure = -1
        spans.withUnsafeMutableBufferPointer { out in
            guard let base = bytes.baseAddress else {
                for index in 0..<out.count { out[index] = .absent }
                return
            }
            var p = 0
            for index in 0..<out.count {
                guard p < n else {
                    for rest in index..<out.count { out[rest] = .absent }
                    return
                }
                var tag = UInt64(base.load(fromByteOffset: p, as: UInt8.self))
                p &+= 1
                if tag >= 0x80 {
                    tag &= 0x7F
                    var shift: UInt64 = 7
                    while true {
                        guard p < n, shift < 63 else { failure = p; return }
                        let byte = base.load(fromByteOffset: p, as: UInt8.self)
                        p &+= 1
                        tag |= UInt64(byte & 0x7F) << shift
                        if byte < 0x80 { break }
                        shift += 7
                    }
                }
                if tag == 0 {
                    out[index] = .absent
                    continue
                }
                let length = Int(tag - 1)
                guard length <= n - p else { failure = p; return }
                out[index] = ValueSpan(offset: Int32(truncatingIfNeeded: p), length: Int32(truncatingIfNeeded: length))
                p &+= length
            }
        }
        if failure >= 0 { throw .malformed(offset: failure) }
    }

    @inlinable
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}

/// Where one value lies in an encoded entry, as found by ``EntryValues/locate(_:into:)``: the
/// rules' ``ValueSpan``, so that the located spans go to the form judge as they are.
package typealias EntryValueSpan = ValueSpan

/// Reads the slots of an encoded entry one by one, without copying.
@usableFromInline package struct EntryValuesReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    /// Offset of the next slot's tag.
    @usableFromInline package var offset: Int { position }
    @usableFromInline var position = 0

    @inlinable package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next slot: nil at the end, `.some(nil)` for an absent value, else the value's
    /// bytes (valid as long as the buffer given to `init`).
    @inlinable
    package mutating func next() throws(EntryValuesError) -> UnsafeRawBufferPointer?? {
        guard position < bytes.count else { return nil }
        var tag: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 63 else { throw .malformed(offset: position) }
            let byte = bytes[position]
            position += 1
            tag |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        if tag == 0 { return .some(nil) }
        let length = Int(tag - 1)
        guard length <= bytes.count - position else { throw .malformed(offset: position) }
        let value = UnsafeRawBufferPointer(rebasing: bytes[position..<position + length])
        position += length
        return .some(value)
    }
}

/// An encoded entry that cannot be read (a damaged database).
@usableFromInline package enum EntryValuesError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(offset: Int)

    @usableFromInline package var description: String {
        switch self {
        case .malformed(let offset): "malformed entry values at byte \(offset)"
        }
    }
}
