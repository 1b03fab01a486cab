import FormularyStore
/// `audit verify`'s checks of the database itself on PostgreSQL: references between tables,
/// and the schema against the one the migrations create — including triggers switched off,
/// which PostgreSQL allows (`ALTER TABLE … DISABLE TRIGGER`) and SQLite does not.
///
/// PostgreSQL has no counterpart of SQLite's `integrity_check` that an ordinary role may run
/// (`amcheck` is an extension for superusers); its storage is the server's to keep.
package extension PostgresBackend {
    func storageProblems(limit: Int, schemaOf migrations: [Migration]) throws -> [AuditProblem] {
        try referenceProblems(limit: limit) + schemaProblems(migrations)
    }

    var knownMigrations: [Migration] { migrator.migrations }

    func recordedMigrations() throws -> [AppliedMigration] {
        try migrator.applied(in: connection)
    }

    func schemaHolds(_ migration: Migration, after earlier: [Migration]) throws -> Bool {
        let before = try referenceSchema(earlier)
        let after = try referenceSchema(earlier + [migration])
        let actual = try Self.schema(of: connection)
        return after.contains { name, object in before[name] != object && actual[name] == object }
    }

    /// Rows whose declared reference finds no row: the server enforces foreign keys, but a
    /// session with `session_replication_role = replica` (or a constraint added `NOT VALID`)
    /// lets them in. One line per pair of tables.
    func referenceProblems(limit: Int) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        let keys = try connection.execute("""
            SELECT c.conrelid::regclass::text, a.attname::text, c.confrelid::regclass::text, af.attname::text
            FROM pg_catalog.pg_constraint c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.connamespace
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            JOIN pg_catalog.pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1]
            WHERE c.contype = 'f' AND n.nspname = current_schema() AND cardinality(c.conkey) = 1
            ORDER BY 1, 2
            """)
        for key in keys {
            let (child, column, parent, parentColumn) = (try key.string(0), try key.string(1), try key.string(2), try key.string(3))
            // Names from the catalog, quoted as identifiers: no value reaches the SQL text.
            let count = try connection.scalarInt64("""
                SELECT count(*) FROM \(child) AS c WHERE c.\(Self.quoted(column)) IS NOT NULL AND NOT EXISTS
                (SELECT 1 FROM \(parent) AS p WHERE p.\(Self.quoted(parentColumn)) = c.\(Self.quoted(column)))
                """) ?? 0
            if count > 0 {
                problems.append(AuditProblem(area: .database, message:
                    "\(count) row\(count == 1 ? "" : "s") of \(child) refer\(count == 1 ? "s" : "") to missing rows of \(parent)"))
            }
            if problems.count >= limit { break }
        }
        return problems
    }

    /// Tables, columns, constraints, indexes, triggers and functions against those
    /// `migrations` create in an empty schema: a dropped or disabled append-only trigger,
    /// a trigger function rewritten, or a trigger added to rewrite rows shows here.
    func schemaProblems(_ migrations: [Migration]) throws -> [AuditProblem] {
        let expected = try referenceSchema(migrations)
        let actual = try Self.schema(of: connection)
        var problems: [AuditProblem] = []
        for (name, object) in expected.sorted(by: { $0.key < $1.key }) {
            guard let found = actual[name] else {
                problems.append(AuditProblem(area: .schema, message: "\(object.type) \(object.name) is missing"
                    + (object.type == "trigger" ? ": a guard of the log or of the data was removed" : "")))
                continue
            }
            if object.type == "trigger" && found.enabled != object.enabled {
                problems.append(AuditProblem(area: .schema, message:
                    "trigger \(object.name) is disabled: a guard of the log or of the data was switched off"))
            } else if found != object {
                problems.append(AuditProblem(area: .schema, message: "\(object.type) \(object.name) differs from what the migrations create"))
            }
        }
        for (name, object) in actual.sorted(by: { $0.key < $1.key }) where expected[name] == nil {
            problems.append(AuditProblem(area: .schema, message: "\(object.type) \(object.name) is not part of Formulary's schema"))
        }
        return problems
    }

    /// The schema `migrations` create in an empty schema. Built on a second connection, in a
    /// schema of its own inside a transaction that is always rolled back: nothing of it is
    /// ever committed.
    func referenceSchema(_ migrations: [Migration]) throws -> [String: SchemaObject] {
        let reference = try PostgresConnection(url: url)
        try reference.executeScript("BEGIN")
        defer { reference.rollbackIgnoringErrors() }
        try reference.executeScript("CREATE SCHEMA formulary_reference; SET LOCAL search_path = formulary_reference")
        try reference.executeScript(PostgresMigrator.bookkeeping)
        for migration in migrations {
            try reference.executeScript(migration.sql)
        }
        return try Self.schema(of: reference)
    }

    struct SchemaObject: Equatable {
        var type: String
        var name: String
        var definition: String
        var enabled = true
    }

    /// The objects of the connection's current schema, by `type name`, each with a
    /// definition free of the schema's name (so that two schemas compare).
    static func schema(of db: PostgresConnection) throws -> [String: SchemaObject] {
        let schema = try db.scalarString("SELECT current_schema()::text") ?? "public"
        func strip(_ text: String) -> String {
            text.replacingOccurrences(of: "\(quoted(schema)).", with: "").replacingOccurrences(of: "\(schema).", with: "")
        }
        var out: [String: SchemaObject] = [:]
        func add(_ type: String, _ name: String, _ definition: String, enabled: Bool = true) {
            out["\(type) \(name)"] = SchemaObject(type: type, name: name, definition: strip(definition), enabled: enabled)
        }
        // Tables and views, with their columns in order.
        for row in try db.execute("""
            SELECT c.relname::text, CASE c.relkind WHEN 'v' THEN 'view' ELSE 'table' END,
                   coalesce(string_agg(a.attname::text || ' ' || format_type(a.atttypid, a.atttypmod)
                       || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                       || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
                       || CASE WHEN a.attidentity <> '' THEN ' identity ' || a.attidentity::text ELSE '' END,
                       ', ' ORDER BY a.attnum), '')
            FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            GROUP BY c.relname, c.relkind
            """) {
            add(try row.string(1), try row.string(0), try row.string(2))
        }
        for row in try db.execute("""
            SELECT c.conrelid::regclass::text || '.' || c.conname::text, pg_get_constraintdef(c.oid)
            FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_namespace n ON n.oid = c.connamespace
            WHERE n.nspname = current_schema() AND c.conrelid <> 0
            """) {
            add("constraint", try row.string(0), try row.string(1))
        }
        for row in try db.execute("""
            SELECT i.indexname::text, i.indexdef FROM pg_catalog.pg_indexes i WHERE i.schemaname = current_schema()
            """) {
            add("index", try row.string(0), try row.string(1))
        }
        for row in try db.execute("""
            SELECT t.tgname::text, pg_get_triggerdef(t.oid), t.tgenabled <> 'D'
            FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT t.tgisinternal
            """) {
            add("trigger", try row.string(0), try row.string(1), enabled: try row.bool(2))
        }
        for row in try db.execute("""
            SELECT p.proname::text, pg_get_functiondef(p.oid)
            FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema()
            """) {
            add("function", try row.string(0), try row.string(1))
        }
        return out
    }

    /// `name` as an SQL identifier, in double quotes.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
