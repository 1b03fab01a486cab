import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// What PostgreSQL's reports stand on: the entry functions of `migrations/postgres/0005`
/// answer as SQLite's (`Database+EntryFunctions.swift`) on the same bytes, malformed ones
/// included, and rows read through a cursor come page by page, stop early, nest, and leave
/// the connection usable.
struct PostgresReportSupportTests {
    /// Field names, values and the name asked for: slots of every kind (present, empty,
    /// absent, trailing absent, longer than one varint byte, UTF-8) and damaged encodings.
    static let cases: [(fields: [UInt8], vals: [UInt8], name: String, value: String)] = {
        let long = String(repeating: "x", count: 200)
        let names = EntryValues.encode(["a", "b", "c", "é", "d"])
        let vals = EntryValues.encode(["1", nil, "", "ü€", long])
        var out: [(fields: [UInt8], vals: [UInt8], name: String, value: String)] = []
        for name in ["a", "b", "c", "é", "d", "e", "*", "A"] {
            for value in ["1", "", "ü€", long, "2"] {
                out.append((names, vals, name, value))
            }
        }
        // Damaged: a length past the end, a varint that never ends, names cut short.
        out.append((names, [2, 0x31, 9, 0x41], "a", "1"))
        out.append((names, [2, 0x31, 9, 0x41], "b", "A"))
        out.append((names, [0xff, 0xff], "a", "1"))
        out.append(([2, 0x61, 0x80], vals, "a", "1"))
        out.append(([], vals, "a", "1"))
        out.append((names, [], "a", ""))
        return out
    }()

    @Test(.needsPostgres) func entryFunctionsAnswerAsOnSQLite() throws {
        let folder = TemporaryDirectory()
        let sqlite = try SQLiteBackend(path: folder.path("functions.db"))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try PostgresBackend(url: database.url)
        _ = try postgres.applyMigrations(now: Date.init, afterApplying: { _ in })
        var compared = 0
        for c in Self.cases {
            let expectedValue = try sqlite.database.scalarString("SELECT formulary_value(?, ?, ?)",
                                                                 [.blob(c.fields), .blob(c.vals), .text(c.name)])
            let expectedHas = try sqlite.database.scalarInt64("SELECT formulary_has(?, ?, ?, ?)",
                                                              [.blob(c.fields), .blob(c.vals), .text(c.name), .text(c.value)])
            let value = try postgres.connection.scalarString("SELECT formulary_value($1, $2, $3)",
                                                             [.bytes(c.fields), .bytes(c.vals), .text(c.name)])
            let has = try postgres.connection.execute("SELECT formulary_has($1, $2, $3, $4)",
                                                      [.bytes(c.fields), .bytes(c.vals), .text(c.name), .text(c.value)])
                .first?.bool(0)
            #expect(value == expectedValue, "value of \(c.name) in \(c.vals)")
            #expect(has == (expectedHas == 1), "has \(c.name) = \(c.value.prefix(8)) in \(c.vals)")
            compared += 1
        }
        #expect(compared == Self.cases.count)
        // The cases cover each answer: a value, an empty one, none; found and not.
        let values = Set(try Self.cases.map {
            try sqlite.database.scalarString("SELECT formulary_value(?, ?, ?)", [.blob($0.fields), .blob($0.vals), .text($0.name)])
        })
        #expect(values.contains("1") && values.contains("") && values.contains(nil) && values.contains("ü€"))
    }

    @Test(.needsPostgres) func cursorsReadPageByPageStopEarlyAndNest() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let connection = try database.connect()
        let series = "SELECT g FROM generate_series(1, $1::bigint) AS g ORDER BY g"
        var all: [Int64] = []
        try connection.forEachRow(series, [.integer(7)], pageSize: 3) { all.append(try $0.int64(0)); return true }
        #expect(all == Array(1...7))
        #expect(!connection.isInTransaction, "outside a transaction, the cursor's own ends with it")

        var some: [Int64] = []
        try connection.forEachRow(series, [.integer(100)], pageSize: 3) { some.append(try $0.int64(0)); return some.count < 4 }
        #expect(some == [1, 2, 3, 4])

        var pairs: [String] = []
        try connection.transaction(.readOnly) {
            try connection.forEachRow(series, [.integer(2)], pageSize: 1) { outer in
                try connection.forEachRow(series, [.integer(2)], pageSize: 1) { inner in
                    pairs.append("\(try outer.int64(0))\(try inner.int64(0))")
                    return true
                }
                return true
            }
            #expect(connection.isInTransaction, "inside a transaction, it stays open")
        }
        #expect(pairs == ["11", "12", "21", "22"])

        // A body that throws: the error comes through, and the connection works on.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.forEachRow(series, [.integer(5)], pageSize: 2) { _ in throw Stop() }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.scalarInt64("SELECT 41 + 1") == 42)
        // A statement the server refuses, as a PostgresError.
        #expect(throws: PostgresError.self) {
            try connection.forEachRow("SELECT 1 / (g - 2) FROM generate_series(1, 3) AS g", [], pageSize: 1) { _ in true }
        }
        #expect(try connection.scalarInt64("SELECT 1") == 1)
    }
}
