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
}
