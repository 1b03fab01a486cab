import Testing
import FormularyKit
import FormularyRules

/// The registry's catalogue, and the three domains side by side: no id string is used by
/// two domains, and every registry entry renders.
@Suite struct RegistryDiagnosticTests {
    @Test func idStringsAreUniqueAcrossDomains() {
        let ids = LanguageDiagnostic.allCases.map(\.id) + CompilerDiagnostic.allCases.map(\.id)
            + RegistryDiagnostic.allCases.map(\.id) + MessagesDiagnostic.allCases.map(\.id)
        let strings = ids.map(\.rawValue)
        let repeated = Dictionary(grouping: strings, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "used by more than one domain: \(repeated)")
        #expect(Set(ids.map(\.domain)) == Set(DiagnosticDomain.allCases))
        #expect(RegistryDiagnostic.allCases.allSatisfy { $0.id.domain == .registry && $0.defaultSeverity == .error })
    }

    @Test func everyRegistryEntryRenders() {
        let samples = RegistryDiagnostic.DeclarationKind.allCases.map {
            RegistryDiagnostic.duplicateDeclaration($0, named: "zip", alsoIn: "mine/zip.field")
        } + [RegistryDiagnostic.unreadableFile("mine/x.field", reason: "cannot open the file (Permission denied)")]
        #expect(Set(samples.map(\.id)) == Set(RegistryDiagnostic.allCases.map(\.id)))
        #expect(samples.map(\.text) == [
            "type 'zip' is also declared in mine/zip.field; a folder may declare each type once",
            "form 'zip' is also declared in mine/zip.field; a folder may declare each form once",
            "mine/x.field: cannot open the file (Permission denied)",
        ])
        let diagnostic = Diagnostic(samples[0], at: SourceLocation(file: "mine/zip2.field", line: 1, column: 7, length: 3),
                                    sourceLine: "field zip")
        #expect(DiagnosticFormatter().format(diagnostic) == """
            mine/zip2.field:1:7: error: type 'zip' is also declared in mine/zip.field; a folder may declare each type once
            field zip
                  ^~~
            """)
    }

    @Test func aTypeDeclaredTwiceInAFolderIsARegistryDiagnostic() throws {
        let folder = PluginFolder(path: "mine", origin: .option)
        let registry = Registry(files: [
            PluginFile(path: "mine/a.field", bytes: Array("field zip\nlength 5\n".utf8), source: .folder(folder)),
            PluginFile(path: "mine/b.field", bytes: Array("field zip\nlength 6\n".utf8), source: .folder(folder)),
        ])
        let diagnostic = try #require(registry.types["zip"]?.diagnostics.first)
        #expect(diagnostic.id == RegistryDiagnostic.duplicateDeclaration.id)
        #expect(diagnostic.id.rawValue == "duplicate-declaration" && diagnostic.id.domain == .registry)
        #expect(diagnostic.sourceLine == "field zip")
    }

    /// A reference to a type the registry lacks: "did you mean" as a fix-it on the name;
    /// without a near name, a note on where to look. The printed text is as before.
    @Test func unknownTypeReferenceCarriesAFixIt() throws {
        let registry = Registry(files: Registry.builtinFiles)
        let source = SourceLines(file: "<command line>", lines: ["credit-crd"])
        let reference = try PluginSource.parseTypeReference("credit-crd").get()
        guard case .failure(let problems) = registry.compile(reference, today: CivilDate(year: 2026, month: 3, day: 15),
                                                             source: source) else {
            Issue.record("an unknown type compiled")
            return
        }
        let diagnostic = try #require(problems.diagnostics.first)
        #expect(diagnostic.id == LanguageDiagnostic.unknownType.id)
        #expect(diagnostic.message == "unknown type 'credit-crd'")
        #expect(diagnostic.text == "unknown type 'credit-crd'; did you mean 'credit-card'?")
        #expect(diagnostic.fixIts.first?.applied(to: "credit-crd") == "credit-card")

        let far = try PluginSource.parseTypeReference("zzzzzzzz").get()
        guard case .failure(let none) = registry.compile(far, today: CivilDate(year: 2026, month: 3, day: 15)) else {
            Issue.record("an unknown type compiled")
            return
        }
        #expect(none.diagnostics.first?.fixIts == [])
        #expect(none.diagnostics.first?.text == "unknown type 'zzzzzzzz'; 'formulary types list' shows the types there are")
    }
}
