import Testing
@testable import FormularyRules

@Suite struct NormalizationTests {
    private func normalized(_ steps: [NormalizeStep], _ value: String) throws -> String {
        try compileType(normalize: steps).format(value)
    }

    @Test func trimRemovesUnicodeWhiteSpaceAtBothEnds() throws {
        #expect(try normalized([.trim], "  a b \t") == "a b")
        #expect(try normalized([.trim], "\u{00A0}\u{3000}名前\u{2003}\n") == "名前")
        #expect(try normalized([.trim], "x") == "x")
    }

    @Test func collapseSpacesMakesRunsOneSpace() throws {
        #expect(try normalized([.collapseSpaces], "a  \t b\u{2003}\u{00A0}c") == "a b c")
        #expect(try normalized([.trim, .collapseSpaces], "  Jean   Luc  ") == "Jean Luc")
    }

    @Test func stripSpacesRemovesAllWhiteSpace() throws {
        #expect(try normalized([.stripSpaces], " 41 11\t11\u{00A0}11 ") == "41111111")
    }

    @Test func stripRemovesListedCharactersOnly() throws {
        #expect(try normalized([.strip(" -")], "4111-1111 1111-1111") == "4111111111111111")
        #expect(try normalized([.strip("·é")], "a·b·é·c") == "abc")
        // Letters and digits not listed stay: a stray letter is an error, not dropped.
        #expect(try normalized([.strip(" -")], "4111-11x1") == "411111x1")
    }

    @Test func caseMapping() throws {
        #expect(try normalized([.uppercase], "gb82 west") == "GB82 WEST")
        #expect(try normalized([.uppercase], "straße") == "STRASSE")
        #expect(try normalized([.lowercase], "ÉCOLE Ab") == "école ab")
    }

    @Test func capitalizeUpperCasesTheFirstLetterOfEachWord() throws {
        #expect(try normalized([.capitalize], "jean-luc o'neil") == "Jean-Luc O'neil")
        #expect(try normalized([.capitalize], "mcDONALD  van der berg") == "McDONALD  Van Der Berg")
        #expect(try normalized([.capitalize], "(bob) 3rd émile") == "(Bob) 3rd Émile")
        #expect(try normalized([.capitalize], "ǆemal") == "ǅemal")
    }

    @Test func stepsRunInOrder() throws {
        #expect(try normalized([.strip("-"), .collapseSpaces, .trim], " a - b ") == "a b")
        #expect(try normalized([.trim, .collapseSpaces, .strip("-")], " a - b ") == "a  b")
    }

    @Test func checksRunOnTheNormalizedValue() throws {
        let type = try compileType(normalize: [.trim, .uppercase], check(.oneOf(["YES", "NO"], ignoreCase: false)))
        #expect(type.isValid(" yes "))
        #expect(type.validate(" no").formatted == "NO")
        #expect(!type.isValid("maybe"))
    }

    /// `strip` of ASCII characters and `strip-spaces` take a fast path on ASCII text: it must
    /// agree with the general one on every byte, and step aside for anything else.
    @Test func theASCIIFastPathAgreesWithTheGeneralPath() {
        let scratch = Scratch()
        let alphabet: [UInt8] = Array(0x00...0x7F)
        var state: UInt64 = 5
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for operation in [NormalizeOperation.strip(CharacterSetBits(" -().".unicodeScalars)), .stripSpaces,
                          .strip(CharacterSetBits("\u{7F}\u{00}a".unicodeScalars))] {
            let box = NormalizeStepBox(operation)
            var values: [[UInt8]] = [[], Array("4111 1111-1111 1111".utf8), Array(" \t\n\u{0B}\u{0C}\r x".utf8),
                                     Array("é 1-2".utf8), Array("1\u{00A0}2 3".utf8)]
            for _ in 0..<3000 {
                values.append((0..<(next() % 40)).map { _ in alphabet[next() % alphabet.count] })
            }
            for value in values {
                value.withUnsafeBufferPointer { src in
                    let fast = Array(box.apply(src, scratch: scratch, buffer: 0))
                    let general = Array(operation.apply(src, scratch: scratch, buffer: 1))
                    #expect(fast == general, "\(operation) \(value)")
                }
            }
        }
    }
}
