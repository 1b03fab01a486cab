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
    package static func isAbsent(utf8: UnsafeRawBufferPointer) -> Bool {
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else { return false }
        return isBlank(bytes)
    }

    /// Whether the value passes the final stage with no violation at all: no error and no
    /// warning. An absent value passes. False for ill-formed UTF-8.
    package func isClean(utf8: UnsafeRawBufferPointer) -> Bool {
        passes(utf8: utf8, countingWarnings: true)
    }

    /// Whether the value passes the final stage (warnings do not count), like
    /// ``isValid(_:)``. False for ill-formed UTF-8.
    package func isValid(utf8: UnsafeRawBufferPointer) -> Bool {
        passes(utf8: utf8, countingWarnings: false)
    }

    /// The value's canonical form (normalized and mask-formatted) as UTF-8 bytes; an absent
    /// value as it is. Ill-formed input is first repaired with U+FFFD.
    package func canonicalUTF8(_ utf8: UnsafeRawBufferPointer) -> [UInt8] {
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else {
            return Array(format(String(decoding: bytes, as: UTF8.self)).utf8)
        }
        if isBlank(bytes) { return Array(bytes) }
        return Scratch.withCurrent { Array(prepared(bytes, scratch: $0).0) }
    }

    /// The final stage's violations of a present value given as bytes: what
    /// ``validate(_:stage:)`` lists for it, without the strings of its result (the value
    /// and its formatted text). Ill-formed UTF-8 is judged as `validate` judges it, repaired
    /// with U+FFFD. Batch validation calls it for the values ``screen(utf8:scratch:)`` found
    /// failing.
    package func finalViolations(utf8: UnsafeRawBufferPointer, scratch: Scratch) -> [Violation] {
        let raw = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(raw), !isBlank(raw) else {
            return validate(String(decoding: raw, as: UTF8.self)).violations
        }
        let (b, fit, choice) = prepared(raw, scratch: scratch)
        return violations(b, fit: fit, choice: choice, stage: .final, scratch: scratch)
    }

    /// What one look at a value's bytes tells a batch run.
    package enum Screening: Sendable {
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
    package func screen(utf8: UnsafeRawBufferPointer) -> Screening {
        Scratch.withCurrent { screen(utf8: utf8, scratch: $0) }
    }

    /// ``screen(utf8:)`` with the caller's scratch memory, which only the calling thread may
    /// be using.
    package func screen(utf8: UnsafeRawBufferPointer, scratch: Scratch) -> Screening {
        let raw = utf8.assumingMemoryBound(to: UInt8.self)
        if let passed = passesByDigits(raw, scratch: scratch, countingWarnings: true) { return passed ? .clean : .failing }
        guard isWellFormedUTF8(raw) else { return .failing }
        if isBlank(raw) { return .absent }
        return passesPresent(raw, scratch: scratch, countingWarnings: true) ? .clean : .failing
    }

    @inline(__always)
    private func passes(utf8: UnsafeRawBufferPointer, countingWarnings: Bool) -> Bool {
        let raw = utf8.assumingMemoryBound(to: UInt8.self)
        if digitPlan != nil,
           let passed = Scratch.withCurrent({ passesByDigits(raw, scratch: $0, countingWarnings: countingWarnings) }) {
            return passed
        }
        guard isWellFormedUTF8(raw) else { return false }
        if isBlank(raw) { return true }
        return Scratch.withCurrent { passesPresent(raw, scratch: $0, countingWarnings: countingWarnings) }
    }
}
