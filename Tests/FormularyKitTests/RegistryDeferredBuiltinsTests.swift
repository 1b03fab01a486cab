import Testing
@testable import FormularyKit
import FormularyRules

/// Built-in files are parsed when their type is looked up: a command that uses one type
/// parses its file (and its bases') and no other, and what the registry shows is the same
/// as if every file had been parsed up front.
struct RegistryDeferredBuiltinsTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)
    static let here = SourceLocation(file: "<type reference>", line: 1, column: 1)
    static let builtinNames = Registry.builtinFiles.map { Registry.stem(of: $0.path) }.sorted()

    @Test func compilingOneTypeParsesOnlyItsFile() throws {
        let registry = Registry(files: Registry.builtinFiles)
        #expect(registry.unparsedBuiltinCount == Self.builtinNames.count)
        #expect(registry.typeNames == Self.builtinNames, "names need no parsing")
        let card = try registry.compile(TypeReference(name: "credit-card", location: Self.here),
                                        today: Self.today).get()
        #expect(card.validate("4111 1111 1111 1111").verdict == .valid)
        #expect(registry.unparsedBuiltinCount == Self.builtinNames.count - 1)
        // Listing every type parses the rest, and sees what an eager load saw.
        #expect(registry.types.keys.sorted() == Self.builtinNames)
        #expect(registry.unparsedBuiltinCount == 0)
        #expect(registry.types.values.allSatisfy { $0.source == .builtin && $0.overrides.isEmpty && $0.declaration != nil })
    }

    @Test func anUnknownNameParsesNothingAndStillSuggestsTheNearest() {
        let registry = Registry(files: Registry.builtinFiles)
        let outcome = registry.compile(TypeReference(name: "credt-card", location: Self.here),
                                       today: Self.today)
        guard case .failure(let problems) = outcome else { Issue.record("an unknown type compiled"); return }
        #expect(problems.diagnostics.first?.message == "unknown type 'credt-card'")
        #expect(problems.diagnostics.first?.fixIts.map(\.replacement) == ["credit-card"])
        #expect(registry.unparsedBuiltinCount == Self.builtinNames.count)
    }

    @Test func aFolderTypeHidesTheBuiltInWithoutParsingIt() throws {
        let folder = PluginFolder(path: "/types", origin: .option)
        let email = PluginFile(path: "/types/email.field",
                               bytes: Array("field email\npattern /[a-z]+@example\\.com/ as company\n".utf8),
                               source: .folder(folder))
        let registry = Registry(files: Registry.builtinFiles + [email])
        let entry = try #require(registry.type(named: "email"))
        #expect(entry.source == .folder(folder) && entry.overrides == [.builtin])
        // The hidden built-in is never parsed: one fewer left than there are built-ins.
        #expect(registry.unparsedBuiltinCount == Self.builtinNames.count - 1)
        #expect(registry.typeNames == Self.builtinNames)
        #expect(registry.types["email"]?.overrides == [.builtin])
    }

    @Test func aBaseIsParsedWhenADerivedTypeReachesIt() throws {
        let folder = PluginFolder(path: "/types", origin: .option)
        let visa = PluginFile(path: "/types/visa.field",
                              bytes: Array("field visa extends credit-card\npattern /4.*/ as starts-with-4\n".utf8),
                              source: .folder(folder))
        let registry = Registry(files: Registry.builtinFiles + [visa])
        let type = try registry.compile(TypeReference(name: "visa", location: Self.here),
                                        today: Self.today).get()
        #expect(type.validate("4111 1111 1111 1111").verdict == .valid)
        #expect(type.validate("5500 0000 0000 0004").verdict == .invalid)
        #expect(registry.unparsedBuiltinCount == Self.builtinNames.count - 1, "credit-card, visa's base, was parsed")
    }
}
