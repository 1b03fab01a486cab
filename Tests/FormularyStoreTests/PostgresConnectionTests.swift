import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// The libpq wrapper: values bound as parameters and read back by type, errors with SQLSTATE
/// and without values, transactions that commit or roll back, URLs without passwords.
struct PostgresConnectionTests {
    // MARK: Without a server

    @Test func urlsAreRecognizedAndShownWithoutPasswords() {
        #expect(StoreLocation.isServerURL("postgres://ann@db:5432/formulary"))
        #expect(StoreLocation.isServerURL("postgresql://ann@db/formulary"))
        #expect(!StoreLocation.isServerURL("formulary.db"))
        #expect(!StoreLocation.isServerURL("postgres.db"))
        #expect(StoreLocation.redacted("postgres://ann:s3cret@db:5432/f") == "postgres://ann:•••@db:5432/f")
        #expect(StoreLocation.redacted("postgresql://ann:s3:cr@t@db/f?sslmode=require&password=x")
                == "postgresql://ann:•••@db/f?sslmode=require&password=•••")
        #expect(StoreLocation.redacted("postgres://ann@db/f") == "postgres://ann@db/f")
        #expect(StoreLocation.redacted("postgres://db/f?password=x") == "postgres://db/f?password=•••")
    }

    @Test func aPathIsNotAServerURL() {
        #expect {
            _ = try PostgresConnection(url: "registry.db")
        } throws: { ($0 as? PostgresError)?.kind == .misuse }
    }

    @Test func aServerThatDoesNotAnswerIsAConnectionErrorWithoutThePassword() {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresConnection(url: "postgres://ann:hunter2@127.0.0.1:1/formulary?connect_timeout=5")
        }
        #expect(error?.kind == .connection)
        #expect(error?.isConnectionFailure == true)
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description.contains("postgres://ann:•••@127.0.0.1:1/formulary") == true)
        #expect(error?.sqlState == "08001", "a server that cannot be reached: sqlclient_unable_to_establish_sqlconnection")
    }

    @Test func dataExceptionMessagesLoseTheirQuotedValues() {
        let error = PostgresError(kind: .server, sqlState: "22P02",
                                  message: #"invalid input syntax for type bigint: "4111 1111""#)
        #expect(error.message == #"invalid input syntax for type bigint: "…""#)
        let other = PostgresError(kind: .server, sqlState: "23505",
                                  message: #"duplicate key value violates unique constraint "t_pkey""#)
        #expect(other.message.contains("t_pkey"))
    }

    // MARK: Against the test server

    @Test(.needsPostgres) func valuesRoundTripByType() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("""
            CREATE TABLE t (i BIGINT, r DOUBLE PRECISION, s TEXT, b BYTEA, f BOOLEAN, n INTEGER)
            """)
        let bytes: [UInt8] = [0, 1, 0x7f, 0x80, 0xff, 0x5c, 0x27]
        let text = "Grüße, 東京 — 'quoted' \\ \"double\" $1"
        for value: Int64 in [0, -1, .max, .min] {
            try db.execute("INSERT INTO t (i, r, s, b, f, n) VALUES ($1, $2, $3, $4, $5, $6)",
                           [.integer(value), .real(-2.5e-7), .text(text), .bytes(bytes), .bool(true), .integer(42)])
        }
        try db.execute("INSERT INTO t (i, r, s, b, f, n) VALUES ($1, $2, $3, $4, $5, $6)",
                       [.null, .null, .null, .null, .null, .null])
        let rows = try db.execute("SELECT i, r, s, b, f, n FROM t ORDER BY i NULLS LAST")
        #expect(rows.count == 5)
        #expect(try rows.prefix(4).map { try $0.int64(0) } == [.min, -1, 0, .max])
        let row = rows[0]
        #expect(try row.double(1) == -2.5e-7)
        #expect(try row.string(2) == text)
        #expect(try row.bytes(3) == bytes)
        #expect(try row.bool(4))
        #expect(try row.int(5) == 42)
        #expect(try row.value(3) == .bytes(bytes))
        let nulls = rows[4]
        #expect((0..<6).allSatisfy { nulls.isNull($0) })
        #expect(try nulls.optionalInt64(0) == nil && nulls.optionalString(2) == nil && nulls.optionalBytes(3) == nil)
        #expect(try nulls.value(2) == .null)
        // An empty bytea is not NULL.
        #expect(try db.execute("SELECT $1::bytea", [.bytes([])]).first?.bytes(0) == [])
        // sum(bigint) is numeric: read as an integer when it is one.
        #expect(try db.scalarInt64("SELECT sum(n) FROM t") == 168)
    }

    @Test(.needsPostgres) func binaryRowsReadAsTextRowsDo() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (i BIGINT, j INTEGER, k SMALLINT, r DOUBLE PRECISION, s TEXT, b BYTEA, f BOOLEAN)")
        for value: Int64 in [-3, 0, 1 << 40] {
            try db.execute("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7)",
                           [.integer(value), .integer(value % 1000), .integer(-7), .real(0.1), .text("Grüße \(value)"),
                            .bytes([0, 0xff, UInt8(value & 0x7f)]), .bool(value > 0)])
        }
        try db.execute("INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
        let sql = "SELECT i, j, k, r, s, b, f FROM t ORDER BY i NULLS LAST"
        let text = try db.execute(sql), binary = try db.execute(sql, binaryResults: true)
        #expect(binary.count == 4)
        for (t, b) in zip(text, binary) {
            #expect(try (0..<7).map { try b.value($0) } == (0..<7).map { try t.value($0) })
            if !t.isNull(5) {
                #expect(try b.withUnsafeBytes(at: 5) { Array($0) } == t.bytes(5))
                #expect(try t.withUnsafeBytes(at: 5) { Array($0) } == t.bytes(5))
            }
        }
        #expect(try binary[2].int64(0) == 1 << 40 && binary[0].int(1) == -3 && binary[0].int(2) == -7)
        #expect(throws: PostgresError.self) { _ = try binary[0].int64(4) }
    }

    @Test(.needsPostgres) func valuesAreBoundNotSpliced() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (s TEXT)")
        let hostile = "x'); DROP TABLE t; --"
        try db.execute("INSERT INTO t (s) VALUES ($1)", [.text(hostile)])
        #expect(try db.scalarString("SELECT s FROM t") == hostile)
        #expect(try db.scalarInt64("SELECT count(*) FROM t") == 1)
    }

    @Test(.needsPostgres) func aColumnReadAsTheWrongTypeIsAnErrorWithoutItsValue() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let row = try #require(try db.execute("SELECT $1::text AS secret, 7::bigint AS n", [.text("4111111111111111")]).first)
        let error = #expect(throws: PostgresError.self) { _ = try row.int64(0) }
        #expect(error?.kind == .misuse)
        #expect(error?.description.contains("secret") == true)
        #expect(error?.description.contains("4111") == false)
        #expect(throws: PostgresError.self) { _ = try row.string(1) }
        #expect(throws: PostgresError.self) { _ = try row.bytes(0) }
        #expect(throws: PostgresError.self) { _ = try row.int64(9) }
        #expect(throws: PostgresError.self) { _ = try db.execute("SELECT $1::text", [.text("a\u{0}b")]) }
    }

    @Test(.needsPostgres) func errorsCarrySQLStateAndNeverBoundValues() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT CHECK (n > 0))")
        let secret = "cvv-937-secret"
        try db.execute("INSERT INTO t (k, n) VALUES ($1, 1)", [.text(secret)])
        let duplicate = #expect(throws: PostgresError.self) {
            try db.execute("INSERT INTO t (k, n) VALUES ($1, 1)", [.text(secret)])
        }
        #expect(duplicate?.sqlState == "23505")
        #expect(duplicate?.isUniqueViolation == true && duplicate?.isConstraintViolation == true)
        #expect(duplicate?.message.contains("t_pkey") == true)
        #expect(duplicate?.sql == "INSERT INTO t (k, n) VALUES ($1, 1)")
        #expect(duplicate?.description.contains(secret) == false)

        let check = #expect(throws: PostgresError.self) {
            try db.execute("INSERT INTO t (k, n) VALUES ($1, $2)", [.text(secret + "2"), .integer(-4111)])
        }
        #expect(check?.sqlState == "23514")
        #expect(check?.description.contains(secret) == false && check?.description.contains("4111") == false)

        let syntax = #expect(throws: PostgresError.self) {
            try db.execute("SELECT $1::text::bigint", [.text(secret)])
        }
        #expect(syntax?.sqlState == "22P02")
        #expect(syntax?.description.contains(secret) == false)

        let typo = #expect(throws: PostgresError.self) { try db.execute("SELEC 1") }
        #expect(typo?.sqlState == "42601" && typo?.kind == .server)
        // The connection is still usable after errors outside a transaction.
        #expect(try db.scalarInt64("SELECT count(*) FROM t") == 1)
    }

    @Test(.needsPostgres) func aPreparedStatementServesNullsAndValuesAlike() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (s TEXT, n BIGINT)")
        let sql = "INSERT INTO t (s, n) VALUES ($1, $2)"
        try db.execute(sql, [.null, .integer(1)])
        try db.execute(sql, [.text("a"), .null])
        try db.execute(sql, [.text("b"), .integer(3)])
        let query = "SELECT count(*) FROM t WHERE ($1::text IS NULL OR s = $1)"
        #expect(try db.scalarInt64(query, [.null]) == 3)
        #expect(try db.scalarInt64(query, [.text("b")]) == 1)
        #expect(try db.executeOnce("SELECT n FROM t WHERE s = $1", [.text("b")]).first?.int64(0) == 3)
    }

    // MARK: Transactions

    @Test(.needsPostgres) func aTransactionCommitsWhenItsBodyReturnsAndRollsBackWhenItThrows() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let other = try database.connect()
        try db.executeScript("CREATE TABLE t (x BIGINT)")
        let value = try db.transaction {
            try db.execute("INSERT INTO t VALUES ($1)", [1])
            // Not visible elsewhere before the commit.
            #expect(try other.scalarInt64("SELECT count(*) FROM t") == 0)
            #expect(db.isInTransaction)
            return 7
        }
        #expect(value == 7 && !db.isInTransaction)
        #expect(try other.scalarInt64("SELECT count(*) FROM t") == 1)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction { try db.execute("INSERT INTO t VALUES ($1)", [2]); throw Stop() }
        }
        #expect(!db.isInTransaction)
        #expect(try other.scalarInt64("SELECT count(*) FROM t") == 1)
    }

    @Test(.needsPostgres) func aSavepointUndoesOnlyItsOwnWork() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (x BIGINT PRIMARY KEY)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES ($1)", [1])
            struct Stop: Error {}
            _ = try? db.transaction { try db.execute("INSERT INTO t VALUES ($1)", [2]); throw Stop() }
            // A failed statement inside a savepoint: the savepoint's rollback clears it.
            _ = try? db.transaction { try db.execute("INSERT INTO t VALUES ($1)", [1]) }
            try db.transaction { try db.execute("INSERT INTO t VALUES ($1)", [3]) }
        }
        #expect(try db.execute("SELECT x FROM t ORDER BY x").map { try $0.int64(0) } == [1, 3])
    }

    @Test(.needsPostgres) func aSwallowedFailureMakesTheCommitFailInsteadOfLosingWorkSilently() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (x BIGINT PRIMARY KEY)")
        try db.execute("INSERT INTO t VALUES ($1)", [1])
        let error = #expect(throws: PostgresError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES ($1)", [2])
                _ = try? db.execute("INSERT INTO t VALUES ($1)", [1])  // fails, error dropped
            }
        }
        #expect(error?.message.contains("nothing was committed") == true)
        #expect(!db.isInTransaction)
        #expect(try db.scalarInt64("SELECT count(*) FROM t") == 1)
    }

    @Test(.needsPostgres) func aReadOnlyTransactionRefusesWrites() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE t (x BIGINT)")
        let error = #expect(throws: PostgresError.self) {
            try db.transaction(.readOnly) { try db.execute("INSERT INTO t VALUES ($1)", [1]) }
        }
        #expect(error?.sqlState == "25006")
        #expect(!db.isInTransaction)
    }

    @Test(.needsPostgres) func aLostConnectionIsAConnectionError() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let admin = try database.connect()
        let pid = try #require(try db.scalarInt64("SELECT pg_backend_pid()"))
        try admin.execute("SELECT pg_terminate_backend($1::int)", [.integer(pid)])
        let error = #expect(throws: PostgresError.self) { try db.execute("SELECT 1") }
        #expect(error?.isConnectionFailure == true)
    }
}
