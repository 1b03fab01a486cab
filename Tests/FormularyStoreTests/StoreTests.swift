import Foundation
import FormularyJSON
import Testing
@testable import FormularyStore

struct StoreTests {
    let folder = TemporaryDirectory()

    func makeStore(_ name: String = "store.db") throws -> Store {
        let store = try Store(path: folder.path(name))
        try store.migrate()
        return store
    }

    @Test func requiresACurrentSchema() throws {
        let store = try Store(path: folder.path("fresh.db"))
        #expect(throws: StoreError.self) { try store.requireCurrentSchema() }
        #expect(try store.migrate().count == Migration.embedded.count)
        try store.requireCurrentSchema()
        #expect(try store.migrationStatus().allSatisfy { if case .applied = $0 { true } else { false } })
    }

    @Test func addsTypeVersionsOnceAndAuditsThem() throws {
        let store = try makeStore()
        let first = try store.addVersion(.type, name: "zip", source: "type zip\n  pattern \"\\d{5}\"\n", actor: "alice")
        guard case .added(let v1, isNewVersion: true, previous: nil) = first else { Issue.record("\(first)"); return }
        #expect(v1.hash == SHA256.hex("type zip\n  pattern \"\\d{5}\"\n") && v1.origin == "database")

        let again = try store.addVersion(.type, name: "zip", source: "type zip\n  pattern \"\\d{5}\"\n", actor: "bob")
        #expect(again == .unchanged(v1))
        #expect(!again.changedDatabase)

        let second = try store.addVersion(.type, name: "zip", source: "type zip\n  pattern \"\\d{5}(-\\d{4})?\"\n", actor: "bob")
        guard case .added(let v2, true, let previous) = second else { Issue.record("\(second)"); return }
        #expect(previous == v1)
        #expect(try store.currentVersion(.type, name: "zip") == v2)
        #expect(try store.versions(.type, name: "zip") == [v1, v2])

        // Going back to the first definition re-adds the stored version, no new row.
        let back = try store.addVersion(.type, name: "zip", source: v1.source, actor: "carol")
        guard case .added(let v3, false, previous: v2) = back else { Issue.record("\(back)"); return }
        #expect(v3 == v1)
        #expect(try store.events(.type, name: "zip").map(\.actor) == ["alice", "bob", "carol"])

        let audit = try store.auditRecords()
        #expect(audit.map(\.action) == ["types.add", "types.add", "types.add"]) // the no-op wrote nothing
        #expect(audit[1].details.contains(v1.hash) && audit[1].details.contains(v2.hash))
        #expect(try store.verifyAudit().isValid)
    }

    @Test func retiringHidesANameButKeepsItsVersions() throws {
        let store = try makeStore()
        _ = try store.addVersion(.type, name: "zip", source: "a", actor: "alice")
        _ = try store.addVersion(.type, name: "phone", source: "b", actor: "alice")
        #expect(try store.currentVersions(.type).map(\.name) == ["phone", "zip"])
        let retired = try store.retire(.type, name: "zip", actor: "bob")
        #expect(retired.source == "a")
        #expect(try store.currentVersions(.type).map(\.name) == ["phone"])
        #expect(try store.currentVersion(.type, name: "zip") == nil)
        #expect(try store.versions(.type, name: "zip").count == 1)
        #expect(try store.events(.type, name: "zip").map(\.action) == [.add, .retire])
        #expect(throws: StoreError.notInDatabase(kind: .type, name: "zip")) {
            try store.retire(.type, name: "zip", actor: "bob")
        }
        #expect(try store.auditRecords().last?.action == "types.retire")
        // Adding it again brings it back.
        #expect(try store.addVersion(.type, name: "zip", source: "a", actor: "carol").changedDatabase)
        #expect(try store.currentVersions(.type).map(\.name) == ["phone", "zip"])
    }

    @Test func recordsVersionsUsedByRunsWithoutRegisteringThem() throws {
        let store = try makeStore()
        let builtin = try store.recordVersion(.type, name: "email", source: "type email", origin: "builtin", actor: "run")
        #expect(try store.recordVersion(.type, name: "email", source: "type email", origin: "builtin", actor: "run") == builtin)
        #expect(try store.currentVersions(.type).isEmpty)
        #expect(try store.version(.type, id: builtin.id) == builtin)
        #expect(try store.auditRecords().isEmpty)
    }

    @Test func formsAreVersionedSeparatelyFromTypes() throws {
        let store = try makeStore()
        _ = try store.addVersion(.type, name: "signup", source: "type", actor: "a")
        let form = try store.addVersion(.form, name: "signup", source: "form signup\n", actor: "a")
        #expect(form.version.kind == .form)
        #expect(try store.currentVersions(.form).map(\.source) == ["form signup\n"])
        #expect(try store.auditRecords().map(\.action) == ["types.add", "forms.add"])
        try store.retire(.form, name: "signup", actor: "a")
        #expect(try store.currentVersions(.form).isEmpty)
        #expect(try store.currentVersions(.type).count == 1)
    }

    @Test func failedChangeLeavesNoAuditRecord() throws {
        let store = try makeStore()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.transaction {
                _ = try store.addVersion(.type, name: "zip", source: "a", actor: "alice")
                throw Boom()
            }
        }
        #expect(try store.auditRecords().isEmpty)
        #expect(try store.versions(.type, name: "zip").isEmpty)
    }
}
