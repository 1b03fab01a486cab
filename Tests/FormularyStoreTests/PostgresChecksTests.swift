import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// `audit verify`'s checks of a PostgreSQL database: a schema as the migrations made it has no
/// problem; a guard dropped, switched off or rewritten, an object added, or a row whose
/// reference finds nothing each shows as one problem.
struct PostgresChecksTests {
    func migrated() throws -> (PostgresTestDatabase, PostgresBackend) {
        let database = try PostgresTestDatabase()
        let backend = try PostgresBackend(url: database.url)
        _ = try backend.applyMigrations(now: Date.init, afterApplying: { _ in })
        return (database, backend)
    }

    func messages(_ backend: PostgresBackend) throws -> [String] {
        try backend.inspect { try backend.storageProblems(limit: 100, schemaOf: backend.knownMigrations) }.map(\.message)
    }

    @Test(.needsPostgres) func aSchemaAsTheMigrationsMadeItHasNoProblem() throws {
        let (database, backend) = try migrated()
        defer { withExtendedLifetime(database) {} }
        _ = try backend.insertForm(named: "signup")
        #expect(try messages(backend) == [])
        // The reference schema was never committed.
        #expect(try backend.connection.scalarInt64(
            "SELECT count(*) FROM pg_namespace WHERE nspname = 'formulary_reference'") == 0)
    }

    @Test(.needsPostgres) func guardsDroppedDisabledOrRewrittenShow() throws {
        let (database, backend) = try migrated()
        defer { withExtendedLifetime(database) {} }
        let admin = try database.connect()
        try admin.executeScript("""
            ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;
            DROP TRIGGER audit_log_no_delete ON audit_log;
            CREATE OR REPLACE FUNCTION formulary_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RETURN NULL; END; $$;
            CREATE TABLE extra (id BIGINT);
            """)
        let found = try messages(backend)
        #expect(found.contains("trigger audit_log_no_update is disabled: a guard of the log or of the data was switched off"))
        #expect(found.contains("trigger audit_log_no_delete is missing: a guard of the log or of the data was removed"))
        #expect(found.contains("function formulary_refuse differs from what the migrations create"))
        #expect(found.contains("table extra is not part of Formulary's schema"))
        #expect(found.count == 4, "\(found)")
    }

    @Test(.needsPostgres) func aRowWhoseReferenceFindsNothingShows() throws {
        let (database, backend) = try migrated()
        defer { withExtendedLifetime(database) {} }
        let admin = try database.connect()
        // As a replica would apply it: foreign keys are not checked (the test server's role
        // is a superuser).
        try admin.executeScript("""
            SET session_replication_role = replica;
            INSERT INTO type_events (name, action, version_id, at, actor) VALUES ('zip', 'add', 999, '', 'mallory');
            INSERT INTO type_events (name, action, version_id, at, actor) VALUES ('pin', 'add', 998, '', 'mallory');
            """)
        #expect(try messages(backend) == ["2 rows of type_events refer to missing rows of type_versions"])
    }
}
