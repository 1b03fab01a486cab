import Foundation
import FormularyStore
import FormularyPostgres
import Testing

/// The kinds of database the backend-neutral CLI tests run on: SQLite always, PostgreSQL
/// when a test server is given (`FORMULARY_TEST_POSTGRES_URL`, set by
/// `scripts/with-pg-cluster.sh` and `make test`). Use as `@Test(arguments: TestBackend.all)`
/// and make the sandbox with ``Sandbox/init(backend:)``.
enum TestBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The test server's URL (a role that may create databases), or nil.
    static let serverURL: String? = {
        // Stores opened by URL in this process (sandboxes, workspaces) need the backend.
        PostgresBackend.install()
        let value = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// The backends this run can test: PostgreSQL only with a server.
    static var all: [TestBackend] { serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// A new, empty database on the test server, dropped when the value is released (the
/// sandbox that made it holds it to its own end).
final class ScratchServerDatabase {
    let name: String
    let url: String
    private let admin: PostgresConnection

    init() throws {
        guard let base = TestBackend.serverURL else {
            throw PostgresError(kind: .misuse, message: "no test server: FORMULARY_TEST_POSTGRES_URL is not set")
        }
        name = "formulary_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgresConnection(url: base)
        // A language's collation where the server has ICU, as in the store's tests: a statement
        // sorting names without COLLATE "C" then fails its test.
        do {
            try admin.executeScript("""
                CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'
                """)
        } catch {
            try admin.executeScript("CREATE DATABASE \(name)")
        }
        url = Self.url(base, database: name)
    }

    deinit {
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `base` with its database replaced by `database`.
    static func url(_ base: String, database: String) -> String {
        guard let scheme = base.range(of: "://") else { return base }
        let rest = base[scheme.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + database + rest[queryStart...]
    }

    /// Runs `sql` on the database (from outside Formulary, as `psql` would) and returns
    /// its rows as text (nil for NULL).
    func query(_ sql: String) throws -> [[String?]] {
        let connection = try PostgresConnection(url: url)
        return try connection.executeOnce(sql).map { row in
            try (0..<row.columnCount).map { column in
                // Counts come back as bigint: shown as their digits.
                if let text = try? row.optionalString(column) { return text }
                return try row.optionalInt64(column).map(String.init)
            }
        }
    }
}

extension Sandbox {
    /// Everything the database holds, in a form that compares equal only when nothing was
    /// written: the schema and every row on SQLite (``DatabaseSnapshot``); on PostgreSQL,
    /// each table's row count and the MD5 of its rows in order.
    func databaseFingerprint() throws -> [String: String] {
        guard let server else {
            let snapshot = try DatabaseSnapshot(path: databasePath)
            return ["schema": "\(snapshot.schema)", "tables": "\(snapshot.tables.sorted { $0.key < $1.key })"]
        }
        var fingerprint: [String: String] = [:]
        let tables = try server.query("""
            SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1
            """).compactMap { $0.first ?? nil }
        for table in tables {
            let row = try server.query("""
                SELECT count(*)::text, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text COLLATE "C"), ''))
                FROM "\(table)" t
                """).first ?? []
            fingerprint[table] = row.compactMap { $0 }.joined(separator: " ")
        }
        return fingerprint
    }
}

extension Sandbox {
    /// Where `marker` occurs in the database: `table.column` names with the number of rows,
    /// searched in the stored bytes (``DatabaseSnapshot/occurrences(of:path:)`` on SQLite; on
    /// PostgreSQL, `bytea` columns by their bytes and the others by their text).
    func occurrences(of marker: String) throws -> [String: Int] {
        guard let server else { return try DatabaseSnapshot.occurrences(of: marker, path: databasePath) }
        let hex = marker.utf8.map { String(format: "%02x", $0) }.joined()
        var found: [String: Int] = [:]
        let columns = try server.query("""
            SELECT c.table_name::text, c.column_name::text, c.data_type::text
            FROM information_schema.columns c JOIN information_schema.tables t
              ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            ORDER BY 1, 2
            """)
        for column in columns {
            guard let table = column[0], let name = column[1], let type = column[2] else { continue }
            let test = type == "bytea" ? "position(decode('\(hex)', 'hex') in \"\(name)\") > 0"
                : "strpos(\"\(name)\"::text, convert_from(decode('\(hex)', 'hex'), 'UTF8')) > 0"
            let count = try server.query("SELECT count(*)::text FROM \"\(table)\" WHERE \(test)").first?.first ?? nil
            if let count, count != "0" { found["\(table).\(name)"] = Int(count) }
        }
        return found
    }
}

extension Sandbox {
    /// The database's schema and each table's rows as text, from outside Formulary: SQLite's
    /// `sqlite_master` and `quote()`d rows (``DatabaseSnapshot``), or on PostgreSQL the
    /// columns, indexes and triggers of the current schema and each row as `ROW(…)::text`.
    /// For checking that a command lost or changed no earlier row.
    func rowSnapshot() throws -> (schema: [String], tables: [String: Set<String>]) {
        guard let server else {
            let snapshot = try DatabaseSnapshot(path: databasePath)
            return (snapshot.schema.map { "\($0)" },
                    snapshot.tables.mapValues { Set($0.map { "\($0)" }) })
        }
        let schema = try server.query("""
            SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_schema = current_schema()
            UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
            UNION ALL SELECT 'trigger ' || c.relname || '.' || t.tgname FROM pg_trigger t
              JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = current_schema() AND NOT t.tgisinternal
            ORDER BY 1
            """).compactMap { $0.first ?? nil }
        var tables: [String: Set<String>] = [:]
        for table in try server.query("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")
            .compactMap({ $0.first ?? nil }) {
            tables[table] = Set(try server.query("SELECT t::text FROM \"\(table)\" t").compactMap { $0.first ?? nil })
        }
        return (schema, tables)
    }
}
