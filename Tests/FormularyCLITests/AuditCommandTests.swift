import Foundation
import Testing

/// `audit` and `audit verify`, including a database tampered with from outside, and
/// names and values that look like SQL injection.
@Suite struct AuditCommandTests {
    /// A database with a few audited changes of different kinds.
    func populated(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("one.csv", "name,email,cvv\nAda,ada@example.com,123\n")
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "one.csv")
        try sandbox.mustRun("types", "retire", "visa")
        return sandbox
    }

    @Test(arguments: TestBackend.all) func auditListsEveryChange(_ backend: TestBackend) throws {
        let sandbox = try populated(backend)
        let records = try sandbox.auditRecords()
        #expect(records.map { $0["action"] as? String } == ["forms.add", "types.add", "import", "types.retire"])
        #expect(records.map { $0["seq"] as? Int } == [1, 2, 3, 4])
        #expect(records.allSatisfy { $0["actor"] as? String == "tester" }, "USER is the default actor")
        for (previous, record) in zip(records, records.dropFirst()) {
            #expect(record["prev_hash"] as? String == previous["hash"] as? String, "the chain links each record to the one before")
        }
        let text = try sandbox.run("audit")
        #expect(text.status == 0, "\(text)")
        #expect(text.outputLines.count == 5, "\(text)")
        #expect(!withoutTimesAndHashes(text.stdout).contains("123"), "the secure cvv does not reach the audit log")

        // --actor on the command line is who acts (for changes) and a filter for 'audit'.
        try sandbox.write("two.csv", "name,email\nBea,bea@example.com\n")
        let byAda = try sandbox.run(["import", "--form", "signup", "two.csv"], environment: ["FORMULARY_ACTOR": "ada"])
        #expect(byAda.status == 0, "\(byAda)")
        try sandbox.mustRun("--actor", "bob", "types", "add", "visa.field")
        let filtered = try sandbox.run("--format", "json", "audit", "--actor", "ada")
        let adaRecords = try #require(try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [[String: Any]])
        #expect(adaRecords.map { $0["action"] as? String } == ["import"], "\(filtered)")
        #expect(try sandbox.auditRecords().last?["actor"] as? String == "bob")
        let future = try sandbox.run("audit", "--since", "2999-01-01")
        #expect(future.outputLines.count == 1, "only the header: \(future)")
        let badSince = try sandbox.run("audit", "--since", "last week")
        #expect(badSince.status == 2, "\(badSince)")
    }

    @Test(arguments: TestBackend.all) func verifyPassesThenDetectsTampering(_ backend: TestBackend) throws {
        let sandbox = try populated(backend)
        let ok = try sandbox.run("audit", "verify")
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.hasPrefix("audit log verifies: 4 records"), "\(ok)")

        // The database itself refuses to rewrite history…
        #expect(throws: (any Error).self) {
            try sandbox.query("UPDATE audit_log SET actor = 'mallory' WHERE seq = 3")
        }
        // …unless someone removes the guard first (with sqlite3, or psql on a server).
        _ = try sandbox.query(backend == .sqlite ? "DROP TRIGGER audit_log_no_update" : "DROP TRIGGER audit_log_no_update ON audit_log")
        _ = try sandbox.query("UPDATE audit_log SET actor = 'mallory' WHERE seq = 3")
        let bad = try sandbox.run("audit", "verify")
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stdout.contains("record 3"), "the first bad record is named: \(bad)")
        let json = try sandbox.run("--format", "json", "audit", "verify")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        #expect(object["first_bad_seq"] as? Int == 3)
        #expect(object["verified"] as? Int == 2)
    }

    @Test(arguments: TestBackend.all) func verifyDetectsADeletedRecord(_ backend: TestBackend) throws {
        let sandbox = try populated(backend)
        _ = try sandbox.query(backend == .sqlite ? "DROP TRIGGER audit_log_no_delete" : "DROP TRIGGER audit_log_no_delete ON audit_log")
        _ = try sandbox.query("DELETE FROM audit_log WHERE seq = 2")
        let bad = try sandbox.run("audit", "verify")
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stdout.contains("record"), "\(bad)")
    }

    @Test(arguments: TestBackend.all) func sqlLookingNamesAndValuesChangeNothingElse(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let evil = "'; DROP TABLE entries; --"
        let csv = "name,email,age\n\"\(evil)\",\"\(evil)\",\"1); DELETE FROM audit_log; --\"\nAda,ada@example.com,36\n"
        try sandbox.write("evil.csv", csv)
        let imported = try sandbox.run(["import", "--form", "signup", "--key", "email", "evil.csv"],
                                       environment: ["FORMULARY_ACTOR": evil])
        #expect(imported.status == 0, "\(imported)")

        // As form names, type names and filters: plain unknown names.
        let asForm = try sandbox.run("import", "--form", evil, "evil.csv")
        #expect(asForm.status == 2 && asForm.stderr.contains("unknown form"), "\(asForm)")
        let asType = try sandbox.run("check", evil, "x")
        #expect(asType.status == 2, "\(asType)")
        #expect(try sandbox.run("types", "history", evil).status == 2)
        #expect(try sandbox.run("types", "retire", evil).status == 2)
        #expect(try sandbox.run("forms", "show", evil).status == 2)
        let filtered = try sandbox.run("entries", "list", "--form", evil)
        #expect(filtered.status == 0 && filtered.outputLines.count == 1, "no entries, and no error: \(filtered)")
        let byActor = try sandbox.run("--format", "json", "audit", "--actor", "' OR '1'='1")
        #expect(byActor.stdout == "[]\n", "\(byActor)")
        // A key column whose name is SQL.
        try sandbox.write("evilkey.csv", "\"\(evil)\",name\nk1,Zed\n")
        let evilKey = try sandbox.run("import", "--form", "signup", "--key", evil, "evilkey.csv")
        #expect(evilKey.status == 0, "\(evilKey)")

        // Everything is still there, stored verbatim.
        let entries = try sandbox.entries()
        #expect(entries.count == 3)
        let first = try sandbox.entry(try #require(entries.first?["id"] as? Int))
        #expect(first["key"] as? String == evil)
        #expect((first["values"] as? [String: Any])?["name"] as? String == evil)
        let records = try sandbox.auditRecords()
        #expect(records.map { $0["action"] as? String } == ["forms.add", "import", "import"])
        #expect(records[1]["actor"] as? String == evil)
        #expect(try sandbox.run("audit", "verify").status == 0)
        let tables = backend == .sqlite ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'entries'"
            : "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'entries'"
        #expect(try sandbox.query(tables) == [["1"]])
        #expect(try sandbox.run("forms", "list").outputLines.count == 2)
    }
}
