/// One compiled check line, ready to run on the normalized, formatted value's bytes.
///
/// A class with constant properties, so that running a check borrows its payloads instead
/// of copying (and retaining) them; the hot loops reach checks through `Unmanaged`.
final class CompiledCheck: Sendable {
    enum Kind: Sendable {
        /// Closed bounds in `unit`; `upper` nil is unbounded.
        case length(lower: Int, upper: Int?, unit: LengthUnit)
        case integer
        case decimal(places: Int?)
        case range(DecimalRange)
        /// `negated`: `pattern not`, which passes when the value does not match.
        case pattern(PatternProgram, negated: Bool)
        case charset(CharsetMatcher)
        case oneOf(OneOfMatcher)
        case date(DateCheck)
        case checksum(ChecksumAlgorithm)
        /// The names of the masks the value may take (`mask-one-of`); judged by the type,
        /// which knows the mask chosen (``CompiledFieldType/maskOneOfPasses``).
        case maskOneOf(Set<String>)
    }

    let kind: Kind
    let rule: String
    let severity: Severity
    /// Marked `final` in the source; checksums are final-only whatever the line says.
    let finalOnly: Bool
    let message: MessageTemplate
    /// The byte between a number's whole and fractional digits for `decimal` and `range`:
    /// the type's `decimal-separator`.
    private let separator: UInt8

    // `kind` unpacked into plain stored properties for `evaluate`: binding an enum's
    // payload copies it (retaining the arrays and objects inside), which was a fifth of
    // batch validation's time; reading a constant property of a final class borrows it.
    private enum Tag: UInt8 { case length, integer, decimal, range, pattern, charset, oneOf, date, checksum, maskOneOf }
    private let tag: Tag
    private let lengthLower: Int
    private let lengthUpper: Int?
    private let lengthUnit: LengthUnit
    private let places: Int?
    private let range: DecimalRange?
    private let program: PatternProgram?
    private let programRef: Unmanaged<PatternProgram>?
    private let negated: Bool
    private let charset: CharsetMatcher?
    private let oneOf: OneOfMatcher?
    private let date: DateCheck?
    private let algorithm: ChecksumAlgorithm
    /// `mask-one-of`'s names (nil for every other kind), read by the type before `evaluate`.
    let maskNames: Set<String>?

    init(kind: Kind, rule: String, severity: Severity, finalOnly: Bool, message: MessageTemplate,
         separator: DecimalSeparator = .point) {
        self.kind = kind
        self.separator = separator.byte
        self.rule = rule
        self.severity = severity
        self.finalOnly = finalOnly
        self.message = message
        var (lower, upper, unit, places) = (0, Int?.none, LengthUnit.graphemes, Int?.none)
        var algorithm = ChecksumAlgorithm.luhn
        var (range, program, charset, oneOf, date): (DecimalRange?, PatternProgram?, CharsetMatcher?, OneOfMatcher?, DateCheck?)
        var negated = false
        var maskNames: Set<String>? = nil
        switch kind {
        case let .length(l, u, n): (tag, lower, upper, unit) = (.length, l, u, n)
        case .integer: tag = .integer
        case .decimal(let p): (tag, places) = (.decimal, p)
        case .range(let r): (tag, range) = (.range, r)
        case .pattern(let p, let not): (tag, program, negated) = (.pattern, p, not)
        case .charset(let c): (tag, charset) = (.charset, c)
        case .oneOf(let o): (tag, oneOf) = (.oneOf, o)
        case .date(let d): (tag, date) = (.date, d)
        case .checksum(let a): (tag, algorithm) = (.checksum, a)
        case .maskOneOf(let names): (tag, maskNames) = (.maskOneOf, names)
        }
        self.maskNames = maskNames
        (lengthLower, lengthUpper, lengthUnit, self.places) = (lower, upper, unit, places)
        (self.range, self.program, self.charset, self.oneOf, self.date) = (range, program, charset, oneOf, date)
        programRef = program.map { Unmanaged.passUnretained($0) }
        self.negated = negated
        self.algorithm = algorithm
    }

    /// The pattern of a `pattern` check of error severity (not `pattern not`), which a
    /// batch-tuned type may run together with its others (``CompiledFieldType/patternGate``).
    var gateablePattern: PatternProgram? {
        tag == .pattern && !negated && severity == .error && program?.isDFA == true ? program : nil
    }

    /// Whether the check runs in the live stage.
    var runsLive: Bool {
        if finalOnly { return false }
        if case .checksum = kind { return false }
        return true
    }

    /// Whether `b` passes the check in `stage`. A pattern's live stage is exact: `pattern`
    /// fails only when no continuation can match, `pattern not` only when every continuation
    /// matches (known for a DFA; an NFA's `pattern not` waits for the final stage).
    @inline(__always)
    func evaluate(_ b: Bytes, stage: Stage, scratch: Scratch) -> Bool {
        let live = stage == .live
        switch tag {
        case .length:
            let n = Length.count(b, lengthUnit)
            if let upper = lengthUpper, n > upper { return false }
            return live || n >= lengthLower
        case .integer:
            return NumberSyntax.isInteger(b, prefix: live)
        case .decimal:
            return NumberSyntax.isDecimal(b, places: places, prefix: live, separator: separator)
        case .range:
            if live { return range.unsafelyUnwrapped.liveAllows(b, separator: separator) }
            guard let number = DecimalParts(b, separator: separator) else { return false }
            return range.unsafelyUnwrapped.contains(number)
        case .pattern:
            return programRef.unsafelyUnwrapped._withUnsafeGuaranteedRef { program in
                if !live { return program.matches(b, scratch: scratch) != negated }
                let end = program.end(b, scratch: scratch)
                return negated ? !end.isUniversal : !end.isDead
            }
        case .charset:
            return charset.unsafelyUnwrapped.accepts(b)
        case .oneOf:
            return oneOf.unsafelyUnwrapped.accepts(b, prefix: live)
        case .date:
            return live ? date.unsafelyUnwrapped.passesLive(b) : date.unsafelyUnwrapped.passesFinal(b)
        case .checksum:
            return Checksum.passes(b, algorithm)
        case .maskOneOf:
            return true   // the type judges it: it needs the mask chosen
        }
    }
}

