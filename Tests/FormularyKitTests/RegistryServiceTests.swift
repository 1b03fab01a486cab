import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

/// Admission as `types add` and `forms add` do it, through the registry service: all the
/// files or none, problems as details, folder types refused or stored with the forms.
struct RegistryServiceTests {
    let folder: String
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-reg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        _ = try SchemaService(workspace: workspace()).initialize()
    }

    func workspace(plugins: Bool = false) -> Workspace {
        Workspace(settings: WorkspaceSettings(
            databasePath: folder + "/f.db",
            pluginFolders: plugins ? [PluginFolder(path: folder + "/plugins", origin: .option)] : [], actor: "ada"))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let pin = "field pin extends phrase\npattern /[0-9]{4}/\naccept \"1234\"\n"

    @Test func aGoodTypeIsStoredAndAddingItAgainChangesNothing() throws {
        let file = try write("pin.field", Self.pin)
        var warned: [ServiceError.Details] = []
        let added = try RegistryService(workspace: workspace()).addTypes([file], today: today) { warned.append($0) }
        #expect(added.types.count == 1 && added.types[0].changedDatabase && added.forms.isEmpty)
        #expect(warned.isEmpty)
        let again = try RegistryService(workspace: workspace()).addTypes([file], today: today) { _ in }
        #expect(!again.types[0].changedDatabase)
        #expect(try RegistryService(workspace: workspace()).storedVersions(.type, name: "pin").count == 1)
    }

    @Test func aFailingExampleStoresNothingOfAnyFile() throws {
        let good = try write("pin.field", Self.pin)
        let bad = try write("code.field", "field code extends phrase\npattern /[0-9]{3}/\naccept \"12\"\n")
        do {
            _ = try RegistryService(workspace: workspace()).addTypes([good, bad], today: today) { _ in }
            Issue.record("a failing example must refuse the files")
        } catch let error as ServiceError {
            #expect(error.kind == .badInput)
            #expect(error.message == "nothing was stored: the files have problems")
            guard case let .digest(_, lines) = error.details else {
                Issue.record("the problems are the details")
                return
            }
            #expect(lines.count == 1 && lines[0].contains("code.field:3: self-test failed"))
        }
        #expect(try RegistryService(workspace: workspace()).storedVersions(.type, name: "pin").isEmpty)
    }

    @Test func aFormUsingAFolderTypeIsRefusedUnlessItsTypesComeAlong() throws {
        _ = try write("plugins/pin.field", Self.pin)
        let form = try write("signup.form", "form signup\nfield code pin required\n")
        do {
            _ = try RegistryService(workspace: workspace(plugins: true)).addForms([form], addTypes: false, today: today) { _ in }
            Issue.record("a folder type must be refused")
        } catch let error as ServiceError {
            #expect(error.message.hasPrefix("nothing was stored: the form uses a type that only a plugin folder holds"))
            guard case .table(let rows) = error.details else {
                Issue.record("the types are listed in a table")
                return
            }
            #expect(rows.count == 1 && rows[0][0] == "  pin")
        }
        let added = try RegistryService(workspace: workspace(plugins: true)).addForms([form], addTypes: true, today: today) { _ in }
        #expect(added.types.map(\.version.name) == ["pin"])
        #expect(added.forms.map(\.version.name) == ["signup"])
        // Stored, the form works without the folder.
        let described = try RegistryService(workspace: workspace()).describe(form: "signup")
        #expect(described.entry.source == .database)
        let json = try JSONValue(parsing: String(decoding: described.jsonDocument, as: UTF8.self))
        #expect(json["name"] == .string("signup"))
    }

    @Test func historyListsAddsAndRetirements() throws {
        let file = try write("pin.field", Self.pin)
        _ = try RegistryService(workspace: workspace()).addTypes([file], today: today) { _ in }
        _ = try RegistryService(workspace: workspace()).retire(.type, name: "pin")
        let rows = try HistoryService(workspace: workspace()).history(.type, name: "pin")
        #expect(rows.map(\.action) == ["add", "retire"])
        #expect(rows.map(\.change) == ["first version", "hidden from the registry"])
        let json = try JSONValue(parsing: String(decoding: rows.jsonDocument, as: UTF8.self))
        guard case .array(let items) = json else {
            Issue.record("a JSON array")
            return
        }
        #expect(items.count == 2 && items[1]["hash"] == .null)
    }

    @Test func anUnknownEntryIsNotFound() throws {
        do {
            _ = try EntriesService(workspace: workspace()).show(id: 42)
            Issue.record("no entry 42")
        } catch let error as ServiceError {
            #expect(error.kind == .notFound)
            #expect(error.message == "no entry with id 42 (see 'formulary entries list')")
        }
    }
}
