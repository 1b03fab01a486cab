import Foundation
import FormularyStore

/// The entry store's write and scan rates, release build: `count` 7-field sign-up entries
/// through one writer in one transaction (the encoded path `import` takes), then one scan of
/// their encoded values (the path batch validation takes). `EntryStoreTests` proves the
/// entries are all stored and read back; this prints how fast. Best of three fresh files.
func runStoreBench(count: Int = 200_000) {
    print("Store: \(count) 7-field entries, one transaction (best of 3)")
    var bestInsert = Double.infinity, bestScan = Double.infinity, scannedBytes = 0
    for round in 0..<3 {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("formulary-store-bench-\(getpid())-\(round).db").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        do {
            let store = try Store(path: path)
            guard let measured = try measureStoreRound(store, count: count, label: "store") else { return }
            bestInsert = min(bestInsert, measured.insert)
            bestScan = min(bestScan, measured.scan)
            scannedBytes = measured.bytes
        } catch {
            print("  store: \(error)")
            return
        }
    }
    print("  insert: \(Timing.rounded(bestInsert, 2)) s = \(Int(Double(count) / bestInsert)) entries/s")
    print("  scan:   \(Timing.rounded(bestScan * 1000, 0)) ms = \(Int(Double(count) / bestScan)) entries/s "
          + "(\(scannedBytes) bytes of encoded values)")
}

/// One round of the store bench on any store: `count` 7-field sign-up entries through one
/// writer in one transaction, then one scan of their encoded values. The seconds each took
/// and the bytes scanned, or nil (said on standard output under `label`) when the store did
/// not keep or give back every entry.
func measureStoreRound(_ store: Store, count: Int, label: String) throws -> (insert: Double, scan: Double, bytes: Int)? {
    let fields = ["name", "email", "phone", "age", "card", "exp", "cvv"]
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
        print("  \(label): the entries were not all stored")
        return nil
    }
    var bytes = 0, seen = 0
    let scan = try clock.measure {
        try store.forEachEncodedEntry(formID: formID) { _, _, values in
            bytes += values.count
            seen += 1
            return true
        }
    }
    guard seen == count else {
        print("  \(label): the scan saw \(seen) of \(count) entries")
        return nil
    }
    return (Timing.seconds(insert), Timing.seconds(scan), bytes)
}