enum Length {
    /// The value's length in `unit`. ASCII values count bytes, except that "\r\n" is one
    /// grapheme.
    @inline(__always)
    static func count(_ b: Bytes, _ unit: LengthUnit) -> Int {
        switch unit {
        case .bytes:
            return b.count
        case .scalars, .utf16:
            var n = 0
            for c in b where c & 0xC0 != 0x80 { n += (unit == .utf16 && c >= 0xF0) ? 2 : 1 }
            return n
        case .graphemes:
            // Below U+0300 (ASCII, Latin-1, Latin Extended A and B, IPA) no scalar extends a
            // cluster or is a Hangul or regional-indicator part, so every scalar is one
            // grapheme except LF after CR; combining marks start at U+0300. Values with other
            // scalars are counted by `String`.
            var n = 0
            var previous: UInt8 = 0
            for c in b {
                if c >= 0xCC { return makeString(b).count }   // a lead byte of U+0300 or above
                if c & 0xC0 != 0x80 && !(c == 0x0A && previous == 0x0D) { n += 1 }
                previous = c
            }
            return n
        }
    }
}

enum NumberSyntax {
    /// `-?[0-9]+`, or with `prefix` any prefix of it ("", "-").
    @inline(__always)
    static func isInteger(_ b: Bytes, prefix: Bool) -> Bool {
        var i = 0
        if b.count > 0 && b[0] == UInt8(ascii: "-") { i = 1 }
        let start = i
        while i < b.count {
            guard b[i].isASCIIDigit else { return false }
            i += 1
        }
        return prefix || i > start
    }

    /// `-?[0-9]+(\.[0-9]{1,places})?` with `separator` for the point, or with `prefix` any
    /// prefix of it ("-", "12.").
    @inline(__always)
    static func isDecimal(_ b: Bytes, places: Int?, prefix: Bool, separator: UInt8) -> Bool {
        var i = 0
        if b.count > 0 && b[0] == UInt8(ascii: "-") { i = 1 }
        let start = i
        while i < b.count && b[i].isASCIIDigit { i += 1 }
        let integerDigits = i - start
        if i == b.count { return prefix || integerDigits > 0 }
        guard b[i] == separator, integerDigits > 0 else { return false }
        if let places, places == 0 { return false }
        i += 1
        let fractionStart = i
        while i < b.count && b[i].isASCIIDigit { i += 1 }
        guard i == b.count else { return false }
        let fractionDigits = i - fractionStart
        if let places, fractionDigits > places { return false }
        return prefix || fractionDigits > 0
    }
}

enum Checksum {
    static func passes(_ b: Bytes, _ algorithm: ChecksumAlgorithm) -> Bool {
        switch algorithm {
        case .luhn: luhn(b)
        case .mod97: mod97(b)
        case .gtin: gtin(b)
        case .isbn10: isbn10(b)
        case .isbn: isbn(b)
        case .verhoeff: verhoeff(b)
        }
    }

    /// Luhn over the ASCII digits, other characters ignored; no digits fails.
    @inline(__always)
    static func luhn(_ b: Bytes) -> Bool {
        // Without a branch per byte: a formatted card number has a space every fifth byte.
        var sum = 0, digits = 0
        var i = b.count - 1
        while i >= 0 {
            let d = Int(b[i] &- 0x30)
            let isDigit = d < 10
            let twice = d &* 2
            let value = digits & 1 == 1 ? (twice > 9 ? twice &- 9 : twice) : d
            sum &+= isDigit ? value : 0
            digits &+= isDigit ? 1 : 0
            i -= 1
        }
        return digits > 0 && sum % 10 == 0
    }

    /// ISO 7064 MOD 97-10 as for IBAN: ASCII letters and digits, white space ignored, the
    /// first four moved to the end, letters A/a = 10 … Z/z = 35; the number mod 97 must be
    /// 1. Any other character, or fewer than five letters and digits, fails.
    static func mod97(_ b: Bytes) -> Bool {
        var values: [Int] = []
        values.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            if c.isASCIIDigit { values.append(Int(c - 0x30)) }
            else if c.isASCIILetter { values.append(Int((c | 0x20) - 0x61) + 10) }
            else if c < 0x80 ? !c.isASCIIWhiteSpace : !isWhiteSpace(decodeScalar(b, at: i).scalar) { return false }
            i += scalarLength(leadByte: c)
        }
        guard values.count >= 5 else { return false }
        var r = 0
        for k in 0..<values.count {
            let v = values[(k + 4) % values.count]
            r = (v < 10 ? r * 10 + v : r * 100 + v) % 97
        }
        return r == 1
    }
}
