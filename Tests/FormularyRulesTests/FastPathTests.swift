import Testing
@testable import FormularyRules

/// The engine's byte-level fast paths (batch validation's hot loop) must agree with the
/// general paths and with the standard library's Unicode data they stand in for.
@Suite struct FastPathTests {
    /// A deterministic generator of test strings (xorshift), so failures reproduce.
    private struct Strings {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        /// A string of up to `length` scalars drawn from `pool`.
        mutating func string(from pool: [Unicode.Scalar], length: Int) -> String {
            var text = ""
            for _ in 0..<next(length + 1) { text.unicodeScalars.append(pool[next(pool.count)]) }
            return text
        }
    }

    private static func scalars(_ ranges: ClosedRange<UInt32>...) -> [Unicode.Scalar] {
        ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
    }

    @Test func utf8ValidationAgreesWithTheStandardLibraryAtEveryLength() {
        // ASCII runs go eight bytes at a time and an ASCII tail in one overlapping load: an
        // invalid byte anywhere, in the tail above all, must still be found.
        var generator = SplitMix64(seed: 31)
        let pieces: [[UInt8]] = [[0x41], [0x20], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80],
                                 [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC0, 0xAF], [0xFF]]
        var differences: [String] = []
        for length in 0...40 {
            for _ in 0..<200 {
                var bytes = (0..<length).map { _ in UInt8(0x21 + Int.random(in: 0..<90, using: &generator)) }
                if length > 0 && Bool.random(using: &generator) {
                    let piece = pieces.randomElement(using: &generator)!
                    let at = Int.random(in: 0..<length, using: &generator)
                    bytes.replaceSubrange(at..<min(length, at + piece.count), with: piece)
                }
                let offset = bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset($0) }
                let valid = String(validating: bytes, as: UTF8.self) != nil
                if (offset == nil) != valid { differences.append("\(bytes): \(String(describing: offset)), valid \(valid)") }
                if let offset, String(validating: bytes[..<offset], as: UTF8.self) == nil {
                    differences.append("\(bytes): invalid before \(offset)")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test func whiteSpaceMatchesTheUnicodeProperty() {
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect(isWhiteSpace(s) == s.properties.isWhitespace, "U+\(String(v, radix: 16))")
        }
    }

    @Test func categoryHelpersMatchTheStandardLibrary() {
        for v in UInt32(0)..<0x3000 {
            guard let s = Unicode.Scalar(v) else { continue }
            let category = s.properties.generalCategory
            let letter = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
                .contains(category)
            let mark = [.nonspacingMark, .spacingMark, .enclosingMark].contains(category)
            let punctuation = [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                               .initialPunctuation, .finalPunctuation, .otherPunctuation].contains(category)
            #expect(isLetter(s) == letter, "U+\(String(v, radix: 16))")
            #expect((ScalarFlags.of(s) & ScalarFlags.mark != 0) == mark, "U+\(String(v, radix: 16))")
            #expect(isPunctuation(s) == punctuation, "U+\(String(v, radix: 16))")
            #expect((ScalarFlags.of(s) & ScalarFlags.spaceSeparator != 0) == (category == .spaceSeparator), "U+\(String(v, radix: 16))")
            if v < 0x80 { #expect(isASCIIPunctuation(UInt8(v)) == punctuation, "U+\(String(v, radix: 16))") }
        }
        #expect(!isASCIIPunctuation(0xA1))   // not ASCII, even though ¡ is punctuation
    }

    @Test func graphemeCountFastPathMatchesString() {
        // Below U+0300 the count is by scalars; above it `String` counts. Mixing both, with
        // CR LF pairs, combining marks and emoji sequences, must always give String's count.
        let pool = Self.scalars(0x20...0x7E, 0x0A...0x0D, 0xA0...0x2FF, 0x300...0x36F, 0x1F1E6...0x1F1FF)
            + ["\u{200D}", "\u{1F469}", "\u{FE0F}", "\u{1100}", "\u{1161}", "\u{AC00}", "\r", "\n", "\u{0085}"]
        var strings = Strings()
        for _ in 0..<5_000 {
            var text = strings.string(from: pool, length: 12)
            let expected = text.count
            let counted = text.withUTF8 { Length.count($0, .graphemes) }
            #expect(counted == expected, "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }

    @Test func asciiMaskFormattingMatchesTheScalarWalk() throws {
        let scratch = Scratch()
        let pool = Self.scalars(0x30...0x39, 0x41...0x43, 0x61...0x63, 0xE9...0xEA) + ["(", ")", " ", "-", "/", "\u{0416}", "\u{0660}"]
        var strings = Strings()
        for pattern in ["(000) 000-0000", "00/00", "000", "AAA 000", "**-**", "0000 0000 0000 0000", "\\0\\A-0"] {
            let mask = try #require(CompiledMask(pattern))
            for _ in 0..<2_000 {
                let shown = strings.string(from: pool, length: 20)
                expectFormatAgrees(mask, pattern, shown, scratch: scratch)
            }
        }
    }

    /// The mask's formatting of `shown` through its fast path and through the scalar walk:
    /// the same bytes and the same fit.
    private func expectFormatAgrees(_ mask: CompiledMask, _ pattern: String, _ shown: String, scratch: Scratch,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var value = shown
        value.withUTF8 { raw in
            let (fast, fastFit) = mask.format(raw, scratch: scratch, buffer: 0)
            let fastBytes = Array(fast)
            let (general, generalFit) = mask.formatByScalars(raw, scratch: scratch, buffer: 1)
            #expect(fastBytes == Array(general), "\(pattern) \(shown)", sourceLocation: sourceLocation)
            #expect(fastFit == generalFit, "\(pattern) \(shown)", sourceLocation: sourceLocation)
        }
    }

    /// Digit masks take a value of exactly their number of ASCII digits without the walk:
    /// the same bytes and fit as the scalar walk, and a value with any other character (or
    /// another length) takes the walk.
    @Test func digitMaskFormattingMatchesTheScalarWalk() throws {
        let scratch = Scratch()
        let digits = Self.scalars(0x30...0x39)
        let others: [Unicode.Scalar] = ["a", " ", "-", "(", "\u{0660}", "\u{0416}", "/"]
        var strings = Strings()
        for pattern in ["(000) 000-0000", "00/00", "000", "0000 0000 0000 0000", "0000 000000 00000", "0-0", "00 ", "\\A00"] {
            let mask = try #require(CompiledMask(pattern))
            for round in 0..<3_000 {
                let length = mask.slotCount + (round % 7 == 0 ? (round % 2 == 0 ? 1 : -1) : 0)
                var shown = String(String.UnicodeScalarView((0..<max(length, 0)).map { _ in digits[strings.next(digits.count)] }))
                if round % 5 == 0, !shown.isEmpty {
                    var scalars = Array(shown.unicodeScalars)
                    scalars[round % scalars.count] = others[round % others.count]
                    shown = String(String.UnicodeScalarView(scalars))
                }
                expectFormatAgrees(mask, pattern, shown, scratch: scratch)
            }
        }
    }

    @Test func inPlaceCapitalizeMatchesTheScalarWalk() {
        let scratch = Scratch()
        let pool = Self.scalars(0x61...0x66, 0x41...0x43, 0xDF...0xE9, 0x1C4...0x1C6, 0x3B1...0x3B3)
            + [" ", "-", "'", "(", "3", "\u{2010}", "\u{00A0}", "\u{2019}", "\u{0301}", "\u{FB01}", "\u{0587}"]
        var strings = Strings()
        var mapped = 0
        for _ in 0..<5_000 {
            let shown = strings.string(from: pool, length: 14)
            var value = shown
            value.withUTF8 { raw in
                let reference = NormalizeOperation.capitalizeByScalars(raw)
                if let fast = NormalizeOperation.capitalizeInPlace(raw, scratch: scratch, buffer: 0) {
                    #expect(Array(fast) == reference, "\(shown)")
                } else {
                    mapped += 1
                    #expect(reference != Array(raw), "\(shown): the in-place path gave up on a value that needs no mapping")
                }
            }
        }
        #expect(mapped > 0)   // the pool's ß, ǆ and ﬁ at word starts need the general path
    }

    @Test func monthFormatsAgreeWithDayArithmetic() throws {
        // `MM/yy` and `MM/yyyy` are judged by month numbers; the day-based span must agree.
        var strings = Strings()
        for _ in 0..<40 {
            let first = CivilDate(year: 2000 + strings.next(40), month: 1 + strings.next(12), day: 1 + strings.next(28))
            let last = Calendar.date(dayNumber: Calendar.dayNumber(first) + strings.next(2_000))
            let range = RangeSpec<DateBound>(lower: .value(.absolute(year: first.year, month: first.month, day: first.day)),
                                             upper: .value(.absolute(year: last.year, month: last.month, day: last.day)),
                                             upperInclusive: true)
            let long = try compile(definition(checks: [check(.date(format: "MM/yyyy", range: range))]), today: testToday)
            let short = try compile(definition(checks: [check(.date(format: "MM/yy", range: range))]), today: testToday)
            for year in 1995...2090 {
                for month in 0...13 {
                    let days = (1...12).contains(month) ? CivilDate.daysIn(month: month, year: year) : 0
                    let expected = days > 0
                        && Calendar.dayNumber(year: year, month: month, day: days) >= Calendar.dayNumber(first)
                        && Calendar.dayNumber(year: year, month: month, day: 1) <= Calendar.dayNumber(last)
                    let mm = month < 10 ? "0\(month)" : "\(month)"
                    #expect(long.isValid("\(mm)/\(year)") == expected, "\(mm)/\(year) in \(first)…\(last)")
                    let windowed = DateFormat.windowYear(year % 100, todayYear: testToday.year)
                    if windowed == year {
                        let yy = year % 100 < 10 ? "0\(year % 100)" : "\(year % 100)"
                        #expect(short.isValid("\(mm)/\(yy)") == expected, "\(mm)/\(yy) in \(first)…\(last)")
                    }
                }
            }
        }
    }
}
