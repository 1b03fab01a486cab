import Testing
@testable import FormularyRules

/// The stage invariant: no prefix of a value that passes the final stage is `invalid` live.
@Suite struct LiveTests {
    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        mutating func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(next(10))) }) }
        mutating func letters(_ n: Int, from alphabet: String = "abcdefghijklmnopqrstuvwxyz") -> String {
            let a = Array(alphabet)
            return String((0..<n).map { _ in a[next(a.count)] })
        }
    }

    private func assertPrefixesNeverInvalid(_ type: CompiledFieldType, _ values: [String]) {
        var checked = 0
        for value in values {
            guard type.validate(value).verdict == .valid else { continue }
            checked += 1
            var prefix = ""
            for c in value {
                prefix.append(c)
                let verdict = type.validate(prefix, stage: .live).verdict
                #expect(verdict != .invalid, "prefix \"\(prefix)\" of valid \"\(value)\" is invalid live")
                if verdict == .invalid { return }
            }
            #expect(type.live(value) == .valid)
        }
        #expect(checked >= values.count / 2, "too few generated values were valid: \(checked)")
    }

    private static func luhnComplete(_ body: String) -> String {
        for d in 0...9 where Array((body + String(d)).utf8).withUnsafeBufferPointer({ Checksum.luhn($0) }) {
            return body + String(d)
        }
        return body
    }

    @Test func creditCard() throws {
        let type = try compileType(normalize: [.strip(" -")], mask: "0000 0000 0000 0000", check(.checksum(.luhn)))
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var values: [String] = []
        for i in 0..<300 {
            let digits = Self.luhnComplete("4" + g.digits(14))
            values.append(i % 3 == 0 ? digits : i % 3 == 1 ? type.format(digits)
                          : stride(from: 0, to: 16, by: 4).map { n in
                              String(digits.dropFirst(n).prefix(4)) }.joined(separator: "-"))
        }
        assertPrefixesNeverInvalid(type, values)
    }

    @Test func phoneMask() throws {
        let type = try compileType(mask: "(000) 000-0000")
        var g = Generator(state: 42)
        assertPrefixesNeverInvalid(type, (0..<300).map { i in
            let d = g.digits(10)
            return i % 2 == 0 ? d : type.format(d)
        })
    }

    @Test func ageRange() throws {
        let type = try compileType(check(.integer), check(.range(decimalRange("18", "120"))))
        assertPrefixesNeverInvalid(type, (18...120).map(String.init) + ["018", "0120", "00018"])
        #expect(type.live("13") == .invalid)
        #expect(type.live("2") == .incomplete)
    }

    @Test func expiryDate() throws {
        let range = RangeSpec<DateBound>(lower: .value(.today(offset: -12, unit: .years)),
                                         upper: .value(.today(offset: 12, unit: .years)), upperInclusive: true)
        let type = try compile(definition(checks: [check(.date(format: "MM/yy", range: range))]))
        var values: [String] = []
        for m in 1...12 { for y in 0...99 { values.append(String(format2: m) + "/" + String(format2: y)) } }
        assertPrefixesNeverInvalid(type, values.filter { type.isValid($0) } + values.prefix(10))
        let full = try compile(definition(checks: [check(.date(format: "dd.MM.yyyy", range: range))]))
        var g = Generator(state: 7)
        assertPrefixesNeverInvalid(full, (0..<400).map { _ in
            String(format2: 1 + g.next(31)) + "." + String(format2: 1 + g.next(12)) + "." + String(2014 + g.next(25))
        })
    }

    @Test func emailPattern() throws {
        let type = try compileType(normalize: [.trim, .lowercase],
                                   check(.pattern(source: "[a-z0-9._%+-]+@[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.[a-z]{2,}", flags: [])),
                                   check(.length(closed(3, 254), .graphemes)))
        var g = Generator(state: 99)
        assertPrefixesNeverInvalid(type, (0..<300).map { _ in
            g.letters(1 + g.next(8), from: "abcxyz019._+-") + "@" + g.letters(1 + g.next(6)) + "." + g.letters(2 + g.next(3))
        })
    }

    @Test func decimalPlaces() throws {
        let type = try compileType(check(.decimal(places: .value(2))), check(.range(decimalRange("-50", "1000.5"))))
        var g = Generator(state: 1234)
        assertPrefixesNeverInvalid(type, (0..<400).map { _ in
            let sign = g.next(4) == 0 ? "-" : ""
            let whole = String(g.next(sign.isEmpty ? 1001 : 51))
            let places = g.next(3)
            return sign + whole + (places == 0 ? "" : "." + g.digits(places))
        })
    }

    @Test func oneOfAndCharset() throws {
        let type = try compileType(check(.oneOf(["Red", "Green", "Greenish"], ignoreCase: true)),
                                   check(.charset([.letters])))
        assertPrefixesNeverInvalid(type, ["red", "GREEN", "greenish", "Red"])
        #expect(type.live("gre") == .incomplete)
        #expect(type.live("blue") == .invalid)
        #expect(type.failed("Gr3", .live) == ["one-of", "charset"])
    }
}

extension String {
    init(format2 n: Int) { self = n < 10 ? "0\(n)" : "\(n)" }
}
