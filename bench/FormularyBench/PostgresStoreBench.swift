import Foundation
import FormularyStore
import FormularyPostgres

/// The store bench (``runStoreBench(count:)``) on PostgreSQL, side by side with SQLite's
/// figures: `count` 7-field entries through one writer in one transaction (COPY), then one
/// scan of their encoded values. The server is the one `FORMULARY_TEST_POSTGRES_URL` names
/// (`make bench` starts a throw-away cluster on this machine); each round uses a new database
/// on it. Best of three.
func runPostgresStoreBench(count: Int = 200_000) {
    guard let base = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"], !base.isEmpty else {
        print("Store on PostgreSQL: skipped (FORMULARY_TEST_POSTGRES_URL is not set; `make bench` sets it)")
        return
    }
    print("Store on PostgreSQL (server on this machine): \(count) 7-field entries, one transaction (best of 3)")
    var bestInsert = Double.infinity, bestScan = Double.infinity
    for round in 0..<3 {
        let name = "formulary_bench_\(getpid())_\(round)"
        guard let url = databaseURL(base, name) else { print("  store-postgres: cannot read \(base)"); return }
        do {
            let admin = try Store.postgres(url: base)
            try admin.executeAdministrative("CREATE DATABASE \(name)")
            defer { try? admin.executeAdministrative("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
            let store = try Store.postgres(url: url)
            guard let measured = try measureStoreRound(store, count: count, label: "store-postgres") else { return }
            bestInsert = min(bestInsert, measured.insert)
            bestScan = min(bestScan, measured.scan)
        } catch {
            print("  store-postgres: \(error)")
            return
        }
    }
    print("  insert: \(Timing.rounded(bestInsert, 2)) s = \(Int(Double(count) / bestInsert)) entries/s")
    print("  scan:   \(Timing.rounded(bestScan * 1000, 0)) ms = \(Int(Double(count) / bestScan)) entries/s")
}

/// `base` with its database name replaced.
private func databaseURL(_ base: String, _ database: String) -> String? {
    guard let scheme = base.range(of: "://") else { return nil }
    let rest = base[scheme.upperBound...]
    let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
    let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
    return String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + database + rest[queryStart...]
}
