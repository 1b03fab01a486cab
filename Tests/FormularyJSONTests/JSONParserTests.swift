import Testing
@testable import FormularyJSON

@Suite struct JSONParserTests {
    private func parseError(_ text: String) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONValue(parsing: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesScalars() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: " \t\r\ntrue\n") == .bool(true))
        #expect(try JSONValue(parsing: "false") == .bool(false))
        #expect(try JSONValue(parsing: "\"hi\"") == .string("hi"))
        #expect(try JSONValue(parsing: "\"\"") == .string(""))
    }

    @Test(arguments: ["0", "-0", "30", "1.50", "-12.5e-3", "1E+400", "123456789012345678901234567890", "0.0e0"])
    func keepsNumberText(_ text: String) throws {
        #expect(try JSONValue(parsing: text) == .number(text))
    }

    @Test(arguments: ["01", "-", "+1", ".5", "1.", "1e", "1e+", "-a", "0x10", "NaN", "Infinity", "- 1"])
    func rejectsBadNumbers(_ text: String) {
        let error = parseError(text)
        #expect(error != nil, "accepted \(text)")
    }

    @Test func leadingZeroIsNamed() {
        #expect(parseError("[01]")?.kind == .invalidNumber)
        #expect(parseError("[01]")?.message.contains("leading zeros") == true)
    }

    @Test func keepsObjectOrderAndNesting() throws {
        let value = try JSONValue(parsing: #"{"b": 1, "a": [true, null, {"c": "d"}], "": {}}"#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", ""])
        #expect(value["b"] == .number("1"))
        #expect(value["a"]?[0] == .bool(true))
        #expect(value["a"]?[1] == .null)
        #expect(value["a"]?[2]?["c"] == .string("d"))
        #expect(value["a"]?[3] == nil)
        #expect(value[""] == .object(JSONObject()))
        #expect(value["missing"] == nil)
    }

    @Test func decodesEscapes() throws {
        let value = try JSONValue(parsing: #""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{C}\n\r\tAé€😀"))
    }

    @Test func keepsRawUTF8() throws {
        #expect(try JSONValue(parsing: "\"Zoë – 日本 😀\"") == .string("Zoë – 日本 😀"))
    }

    @Test func rejectsLoneSurrogates() {
        #expect(parseError(#""\ud83d""#)?.kind == .loneSurrogate)
        #expect(parseError(#""\ud83dx""#)?.kind == .loneSurrogate)
        #expect(parseError(#""\ud83d\u0041""#)?.kind == .loneSurrogate)
        #expect(parseError(#""\ude00""#)?.kind == .loneSurrogate)
    }

    @Test func rejectsBadEscapes() {
        #expect(parseError(#""\x""#)?.kind == .invalidEscape)
        #expect(parseError(#""\u12G4""#)?.kind == .invalidEscape)
        #expect(parseError(#""\u12"#)?.kind == .unexpectedEnd)
        #expect(parseError(#""abc"#)?.kind == .unexpectedEnd)
    }

    @Test func rejectsRawControlCharacters() {
        let error = parseError("\"a\tb\"")
        #expect(error?.kind == .controlCharacter)
        #expect(error?.offset == 2)
    }

    @Test func rejectsInvalidUTF8WithItsOffset() {
        // A lone continuation byte, an overlong "/", an encoded surrogate, a truncated sequence.
        for (bytes, offset) in [([0x22, 0x61, 0x80, 0x22], 2), ([0x22, 0xC0, 0xAF, 0x22], 1),
                                ([0x22, 0x61, 0x62, 0xED, 0xA0, 0x80, 0x22], 3), ([0x22, 0xE2, 0x82, 0x22], 1)] as [([UInt8], Int)] {
            let error = parseError(bytes: bytes)
            #expect(error?.kind == .invalidUTF8)
            #expect(error?.offset == offset)
        }
        // Outside strings a non-ASCII byte is simply unexpected.
        #expect(parseError(bytes: [0xEF, 0xBB, 0xBF, 0x31])?.kind == .unexpectedCharacter)
    }

    @Test func rejectsTrailingGarbage() {
        let error = parseError("{\"a\":1} x")
        #expect(error?.kind == .trailingCharacters)
        #expect(error?.offset == 8)
        #expect(error?.column == 9)
        #expect(parseError("1 2")?.kind == .trailingCharacters)
        #expect(parseError("[1],")?.kind == .trailingCharacters)
    }

    @Test func rejectsStructuralMistakes() {
        #expect(parseError("")?.kind == .unexpectedEnd)
        #expect(parseError("   ")?.kind == .unexpectedEnd)
        #expect(parseError("[1,]")?.kind == .unexpectedCharacter)
        #expect(parseError("{\"a\":1,}")?.kind == .unexpectedCharacter)
        #expect(parseError("{a:1}")?.kind == .unexpectedCharacter)
        #expect(parseError("{'a':1}")?.kind == .unexpectedCharacter)
        #expect(parseError("{\"a\" 1}")?.kind == .unexpectedCharacter)
        #expect(parseError("[1 2]")?.kind == .unexpectedCharacter)
        #expect(parseError("[1")?.kind == .unexpectedEnd)
        #expect(parseError("tru")?.kind == .unexpectedEnd)
        #expect(parseError("nul1")?.kind == .unexpectedCharacter)
        #expect(parseError("// c\n1")?.kind == .unexpectedCharacter)
    }

    @Test func rejectsDuplicateKeys() {
        let error = parseError(#"{"a":1,"b":2,"a":3}"#)
        #expect(error?.kind == .duplicateKey)
        #expect(error?.offset == 13)
        // Large objects switch to a hashed check; it must agree.
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseError("{\(members),\"k3\":0}")?.kind == .duplicateKey)
        #expect(parseError("{\(members)}") == nil)
    }

    @Test func reportsLineAndColumnInCharacters() {
        let error = parseError("{\n  \"é😀\": tru\n}")
        #expect(error?.line == 2)
        // `  "é😀": ` is 8 characters, then `tru`: the error is at the newline.
        #expect(error?.column == 12)
        #expect(error?.description.hasPrefix("line 2, column 12: ") == true)
    }

    @Test func limitsDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(parseError(deep)?.kind == .tooDeep)
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(parseError(ok) == nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parseError(tooDeep)?.kind == .tooDeep)
        let shallow = JSONParser(maxDepth: 2)
        #expect(throws: JSONParseError.self) { try shallow.parse("[[[1]]]") }
        #expect(try shallow.parse("[[1]]") == [[1]])
    }
}

