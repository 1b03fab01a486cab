/// Judging values given as raw UTF-8 bytes (for instance a pointer into SQLite's row
/// buffer), without building a `String` when the value passes: the fast path of batch
/// validation. Only a value that fails needs ``CompiledFieldType/validate(_:stage:)`` to get
/// its messages.
///
/// Bytes that are not well-formed UTF-8 never pass these checks (the engine's byte pipeline
/// assumes well-formed input); callers then judge `String(decoding:as:)` of them, which
/// replaces the ill-formed sequences with U+FFFD, through the ordinary `validate`.
extension CompiledFieldType {
    /// Whether the value is absent: empty or only white space. Ill-formed UTF-8 is not absent.
    public static func isAbsent(utf8: UnsafeRawBufferPointer) -> Bool {
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else { return false }
        return isBlank(bytes)
    }

    /// Whether the value passes the final stage with no violation at all: no error and no
    /// warning. An absent value passes. False for ill-formed UTF-8.
    public func isClean(utf8: UnsafeRawBufferPointer) -> Bool {
        passes(utf8: utf8, countingWarnings: true)
    }

    /// Whether the value passes the final stage (warnings do not count), like
    /// ``isValid(_:)``. False for ill-formed UTF-8.
    public func isValid(utf8: UnsafeRawBufferPointer) -> Bool {
        passes(utf8: utf8, countingWarnings: false)
    }

    /// The value's canonical form (normalized and mask-formatted) as UTF-8 bytes; an absent
    /// value as it is. Ill-formed input is first repaired with U+FFFD.
    public func canonicalUTF8(_ utf8: UnsafeRawBufferPointer) -> [UInt8] {
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else {
            return Array(format(String(decoding: bytes, as: UTF8.self)).utf8)
        }
        if isBlank(bytes) { return Array(bytes) }
        return Scratch.withCurrent { scratch in prepare(bytes, scratch: scratch) { formatted, _ in Array(formatted) } }
    }

    /// What one look at a value's bytes tells a batch run.
    public enum Screening: Sendable {
        /// Empty or only white space: no check runs; the form decides (`required`).
        case absent
        /// Present, and no check fails, warnings included.
        case clean
        /// Present, and some check fails (or the bytes are not well-formed UTF-8): call
        /// ``validate(_:stage:)`` for the violations.
        case failing
    }

    /// ``isAbsent(utf8:)`` and ``isClean(utf8:)`` in one pass over the bytes: the hot path of
    /// batch validation.
    public func screen(utf8: UnsafeRawBufferPointer) -> Screening {
        Scratch.withCurrent { screen(utf8: utf8, scratch: $0) }
    }

    /// ``screen(utf8:)`` with the caller's scratch memory, which only the calling thread may
    /// be using.
    public func screen(utf8: UnsafeRawBufferPointer, scratch: Scratch) -> Screening {
        let raw = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(raw) else { return .failing }
        if isBlank(raw) { return .absent }
        let (b, fit) = prepared(raw, scratch: scratch)
        return passesFinal(b, fit: fit, scratch: scratch, countingWarnings: true) ? .clean : .failing
    }

    @inline(__always)
    private func passes(utf8: UnsafeRawBufferPointer, countingWarnings: Bool) -> Bool {
        let raw = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(raw) else { return false }
        if isBlank(raw) { return true }
        return Scratch.withCurrent { scratch in
            prepare(raw, scratch: scratch) { b, fit in
                passesFinal(b, fit: fit, scratch: scratch, countingWarnings: countingWarnings)
            }
        }
    }
}

/// Whether `b` is well-formed UTF-8 (no overlong forms, surrogates or scalars above
/// U+10FFFF). ASCII runs are checked eight bytes at a time.
@inline(__always)
func isWellFormedUTF8(_ b: Bytes) -> Bool {
    guard let base = b.baseAddress else { return true }
    let n = b.count
    var i = 0
    while i + 8 <= n {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
    }
    while i < n {
        let b0 = base[i]
        if b0 < 0x80 { i += 1; continue }
        let count: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: return false
        }
        guard i + count <= n, base[i + 1] >= low, base[i + 1] <= high else { return false }
        if count > 2 && base[i + 2] & 0xC0 != 0x80 { return false }
        if count > 3 && base[i + 3] & 0xC0 != 0x80 { return false }
        i += count
    }
    return true
}
