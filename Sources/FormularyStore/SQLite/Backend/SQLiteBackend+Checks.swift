/// `audit verify`'s checks of the file itself: SQLite's integrity and foreign-key checks, and
/// the schema against the one the migrations create.
extension SQLiteBackend {
    package func storageProblems(limit: Int, schemaOf migrations: [Migration]) throws -> [AuditProblem] {
        try integrityProblems(limit: limit) + schemaProblems(migrations)
    }

    package var knownMigrations: [Migration] { migrator.migrations }

    package func recordedMigrations() throws -> [AppliedMigration] {
        try migrator.applied(in: database)
    }

    package func schemaHolds(_ migration: Migration, after earlier: [Migration]) throws -> Bool {
        let before = try Self.referenceSchema(earlier)
        let after = try Self.referenceSchema(earlier + [migration])
        let actual = try Self.schema(of: database)
        return after.contains { name, object in before[name] != object && actual[name] == object }
    }

    func integrityProblems(limit: Int) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        do {
            try database.cachedStatement("PRAGMA integrity_check(\(limit))").forEachRow { row in
                let text = row.string(0)
                if text != "ok" {
                    problems.append(AuditProblem(area: .database, message: "SQLite's integrity check: \(text)"))
                }
            }
        } catch let error as DatabaseError where error.resultCode == 11 /* SQLITE_CORRUPT */ {
            // Damage bad enough that the check itself cannot walk the file.
            return [AuditProblem(area: .database, message: "SQLite's integrity check could not finish: \(error.message)")]
        }
        // One line per pair of tables: a deleted parent row often orphans many children.
        var orphans: [String: (count: Int, firstRow: Int64?)] = [:]
        var order: [String] = []
        try database.cachedStatement("PRAGMA foreign_key_check").forEachRow { row in
            let pair = "\(row.string(0)) → \(row.string(2))"
            if orphans[pair] == nil { order.append(pair) }
            orphans[pair, default: (0, row.optionalInt64(1))].count += 1
        }
        for pair in order {
            let (count, firstRow) = orphans[pair]!
            let names = pair.components(separatedBy: " → ")
            problems.append(AuditProblem(area: .database, message:
                "\(count) row\(count == 1 ? "" : "s") of \(names[0])\(firstRow.map { " (rowid \($0) first)" } ?? "") refer\(count == 1 ? "s" : "") to missing rows of \(names[1])"))
        }
        return problems
    }

    /// Tables, indexes and triggers against those `migrations` create on an empty
    /// database: a dropped append-only trigger, or one added to rewrite rows, shows here.
    func schemaProblems(_ migrations: [Migration]) throws -> [AuditProblem] {
        let expected = try Self.referenceSchema(migrations)
        let actual = try Self.schema(of: database)
        var problems: [AuditProblem] = []
        for (name, object) in expected.sorted(by: { $0.key < $1.key }) {
            guard let found = actual[name] else {
                problems.append(AuditProblem(area: .schema, message: "\(object.type) \(name) is missing"
                    + (object.type == "trigger" ? ": a guard of the log or of the data was removed" : "")))
                continue
            }
            if found != object {
                problems.append(AuditProblem(area: .schema, message: "\(object.type) \(name) differs from what the migrations create"))
            }
        }
        for (name, object) in actual.sorted(by: { $0.key < $1.key }) where expected[name] == nil {
            problems.append(AuditProblem(area: .schema, message: "\(object.type) \(name) is not part of Formulary's schema"))
        }
        return problems
    }

    /// The schema `migrations` create on an empty database, in memory.
    private static func referenceSchema(_ migrations: [Migration]) throws -> [String: SchemaObject] {
        let reference = try Database(path: ":memory:")
        try Migrator(migrations: migrations).migrate(reference)
        return try schema(of: reference)
    }

    private struct SchemaObject: Equatable {
        var type: String
        var table: String
        var sql: String
    }

    private static func schema(of db: Database) throws -> [String: SchemaObject] {
        var out: [String: SchemaObject] = [:]
        try db.cachedStatement("""
            SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            """).forEachRow { row in
            out[row.string(1)] = SchemaObject(type: row.string(0), table: row.string(2), sql: row.string(3))
        }
        return out
    }
}
