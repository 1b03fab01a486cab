import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// A new, empty database on the test server (`FORMULARY_TEST_POSTGRES_URL`), dropped when the
/// value is released: keep it alive to a test's end with `withExtendedLifetime`.
final class ScratchPostgresDatabase {
    static let serverURL: String? = {
        // Stores opened by URL in this process (sandboxes, workspaces) need the backend.
        PostgresBackend.install()
        let value = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    let name: String
    let url: String
    private let admin: PostgresConnection

    init() throws {
        guard let base = Self.serverURL else { throw PostgresError(kind: .misuse, message: "no test server") }
        name = "formulary_kit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgresConnection(url: base)
        // A language's collation where the server has ICU, as in FormularyStoreTests.
        do {
            try admin.executeScript("""
                CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'
                """)
        } catch {
            try admin.executeScript("CREATE DATABASE \(name)")
        }
        guard let scheme = base.range(of: "://") else { throw PostgresError(kind: .misuse, message: "not a URL") }
        let rest = base[scheme.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        url = String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + name + rest[queryStart...]
    }

    deinit {
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when a PostgreSQL server is given (``ScratchPostgresDatabase``).
    static var needsPostgresServer: Self {
        .enabled(if: ScratchPostgresDatabase.serverURL != nil, """
            needs PostgreSQL, and FORMULARY_TEST_POSTGRES_URL is not set — run `make test` \
            (it starts a throw-away cluster), or `scripts/with-pg-cluster.sh swift test`
            """)
    }
}
