import Testing
@testable import FormularyRules

/// The generated tables: the general categories are the running standard library's, scalar
/// by scalar (regenerate with `make unicode-tables` when the toolchain's Unicode moves on);
/// scripts and case folding decode as Unicode's files say.
@Suite struct UnicodeTablesTests {
    @Test func generalCategoriesAreTheStandardLibrarys() {
        let order: [Unicode.GeneralCategory] = [
            .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
            .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .control, .format, .surrogate, .privateUse, .unassigned,
        ]
        #expect(order.count == GeneralCategory.allCases.count)
        let sets = UnicodeTables.categorySets
        var differences: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = order.firstIndex(of: scalar.properties.generalCategory)!
            if !sets[expected].contains(value) { differences.append(String(value, radix: 16)) }
        }
        #expect(differences.isEmpty, "\(differences.count) scalars differ, e.g. \(differences.prefix(8)); run make unicode-tables")
        // The sets partition the scalars.
        #expect(sets.reduce(0) { $0 + $1.count } == ScalarSet.all.count)
    }

    @Test func scriptsAndTheirAliases() throws {
        let latin = try #require(UnicodeTables.script("latin"))
        #expect(latin.contains(0x41) && latin.contains(0xE9) && !latin.contains(0x3B1) && !latin.contains(0x30))
        #expect(UnicodeTables.script("latn") == latin)
        #expect(UnicodeTables.script("zyyy") == UnicodeTables.script("common"))
        #expect(UnicodeTables.script("klingon") == nil)
        let unknown = try #require(UnicodeTables.script("unknown"))
        #expect(unknown.contains(0x378) && !unknown.contains(0x41))
        #expect(UnicodeProperty.named("Old_Italic") == UnicodeProperty.named("old italic"))
        #expect(UnicodeProperty.named("Cased_Letter") == UnicodeTables.categories([.lu, .ll, .lt]))
        #expect(UnicodeTables.scriptsVersion == "15.0.0" && UnicodeTables.caseFoldingVersion == "15.0.0")
        // The category names are written loose in the table: each spelling finds its entry.
        for name in GeneralCategory.displayNames {
            #expect(GeneralCategory.byName[UnicodeProperty.loose(name)] != nil, "\(name)")
        }
        #expect(GeneralCategory.byName.count == GeneralCategory.displayNames.count + 1, "and Combining_Mark")
    }

    /// Simple case folding: orbits with three members, the status S mappings, and no full
    /// (status F) or Turkic (status T) ones.
    @Test func caseFoldingOrbits() {
        func orbit(_ scalar: Unicode.Scalar) -> [UInt32] {
            CaseFolding.closed(ScalarSet(scalar: scalar.value)).ranges.flatMap { Array($0.lo...$0.hi) }
        }
        #expect(orbit("k") == [0x4B, 0x6B, 0x212A])
        #expect(orbit("σ") == [0x3A3, 0x3C2, 0x3C3])
        #expect(orbit("ẞ") == [0xDF, 0x1E9E], "status S: ẞ folds to ß")
        #expect(orbit("İ") == [0x130], "status T only")
        #expect(orbit("1") == [0x31])
        // One scalar's variants, looked up directly, are its closure.
        for value in Array(UInt32(0)...0x2FF) + [0x212A, 0x1E9E, 0x3C2, 0x10400, 0x1E900, 0xD800] {
            #expect(CaseFolding.variants(of: value) == CaseFolding.closed(ScalarSet(scalar: value)), "\(value)")
        }
        #expect(CaseFolding.closed(ScalarSet([ScalarRange(0x61, 0x63)])) == ScalarSet([ScalarRange(0x41, 0x43), ScalarRange(0x61, 0x63)]))
    }

    @Test func scalarSetsKeepSurrogatesOut() {
        let set = ScalarSet([ScalarRange(0xD700, 0xE100)])
        #expect(set.ranges == [ScalarRange(0xD700, 0xD7FF), ScalarRange(0xE000, 0xE100)])
        #expect(!set.contains(0xD800))
        #expect(ScalarSet.empty.complement == ScalarSet.all)
        #expect(ScalarSet.all.complement.isEmpty)
        #expect(set.complement.union(set) == ScalarSet.all)
        #expect(set.intersection(ScalarSet([ScalarRange(0xD7F0, 0xE005)])) == ScalarSet([ScalarRange(0xD7F0, 0xD7FF), ScalarRange(0xE000, 0xE005)]))
    }
}
