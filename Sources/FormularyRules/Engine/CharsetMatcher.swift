/// A compiled `charset CLASS…`: every scalar of the value must be in one of the classes.
///
/// `digits` ASCII 0–9; `letters` general category L; `marks` M; `spaces` Zs and tab;
/// `punctuation` P; `alphanumerics` L, M and ASCII digits; a quoted string lists literal
/// scalars. ASCII membership is precomputed into a bitmap.
struct CharsetMatcher: Sendable {
    private var ascii: CharacterSetBits
    private var literals: CharacterSetBits
    /// The named classes as ``ScalarFlags`` bits.
    private var named: UInt8 = 0

    init(_ classes: [CharsetClass]) {
        var literals = CharacterSetBits([])
        var spaces = false
        for c in classes {
            switch c {
            case .digits: break
            case .letters: named |= ScalarFlags.letter
            case .marks: named |= ScalarFlags.mark
            case .spaces: named |= ScalarFlags.spaceSeparator; spaces = true
            case .punctuation: named |= ScalarFlags.punctuation
            case .alphanumerics: named |= ScalarFlags.letter | ScalarFlags.mark
            case .literal(let text): for s in text.unicodeScalars { literals.insert(s) }
            }
        }
        self.literals = literals
        let digits = classes.contains { $0 == .digits || $0 == .alphanumerics }
        var ascii = CharacterSetBits([])
        for v in UInt8(0)..<128 {
            let s = Unicode.Scalar(v)
            if (digits && v.isASCIIDigit) || (spaces && v == 0x09) || literals.contains(s)
                || ScalarFlags.of(s) & named != 0 {
                ascii.insert(s)
            }
        }
        self.ascii = ascii
    }

    /// Live and final alike: fails on the first foreign scalar.
    @inline(__always)
    func accepts(_ b: Bytes) -> Bool {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                guard ascii.containsASCII(c) else { return false }
                i += 1
            } else {
                let (s, n) = decodeScalar(b, at: i)
                guard ScalarFlags.of(s) & named != 0 || literals.contains(s) else { return false }
                i += n
            }
        }
        return true
    }
}

/// A compiled `one-of "A" "B"… [ignore-case]`.
///
/// Final: the value equals an option (with `ignore-case`, after Unicode lower-casing both).
/// Live: some option starts with the value.
struct OneOfMatcher: Sendable {
    private let options: [[UInt8]]
    let ignoreCase: Bool

    init(_ options: [String], ignoreCase: Bool) {
        self.ignoreCase = ignoreCase
        self.options = options.map { Array(ignoreCase ? $0.lowercased().utf8 : $0.utf8) }
    }

    func accepts(_ b: Bytes, prefix: Bool) -> Bool {
        if ignoreCase && !isAllASCII(b) {
            let lowered = Array(makeString(b).lowercased().utf8)
            return lowered.withUnsafeBufferPointer { matches($0, prefix: prefix, fold: false) }
        }
        return matches(b, prefix: prefix, fold: ignoreCase)
    }

    @inline(__always)
    private func matches(_ b: Bytes, prefix: Bool, fold: Bool) -> Bool {
        options: for option in options {
            guard prefix ? option.count >= b.count : option.count == b.count else { continue }
            for k in 0..<b.count {
                var c = b[k]
                if fold && c &- 0x41 < 26 { c += 0x20 }
                guard c == option[k] else { continue options }
            }
            return true
        }
        return false
    }
}
