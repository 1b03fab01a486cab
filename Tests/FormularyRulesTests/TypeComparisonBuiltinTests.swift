import Testing
@testable import FormularyRules

/// `TypeComparison` on the built-in types against edited copies of themselves: each edit
/// makes a relation known by construction, and the witnesses are what a person would name.
@Suite struct TypeComparisonBuiltinTests {
    struct Edit: CustomTestStringConvertible, Sendable {
        var type: String
        var find: String
        var replace: String
        var relation: TypeComparison.Relation
        var rejected: String?
        var accepted: String?
        var testDescription: String { "\(type): \(find) → \(replace)" }
    }

    static let edits: [Edit] = [
        Edit(type: "email", find: #"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+/"#,
             replace: #"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*/"#, relation: .superset, accepted: "a@a"),
        Edit(type: "email", find: "pattern /.*(?:[^0-9]|[^.0-9][0-9]+)/ as top-level-domain",
             replace: #"pattern /.*\.[A-Za-z]{2,}/ as top-level-domain"#, relation: .subset, rejected: "a@a.a"),
        Edit(type: "email", find: "length ...254 bytes", replace: "length ...200 bytes", relation: .subset,
             rejected: String(repeating: "a", count: 197) + "@a.a"),
        Edit(type: "age", find: "param min = 0", replace: "param min = 18", relation: .subset, rejected: "0"),
        Edit(type: "us-zip", find: "/[0-9]{5}(?:-[0-9]{4})?/", replace: "/[0-9]{5}/", relation: .subset,
             rejected: "00000-0000"),
        Edit(type: "phone", find: #"mask "(000) 000-0000""#, replace: #"mask "000-000-0000""#, relation: .same),
        Edit(type: "name", find: "length 1...100", replace: "length 1...50", relation: .subset,
             rejected: String(repeating: "a", count: 51)),
        Edit(type: "username", find: "normalize trim lowercase", replace: "normalize trim", relation: .subset, rejected: "aaA"),
        Edit(type: "username", find: "length 3...20", replace: "length 3...30", relation: .superset,
             accepted: String(repeating: "a", count: 21)),
        Edit(type: "exp-date", find: #"param latest = "today+12y""#, replace: #"param latest = "today+10y""#,
             relation: .subset, rejected: "1138"),
        Edit(type: "cvv", find: "length $digits", replace: "length 3...4", relation: .superset),
        Edit(type: "credit-card", find: "troy verve", replace: "verve", relation: .subset, rejected: "9792000000000003"),
        Edit(type: "decimal", find: "param places = 2", replace: "param places = 1", relation: .subset, rejected: "0.00"),
    ]

    /// The built-in file `NAME.field` with `edit` applied, without its examples (an edit may
    /// make them wrong).
    static func edited(_ edit: Edit) throws -> String {
        let file = try #require(BuiltinPluginFiles.files.first { $0.name == "\(edit.type).field" })
        #expect(file.text.contains(edit.find), "the edit does not apply to \(edit.type)")
        return file.text.replacingOccurrences(of: edit.find, with: edit.replace)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("accept") && !$0.hasPrefix("reject") }
            .joined(separator: "\n")
    }

    @Test(arguments: edits)
    func aBuiltinAgainstAnEditedCopy(_ edit: Edit) throws {
        let old = try TypeComparisonTests.catalog.fieldType(edit.type)
        let new = try TypeComparisonTests.type(try Self.edited(edit))
        let c = try TypeComparisonTests.compare(old, new)
        #expect(c.relation == edit.relation)
        if !c.secure {
            #expect(c.newlyRejected.witness == edit.rejected)
            #expect(c.newlyAccepted.witness == edit.accepted)
        }
        // Swapped, the relation turns around.
        let back = try TypeComparisonTests.compare(new, old)
        let turned: [TypeComparison.Relation: TypeComparison.Relation] = [.subset: .superset, .superset: .subset]
        #expect(back.relation == turned[edit.relation] ?? edit.relation)
    }

    /// A card that keeps Luhn but masks differently: Luhn cannot be set aside (it reads
    /// differently masked text), and the reason says it is in both, not "only in" one.
    @Test func aChecksumInBothVersionsIsNamedAsSuch() throws {
        let old = try TypeComparisonTests.catalog.fieldType("credit-card")
        let new = try TypeComparisonTests.type("""
            field credit-card
            normalize strip " -"
            mask "0000 0000 0000 0000"
            checksum luhn
            pattern /4.*/ as visa-only
            """)
        let c = try TypeComparisonTests.compare(old, new)
        #expect(c.newlyRejected.status == .some)
        #expect(c.newlyAccepted.status == .unknown)
        let reason = try #require(c.newlyAccepted.reason)
        #expect(reason.contains("checksum luhn in both") && !reason.contains("only in"), "\(reason)")
    }
}
