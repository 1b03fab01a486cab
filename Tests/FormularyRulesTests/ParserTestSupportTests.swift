import Testing
@testable import FormularyRules

// Helpers shared by the language tests.

func parseText(_ text: String, file: String = "t.field") -> ParseOutcome {
    PluginSource.parse(bytes: Array(text.utf8), file: file)
}

/// The declaration of a `.field` text that must parse without diagnostics.
func declaration(_ text: String, file: String = "t.field",
                 sourceLocation: Testing.SourceLocation = #_sourceLocation) -> FieldTypeDecl? {
    let outcome = parseText(text, file: file)
    #expect(outcome.diagnostics == [], "\(DiagnosticFormatter().format(outcome.diagnostics))",
            sourceLocation: sourceLocation)
    guard case .field(let decl) = outcome.content else {
        Issue.record("not a field type", sourceLocation: sourceLocation)
        return nil
    }
    return decl
}

/// The resolved definition of a standalone `.field` text.
func resolvedField(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> FieldTypeDefinition? {
    guard let decl = declaration(text, sourceLocation: sourceLocation) else { return nil }
    switch TypeResolver(declarations: [decl.name: decl]).resolve(decl) {
    case .success(let definition): return definition
    case .failure(let failure):
        Issue.record("resolve failed: \(failure)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The checks of a single-type text, without locations.
func checks(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [CheckKind] {
    resolvedField(text, sourceLocation: sourceLocation)?.strippingLocations().checks.map(\.kind) ?? []
}

/// Diagnostic ids of a text, in order.
func ids(_ text: String, file: String = "t.field") -> [String] {
    parseText(text, file: file).diagnostics.map(\.id.rawValue)
}

/// A resolver over several `.field` texts (which must parse cleanly).
func resolver(_ texts: [String]) -> TypeResolver {
    var declarations: [String: FieldTypeDecl] = [:]
    for (index, text) in texts.enumerated() {
        if case .field(let decl) = parseText(text, file: "f\(index).field").content {
            declarations[decl.name] = decl
        }
    }
    return TypeResolver(declarations: declarations)
}

let noLocation = SourceLocation.unknown

@Suite struct ParserSupportTests {
    @Test func helpersSeeDiagnostics() {
        #expect(ids("field x\nrnage 1") == ["unknown-directive"])
        #expect(ids("field x\nlabel \"X\"") == [])
    }
}
