import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

/// `types lint` and `export` through the registry service: each file's diagnostics once,
/// in file order, with one JSON form for a diagnostic; what an export leaves out, grouped
/// by first problem.
struct RegistryServiceLintTests {
    let folder: String
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-lint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
    }

    func service(plugins: Bool = false) -> RegistryService {
        RegistryService(workspace: Workspace(settings: WorkspaceSettings(
            databasePath: folder + "/none.db",
            pluginFolders: plugins ? [PluginFolder(path: folder + "/plugins", origin: .option)] : [], actor: "ada")))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func eachFileGetsItsDiagnosticsInOrderAndTheReportSaysWhetherAnyIsAnError() throws {
        let good = try write("pin.field", "field pin extends phrase\npattern /[0-9]{4}/\naccept \"1234\"\n")
        let bad = try write("age2.field", "field age2\nparam min = 0\n  rnage $min...\n  kebyoard qwerty\n")
        let report = try service().lint([good, bad], today: today)
        #expect(report.files.map(\.file) == [good, bad])
        #expect(report.files.map(\.definitions) == [["pin"], ["age2"]])
        #expect(report.files[0].diagnostics.isEmpty)
        #expect(report.files[1].diagnostics.map(\.location.line) == [3, 4])
        #expect(report.hasErrors)
        #expect(report.named.map(\.name) == ["pin", "age2"])

        let json = try object(report.jsonDocument)
        #expect(json["ok"] as? Bool == false)
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == [good, bad])
        let first = try #require((files[1]["diagnostics"] as? [[String: Any]])?.first)
        #expect(first["id"] as? String == "unknown-directive")
        #expect(first["domain"] as? String == "language")
        #expect(first["message"] as? String == "unknown directive 'rnage'; did you mean 'range'?")
        let fixIt = try #require((first["fix_its"] as? [[String: Any]])?.first)
        #expect(fixIt["replacement"] as? String == "range" && fixIt["length"] as? Int == 5)
        #expect(fixIt["line"] as? Int == 3 && fixIt["column"] as? Int == 3)
        #expect((first["notes"] as? [Any])?.isEmpty == true)
    }

    @Test func filesWithoutErrorsAreOk() throws {
        let good = try write("pin.field", "field pin extends phrase\npattern /[0-9]{4}/\naccept \"1234\"\n")
        let report = try service().lint([good], today: today)
        #expect(!report.hasErrors)
        #expect(try object(report.jsonDocument)["ok"] as? Bool == true)
    }

    @Test func aProblemSeveralTypesInheritIsListedOncePerFile() throws {
        // `b` extends `a` in the same file: a's error comes back through b, said once.
        let file = try write("ab.field", "field a\n  rnage 1...2\nfield b extends a\n")
        let report = try service().lint([file], today: today)
        let unknown = report.files[0].diagnostics.filter { $0.id.rawValue == "unknown-directive" }
        #expect(unknown.count == 1)
    }

    @Test func aFolderNamedAsAFileIsRefused() throws {
        do {
            _ = try service().lint([folder + "/plugins"], today: today)
            Issue.record("a folder must be refused")
        } catch let error as ServiceError {
            #expect(error.kind == .badInput)
            #expect(error.message.contains("is a folder, not a plugin file"))
        }
    }

    @Test func aDiagnosticWithANoteWritesItsLocationOnlyWhenItHasOne() throws {
        let file = try write("kb.field", "field kb\nkeyboard qwerty\n")
        let diagnostic = try #require(try service().lint([file], today: today).files[0].diagnostics.first)
        let json = try object(diagnostic.jsonDocument)
        #expect(json["id"] as? String == "unknown-keyboard")
        let notes = try #require(json["notes"] as? [[String: Any]])
        #expect(notes.count == 1 && notes[0]["message"] as? String != nil)
        #expect((notes[0]["file"] != nil) == (diagnostic.notes[0].location != nil))
    }

    // MARK: export

    func unavailable(_ kind: RegistryExport.Unavailable.Kind, _ name: String, _ problems: [String]) -> RegistryExport.Unavailable {
        RegistryExport.Unavailable(kind: kind, name: name, file: "p/\(name).\(kind == .type ? "field" : "form")", problems: problems)
    }

    @Test func leftOutItemsSharingAFirstProblemAreOneWarning() {
        let groups = RegistryService.grouped([
            unavailable(.type, "a", ["deep"]), unavailable(.type, "b", ["own"]), unavailable(.type, "c", ["deep", "x"]),
            unavailable(.form, "f", ["deep"]), unavailable(.form, "g", []), unavailable(.form, "h", []),
        ])
        #expect(groups.map { $0.items.map(\.name) } == [["a", "c", "f"], ["b"], ["g"], ["h"]])
        #expect(groups.map(\.warning) == [
            "3 types and forms have errors and are left out of the export ('a', 'c' and 'f'): deep",
            "type 'b' (p/b.field) has errors and is left out of the export: own",
            "form 'g' (p/g.form) has errors and is left out of the export",
            "form 'h' (p/h.form) has errors and is left out of the export",
        ])
        let forms = RegistryService.grouped((1...5).map { unavailable(.form, "f\($0)", ["same"]) })
        #expect(forms.map(\.warning) == ["5 forms have errors and are left out of the export ('f1', 'f2', 'f3' and 2 more): same"])
    }

    @Test func anExportLeavesOutABrokenFolderTypeAndSaysWhy() throws {
        _ = try write("plugins/pin.field", "field pin extends no-such-base\n")
        let result = try service(plugins: true).export(today: today)
        #expect(result.export.unavailable.map(\.name) == ["pin"])
        #expect(result.leftOut.count == 1)
        #expect(result.leftOut[0].warning.hasPrefix("type 'pin' (\(folder)/plugins/pin.field) has errors and is left out of the export: "))
        #expect(result.export.bytes.last == 0x0A)
        let clean = try service().export(today: today)
        #expect(clean.leftOut.isEmpty && clean.export.unavailable.isEmpty)
    }
}
