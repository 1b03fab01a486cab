import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// The PostgreSQL server the tests may use: `FORMULARY_TEST_POSTGRES_URL`, which `make test`
/// sets to a throw-away cluster (scripts/pg-cluster.sh). Without it, the tests that need a
/// server are skipped, each with the reason below, so that `swift test` alone still works.
enum PostgresTestServer {
    static let url: String? = {
        // Stores opened by URL in this process (sandboxes, workspaces) need the backend.
        PostgresBackend.install()
        let value = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static let skipReason: Comment = """
        needs PostgreSQL, and FORMULARY_TEST_POSTGRES_URL is not set — run `make test` \
        (it starts a throw-away cluster), or `scripts/with-pg-cluster.sh swift test`
        """
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when a PostgreSQL server is given (``PostgresTestServer``).
    static var needsPostgres: Self { .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason) }
}

/// A new, empty database on the test server for one test, dropped when the value is released.
///
/// Releasing it ends the database's connections (`DROP DATABASE … WITH (FORCE)`): a test keeps
/// it alive to its end with `defer { withExtendedLifetime(database) {} }`, since Swift may
/// release a value after its last use.
final class PostgresTestDatabase {
    let name: String
    /// The URL of the new database.
    let url: String
    private let admin: PostgresConnection

    init() throws {
        guard let base = PostgresTestServer.url else { throw PostgresError(kind: .misuse, message: "no test server") }
        name = "formulary_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgresConnection(url: base)
        // A language's collation (ICU, en-US), as a managed server typically has, so that a
        // statement that sorts or compares text without `COLLATE "C"` shows; a server
        // built without ICU gets its default.
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
        // FORCE ends connections a failed test left open (PostgreSQL 13 and later).
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A new connection to the database.
    func connect() throws -> PostgresConnection { try PostgresConnection(url: url) }

    /// `base` with its database name replaced by `database` (query parameters kept).
    static func url(_ base: String, database: String) -> String {
        guard let scheme = base.range(of: "://") else { return base }
        let rest = base[scheme.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + database + rest[queryStart...]
    }
}
