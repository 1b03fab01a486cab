import Foundation
import FormularyStore

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
    let fields = ["name", "email", "phone", "age", "card", "exp", "cvv"]
    var bestInsert = Double.infinity, bestScan = Double.infinity
    for round in 0..<3 {
        let name = "formulary_bench_\(getpid())_\(round)"
        guard let url = databaseURL(base, name) else { print("  store-postgres: cannot read \(base)"); return }
        do {
            let admin = try Store.postgres(url: base)
            try admin.executeAdministrative("CREATE DATABASE \(name)")
            defer { try? admin.executeAdministrative("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
            let store = try Store.postgres(url: url)
            try store.migrate()
            let clock = ContinuousClock()
            let insert = try clock.measure {
                try store.transaction {
                    let writer = try store.entryWriter(form: "signup", actor: "bench", source: "bench.csv")
                    let layout = try writer.layoutID(for: fields)
                    var encoded: [UInt8] = []
                    for index in 0..<count {
                        EntryValues.encode(["Person \(index)", "person\(index)@example.com",
                                            "555-123-\(1000 + index % 9000)", "\(18 + index % 80)",
                                            "4111 1111 1111 1111", "12/29", "123"], into: &encoded)
                        try encoded.withUnsafeBytes { _ = try writer.add(layoutID: layout, encoded: $0) }
                    }
                }
            }
            guard try store.entryCount() == count, let formID = try store.formID(named: "signup") else {
                print("  store-postgres: the entries were not all stored")
                return
            }
            var seen = 0
            let scan = try clock.measure {
                try store.forEachEncodedEntry(formID: formID) { _, _, _ in
                    seen += 1
                    return true
                }
            }
            guard seen == count else {
                print("  store-postgres: the scan saw \(seen) of \(count) entries")
                return
            }
            bestInsert = min(bestInsert, Timing.seconds(insert))
            bestScan = min(bestScan, Timing.seconds(scan))
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
