import Foundation
import Testing
@testable import FormularyRules

// The built-in types, read from the repository's plugins/ folder and compiled the way the
// registry does (parse → resolve → compile), for the editor tests.

let editorToday = CivilDate(year: 2026, month: 11, day: 29)

/// The repository's plugins/ folder, found from this file's path.
let pluginsFolder: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("plugins")

/// Every built-in type by name, with its definition (for the examples) and compiled form.
let builtinTypes: [String: (definition: FieldTypeDefinition, type: CompiledFieldType)] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: pluginsFolder.path)) ?? []
    var declarations: [String: FieldTypeDecl] = [:]
    for file in files.sorted() where file.hasSuffix(".field") {
        let bytes = (try? Data(contentsOf: pluginsFolder.appendingPathComponent(file))) ?? Data()
        if case .field(let decl) = PluginSource.parse(bytes: Array(bytes), file: file).content {
            declarations[decl.name] = decl
        }
    }
    let resolver = TypeResolver(declarations: declarations)
    var types: [String: (FieldTypeDefinition, CompiledFieldType)] = [:]
    for name in declarations.keys {
        guard case .success(let definition)? = resolver.resolve(name) else { continue }
        let (compiled, _) = FieldCompiler.compile(definition, arguments: [:], today: editorToday)
        if let compiled { types[name] = (definition, compiled) }
    }
    return types
}()

let builtinTypeNames: [String] = builtinTypes.keys.sorted()

func builtin(_ name: String) throws -> CompiledFieldType {
    try #require(builtinTypes[name]?.type, "no built-in type \(name) in \(pluginsFolder.path)")
}

extension FieldEditor {
    /// Types `text` one character at a time at the caret; returns how many were refused.
    @discardableResult
    mutating func type(_ text: String) -> Int {
        var refused = 0
        for character in text where !insert(String(character)).accepted { refused += 1 }
        return refused
    }
}
