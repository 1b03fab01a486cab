import Testing
@testable import FormularyRules

/// `TypeComparison`: pairs of types whose relation is known by construction.
@Suite struct TypeComparisonTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)
    static let catalog = try! FieldCatalog.builtin(today: today)

    /// A type from its source (its first line names it), in a catalog of its own beside
    /// the built-in types.
    static func type(_ source: String) throws -> CompiledFieldType {
        let name = String(source.split(separator: "\n")[0].split(separator: " ")[1])
        return try catalog.adding(source: source, file: "\(name).field").fieldType(name)
    }

    static func compare(_ old: String, _ new: String) throws -> TypeComparison {
        let comparison = TypeComparison(old: try type(old), new: try type(new))
        try checkWitnesses(comparison, try type(old), try type(new))
        return comparison
    }

    /// Every witness holds when judged: a newly rejected value passes OLD and fails NEW.
    static func checkWitnesses(_ c: TypeComparison, _ old: CompiledFieldType, _ new: CompiledFieldType) throws {
        if let w = c.newlyRejected.witness {
            #expect(old.validate(w).verdict == .valid && new.validate(w).verdict == .invalid, "\(w)")
        }
        if let w = c.newlyAccepted.witness {
            #expect(new.validate(w).verdict == .valid && old.validate(w).verdict == .invalid, "\(w)")
        }
    }

    @Test func aRangeNarrowed() throws {
        let c = try Self.compare("field age\nnormalize trim\ninteger\nrange 0...150",
                                 "field age\nnormalize trim\ninteger\nrange 18...150")
        #expect(c.relation == .subset)
        #expect(c.newlyRejected.status == .some)
        #expect(c.newlyRejected.witness == "0")
        #expect(c.newlyRejected.isShortest)
        #expect(c.newlyAccepted.status == .none)
        #expect(c.rules.map(\.relation) == [.same, .subset])
    }
}