@Suite struct UTF8ValidationTests {
    private func offset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset(in: $0) }
    }

    @Test func knownCases() {
        #expect(offset([]) == nil)
        #expect(offset(Array("plain ASCII text, longer than eight bytes".utf8)) == nil)
        #expect(offset(Array("Zoë 日本 😀 \u{10FFFF}".utf8)) == nil)
        #expect(offset([0x61, 0x80]) == 1)                    // lone continuation
        #expect(offset([0xC0, 0xAF]) == 0)                    // overlong
        #expect(offset([0xE0, 0x9F, 0xBF]) == 0)              // overlong 3-byte
        #expect(offset([0xED, 0xA0, 0x80]) == 0)              // encoded surrogate
        #expect(offset([0xF4, 0x90, 0x80, 0x80]) == 0)        // past U+10FFFF
        #expect(offset([0xF5, 0x80, 0x80, 0x80]) == 0)
        #expect(offset(Array("12345678é".utf8).dropLast()) == 8)  // truncated at the end
        #expect(offset([0xE2, 0x82, 0x41]) == 0)              // bad third byte
    }

    /// The standard library's parser is the reference.
    @Test func agreesWithTheStandardLibrary() {
        var generator = SplitMix64(seed: 99)
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                                    0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            var expected: Int?
            var position = 0
            loop: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let scalar): position += scalar.count
                case .error: expected = position; break loop
                case .emptyInput: break loop
                }
            }
            #expect(offset(bytes) == expected, "\(bytes)")
        }
    }
}
