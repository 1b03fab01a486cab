import Testing
@testable import FormularyRules

/// `CompiledFieldType.lengthLimit` and `length(of:)`, and the editor's counter: what an app
/// needs for "12/160" without reading the checks.
@Suite struct LengthLimitTests {
    static let catalog = try! FieldCatalog.builtin(today: CivilDate(year: 2026, month: 1, day: 1))

    func type(_ source: String, _ reference: String? = nil) throws -> CompiledFieldType {
        let name = try #require(source.split(separator: "\n").first?.split(separator: " ").dropFirst().first)
        return try Self.catalog.adding(source: source, file: "\(name).field").fieldType(reference ?? String(name))
    }

    @Test func theBuiltinBioHasAGraphemeLimit() throws {
        let bio = try Self.catalog.fieldType("bio")
        #expect(bio.lengthLimit == LengthLimit(min: 0, max: 160, unit: .graphemes, rule: "length", severity: .error))
        #expect(bio.length(of: "Zoë 👨‍👩‍👧") == 5)
        // Normalization runs first, as it does for the check: the type trims.
        #expect(bio.length(of: "  ada  ") == 3)
        #expect(bio.length(of: "   ") == 0)
        #expect(try Self.catalog.fieldType("credit-card").lengthLimit == nil)
    }

    @Test func eachUnitCountsAsTheCheckDoes() throws {
        let family = "👨‍👩‍👧"       // 1 grapheme, 5 scalars, 8 UTF-16 units, 18 bytes
        for (unit, count) in [("graphemes", 1), ("scalars", 5), ("utf16", 8), ("bytes", 18)] {
            let t = try type("field t-\(unit)\nlength ...40 \(unit)")
            #expect(t.lengthLimit?.unit.rawValue == unit)
            #expect(t.length(of: family) == count, "\(unit)")
            #expect(t.length(of: "ab") == 2)
        }
    }

    @Test func parametersAreAppliedAndBoundsClosed() throws {
        let source = "field note\nparam most = 20\nlength 2<..<$most as size warning"
        #expect(try type(source).lengthLimit
                == LengthLimit(min: 3, max: 19, unit: .graphemes, rule: "size", severity: .warning))
        #expect(try type(source, "note(most: 11)").lengthLimit?.max == 10)
        #expect(try type("field open\nlength 8...").lengthLimit?.max == nil)
    }

    @Test func anUpperBoundOfErrorSeverityIsPreferred() throws {
        let t = try type("field multi\nlength 2... as at-least\nlength ...50 as soft warning\nlength ...60 bytes as hard")
        #expect(t.lengthLimit?.rule == "hard")
        #expect(t.length(of: "é") == 2)   // in the chosen limit's unit
        let soft = try type("field soft\nlength 2... as at-least\nlength ...50 as soft warning")
        #expect(soft.lengthLimit?.rule == "soft")
    }

    @Test func theMaskIsAppliedBeforeCounting() throws {
        let t = try type("field code\nnormalize strip-spaces\nmask \"000-000\"\nlength ...7")
        #expect(t.length(of: "123 456") == 7)   // "123-456": the check sees the literal too
    }

    @Test func theEditorShowsACounter() throws {
        var field = FieldEditor(type: try Self.catalog.fieldType("bio"))
        #expect(field.counter?.count == 0 && field.counter?.limit == 160)
        field.insert("Zoë 👨‍👩‍👧")
        #expect(field.counter?.count == 5)
        #expect(field.counterText == "5/160")
        field.insert(" ")   // kept at the end while typing; the check does not count it
        #expect(field.counterText == "5/160")
        #expect(FieldEditor(type: try type("field open\nlength 8...")).counter == nil)
        #expect(FieldEditor(type: try Self.catalog.fieldType("email")).counterText == "0/254")
    }
}
