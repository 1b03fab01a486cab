import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// The rule that decides which stored values are secret (`SecureFields`): secure in a type
/// version that judged the field, in the registry without plugin folders, or in the current
/// registry — a folder can add masking, never take it away.
struct SecureFieldsTests {
    static let pinSecure = """
        field pin
        secure
        pattern /[0-9]{4}/
        accept "1234"

        """
    static let pinPlain = """
        field pin
        pattern /[0-9]{4}/
        accept "1234"

        """
    static let cvvPlain = """
        field cvv
        pattern /[0-9]{3}/
        accept "123"

        """

    static func entry(key: String, fields: [String], values: [String?]) -> FormularyKit.StoredEntry {
        FormularyKit.StoredEntry(FormularyStore.StoredEntry(id: 1, form: "f", key: key, fields: fields, values: values, version: 1,
                                                           createdAt: "", updatedAt: "", createdIn: 1, updatedIn: nil))
    }

    /// A folder holding `files`, loaded as a plugin folder over `store`'s types and forms.
    static func registry(_ files: [String: String], store: Store) throws -> Registry {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-secure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try Registry.load(folders: [PluginFolder(path: folder.path, origin: .option)], store: store)
    }

    @Test func aFolderCannotUnmaskWhatTheDatabaseFormMasks() throws {
        let fixture = try ValidationFixture()
        _ = try fixture.store.addVersion(.form, name: "pay", source: "form pay\nfield holder name\nfield cvv cvv\n",
                                         actor: "tester")
        let evil = try Self.registry(["cvv.field": Self.cvvPlain], store: fixture.store)
        #expect(try evil.definition(named: "cvv")?.get().secure == false, "the folder's cvv is not secure")
        let secure = try SecureFields(store: fixture.store, registry: evil).of(form: "pay")
        #expect(secure.fields == ["cvv"])
        // A form only the folder defines, over the folder's cvv: the name still resolves to
        // the built-in secure cvv without the folder.
        let withForm = try Self.registry(["cvv.field": Self.cvvPlain, "tip.form": "form tip\nfield cvv cvv\nfield note phrase\n"],
                                         store: fixture.store)
        #expect(try SecureFields(store: fixture.store, registry: withForm).of(form: "tip").fields == ["cvv"])
    }

    @Test func aTypeVersionThatJudgedAFieldSecureKeepsItMasked() throws {
        let form = "form signup\nfield name name\nfield pin pin\n"
        let fixture = try ValidationFixture(form: form, extraTypes: ["pin": Self.pinSecure])
        try fixture.add(["name", "pin"], [["Ada", "99"]])
        _ = try fixture.validate()
        // Later the folder's pin drops `secure`, and nothing else knows the form or the type.
        let later = try Self.registry(["pin.field": Self.pinPlain, "signup.form": form], store: fixture.store)
        let secure = try SecureFields(store: fixture.store, registry: later).of(form: "signup")
        #expect(secure.fields == ["pin"])
        #expect(secure.shown("99", field: "pin") == "•••")
        #expect(secure.shown("", field: "pin") == "", "an empty value hides nothing")
        #expect(secure.shown("Ada", field: "name") == "Ada")
    }

    @Test func aFolderCanAddMasking() throws {
        let form = "form signup\nfield name name\nfield pin pin\n"
        let fixture = try ValidationFixture(form: form, extraTypes: ["pin": Self.pinPlain])
        try fixture.add(["name", "pin"], [["Ada", "99"]])
        _ = try fixture.validate()
        let plain = try SecureFields(store: fixture.store, registry: fixture.registry).of(form: "signup")
        #expect(plain.fields == [], "pin was never secure")
        let stricter = try Self.registry(["pin.field": Self.pinSecure, "signup.form": form], store: fixture.store)
        #expect(try SecureFields(store: fixture.store, registry: stricter).of(form: "signup").fields == ["pin"])
    }

    @Test func whatNobodyCanTellIsMasked() throws {
        let fixture = try ValidationFixture()
        let secure = SecureFields(store: fixture.store, registry: fixture.registry)
        // No registry has the form: every field is secret, and so is a key equal to a value.
        let unknown = try secure.of(form: "gone")
        #expect(unknown == .all && unknown.contains("anything"))
        let entry = Self.entry(key: "k1", fields: ["a", "b"], values: ["x", "k1"])
        #expect(unknown.shownKey(of: entry) == "•••")
        // A field whose type no registry resolves.
        let odd = try Self.registry(["odd.form": "form odd\nfield x nowhere\nfield y name\n"], store: fixture.store)
        #expect(try SecureFields(store: fixture.store, registry: odd).of(form: "odd").fields == ["x"])
        // A key that is not a secure value is shown.
        let known = SecureFieldSet(fields: ["b"])
        #expect(known.shownKey(of: Self.entry(key: "x", fields: ["a", "b"], values: ["x", "y"])) == "x")
        #expect(known.shownKey(of: Self.entry(key: "y", fields: ["a", "b"], values: ["x", "y"])) == "•••")
    }
}
