import CSQLite
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The step hook of a connection, shared with its statements.
@usableFromInline final class StepHookBox {
    @usableFromInline var hook: Database.StepHook?
    init() {}
}

/// A connection to an SQLite database file.
///
/// Opened in WAL mode with `foreign_keys=ON`, `synchronous=NORMAL` and a busy handler that
/// waits up to ``Configuration/busyTimeoutMilliseconds`` for other connections (including for
/// `BEGIN IMMEDIATE`). A connection belongs to one thread at a time: it is not `Sendable`;
/// open one connection per thread instead.
@usableFromInline package final class Database {
    package struct Configuration: Sendable {
        /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
        ///
        /// A minute: an import holds the write lock for its whole transaction, which for a
        /// large file on a busy machine lasts well beyond a few seconds, and a command that
        /// merely arrives during it must wait rather than fail with "database is locked".
        /// Readers never wait (WAL); only a writer stuck for a minute makes others give up.
        package var busyTimeoutMilliseconds: Int32 = 60_000
        /// Opens the file read-only (`SQLITE_OPEN_READONLY`): no journal mode change, no write,
        /// never a new file. Where the database cannot be written (a read-only file, folder or
        /// file system) and no write-ahead log is waiting, it is opened `immutable`, so that
        /// SQLite needs no `-wal` or `-shm` file beside it; see ``Database/opensImmutable(_:)``.
        package var readOnly = false
        /// Creates the file when it does not exist.
        package var create = true
        package init() {}
    }

    /// The page size of files this connection creates (SQLite's default is 4 KiB; an existing
    /// file keeps the size it was made with).
    ///
    /// Measured on a 1M-entry store (docs/performance.md): a batch run reads every page of
    /// `entries` once, each page costing one `pread` and a page set-up, so 16 KiB pages read
    /// the same bytes with a quarter of the calls; `validate --all` took 0.90–0.96 of the CPU
    /// and `import` about 0.97. Larger pages were not clearly faster and make an empty store
    /// 2.3 MB.
    package static let newFilePageSize = 16_384

    /// The write-ahead log's automatic checkpoint, in bytes (SQLite counts it in pages: 1,000
    /// pages, 4 MB, at its default page size). Kept in bytes so that larger pages do not make
    /// the `-wal` file beside a small store four times as large.
    static let checkpointBytes = 4_096_000

    /// A hook called before every step of every statement with the statement's SQL; returning a
    /// result code makes that step fail with it instead of running (fault injection: disk full,
    /// I/O error, busy…). Nil, the default, costs one load per step.
    @usableFromInline package typealias StepHook = @Sendable (_ sql: String) -> Int32?

    @usableFromInline let handle: OpaquePointer
    /// The file name the connection was opened with.
    package let path: String
    /// Fault injection for this connection; starts as ``defaultStepHook``.
    package var stepHook: StepHook? {
        get { hooks.hook }
        set { hooks.hook = newValue }
    }
    @usableFromInline let hooks = StepHookBox()
    private var statementCache: [String: Statement] = [:]
    /// The busy handler's state; the handler reaches it unretained, so the connection owns it.
    private let busyWaits: BusyWaits
    var savepointDepth = 0

    private static let defaultHook = Mutex<StepHook?>(nil)

    /// The hook new connections start with, for tests and fault-injection runs that cannot
    /// reach the connection a command opens.
    package static var defaultStepHook: StepHook? {
        get { defaultHook.withLock { $0 } }
        set { defaultHook.withLock { $0 = newValue } }
    }

    /// Opens (and by default creates) the database at `path`.
    package init(path: String, configuration: Configuration = .init()) throws(DatabaseError) {
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        if configuration.readOnly {
            flags |= SQLITE_OPEN_READONLY
            if Self.opensImmutable(path) {
                name = Self.immutableURI(path)
                flags |= SQLITE_OPEN_URI
            }
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if configuration.create { flags |= SQLITE_OPEN_CREATE }
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(code: code, connection: handle, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        busyWaits = BusyWaits(timeoutMilliseconds: Int(max(configuration.busyTimeoutMilliseconds, 1)))
        self.stepHook = Database.defaultStepHook
        sqlite3_extended_result_codes(handle, 1)
        installBusyHandler()
        registerEntryFunctions()
        do {
            if !configuration.readOnly {
                // Before the switch to WAL, which writes the first page of a new file: on a
                // file that has pages already, SQLite ignores this.
                try executeScript("PRAGMA page_size = \(Self.newFilePageSize)")
                try enableWriteAheadLog()
                try executeScript("PRAGMA synchronous = NORMAL")
                let pageSize = max(try integerPragma("page_size"), 512)
                try executeScript("PRAGMA wal_autocheckpoint = \(Int64(Self.checkpointBytes) / pageSize)")
            }
            try executeScript("PRAGMA foreign_keys = ON")
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// Switches the file to WAL. The switch needs the file to itself, and SQLite answers
    /// `SQLITE_BUSY` at once, without the busy handler, when another connection holds a lock
    /// while this one asks (several `init`s of a new file at once hit this on a loaded
    /// machine): so a busy answer is waited out here, by the busy handler's own policy.
    private func enableWriteAheadLog() throws(DatabaseError) {
        var attempt = 0
        while true {
            do {
                try executeScript("PRAGMA journal_mode = WAL")
                return
            } catch where error.resultCode == SQLITE_BUSY
                        // SQLite's own answer, not one injected by a step hook, which stands for
                        // a lock held past the busy timeout: no retry here should outlast it.
                        && sqlite3_errcode(handle) & 0xff == SQLITE_BUSY
                        && busyWaits.shouldRetry(attempt: attempt) {
                attempt += 1
            }
        }
    }

    /// The value of an integer pragma (0 when it gives no row), with `init`'s typed errors.
    private func integerPragma(_ name: String) throws(DatabaseError) -> Int64 {
        let statement = try cachedStatement("PRAGMA \(name)")
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step() else { return 0 }
        return sqlite3_column_int64(statement.handle, 0)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether a read-only connection to `path` is opened `immutable` (no locks, no `-shm`).
    ///
    /// A WAL database needs a `-shm` file (and a `-wal`) even to be read, and SQLite creates
    /// them beside the database; in a folder that cannot be written, opening fails. SQLite's
    /// documented way to read such a file is the `immutable` URI parameter. It is safe only
    /// while nobody writes the file, so it is used only when the file or its folder refuses
    /// writing — to this process (`access`), or by its mode bits (so that root, which `access`
    /// lets write anywhere, still leaves a `chmod a-w` database and folder exactly as they
    /// are) — and no write-ahead log with content is waiting beside it (its transactions are
    /// committed and an immutable reader would miss them). A writer cannot work there either:
    /// it would need to create the same `-wal` and `-shm` files.
    package static func opensImmutable(_ path: String) -> Bool {
        var walStatus = stat()
        if stat(path + "-wal", &walStatus) == 0 && walStatus.st_size > 0 { return false }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return [path, folder.isEmpty ? "/" : folder].contains { item in
            var status = stat()
            return access(item, W_OK) != 0 || (stat(item, &status) == 0 && status.st_mode & S_IWUSR == 0)
        }
    }

    /// `file:PATH?mode=ro&immutable=1`, the path percent-encoded as SQLite's URIs require.
    static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        // An absolute path gets the empty authority (`file:///…`), so that one starting with
        // "//" is not read as a host name.
        return (encoded.hasPrefix("/") ? "file://" : "file:") + encoded + "?mode=ro&immutable=1"
    }

    /// Waits with a growing delay, like SQLite's own handler, but as a handler of ours so that
    /// it also serves the lock `BEGIN IMMEDIATE` takes and never depends on compile options.
    /// It keeps count of what it did in `busyWaits`, which tests read instead of a clock.
    private func installBusyHandler() {
        let context = Unmanaged.passUnretained(busyWaits).toOpaque()
        sqlite3_busy_handler(handle, { context, attempts in
            let waits = Unmanaged<BusyWaits>.fromOpaque(context!).takeUnretainedValue()
            return waits.shouldRetry(attempt: Int(attempts)) ? 1 : 0
        }, context)
    }

    /// What this connection's busy handler has done: tests assert on it (a wait observed, a
    /// timeout reached by the handler's own account) rather than on elapsed time.
    var busyWaitRecord: BusyWaits.Record { busyWaits.record }

    private static let waitObserverBox = Mutex<(@Sendable () -> Void)?>(nil)

    /// Called on the waiting thread each time a connection of this process starts waiting for
    /// another connection's lock. The executable's test hook (`FORMULARY_TEST_WAIT_LOG`) sets
    /// it, so that process-level tests see a command waiting instead of inferring it from a
    /// sleep. Nil, the default, costs nothing until a wait.
    package static var waitObserver: (@Sendable () -> Void)? {
        get { waitObserverBox.withLock { $0 } }
        set { waitObserverBox.withLock { $0 = newValue } }
    }

    // MARK: Statements

    /// The statement for `sql`, prepared on first use and cached by its text for this connection.
    ///
    /// Getting it resets it: do not ask for the same SQL again while iterating its rows (use
    /// ``makeStatement(_:)`` for a second, independent cursor).
    package func cachedStatement(_ sql: String) throws(DatabaseError) -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try Statement(database: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// A new statement for `sql`, not cached.
    package func makeStatement(_ sql: String) throws(DatabaseError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs one statement (cached) with `arguments`, ignoring any rows.
    package func execute(_ sql: String, _ arguments: StatementArguments = .none) throws(DatabaseError) {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.execute()
    }

    /// Runs every statement of `script` in order (no arguments, not cached): migrations, pragmas.
    package func executeScript(_ script: String) throws(DatabaseError) {
        // withCString only rethrows untyped errors; the body throws nothing else.
        do { try runScript(script) } catch let error as DatabaseError { throw error } catch {
            throw DatabaseError(extendedCode: SQLITE_ERROR, message: "\(error)", sql: nil)
        }
    }

    private func runScript(_ script: String) throws {
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                let text = String(cString: current)
                guard code == SQLITE_OK else {
                    throw DatabaseError(code: code, connection: handle,
                                        sql: Self.firstStatement(text, length: tail.map { $0 - current }))
                }
                cursor = tail
                guard let statement else { continue } // whitespace or comment only
                let sql = Self.firstStatement(text, length: tail.map { $0 - current })
                if let hook = stepHook, let injected = hook(sql) {
                    sqlite3_finalize(statement)
                    throw DatabaseError(extendedCode: injected, message: nil, sql: sql)
                }
                var step = sqlite3_step(statement)
                while step == SQLITE_ROW { step = sqlite3_step(statement) }
                sqlite3_finalize(statement)
                guard step == SQLITE_DONE else {
                    throw DatabaseError(code: step, connection: handle, sql: sql)
                }
            }
        }
    }

    private static func firstStatement(_ text: String, length: Int?) -> String {
        guard let length else { return text }
        let bytes = Array(text.utf8.prefix(length))
        return String(decoding: bytes, as: UTF8.self)
            .trimmingCharacters(in: " \n\t\r")
    }

    // MARK: Convenience reads

    /// The first column of the first row, as Int64, or nil when there is no row or it is NULL.
    package func scalarInt64(_ sql: String, _ arguments: StatementArguments = .none) throws -> Int64? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        return try statement.first { $0.optionalInt64(0) } ?? nil
    }

    /// The first column of the first row, as text, or nil when there is no row or it is NULL.
    package func scalarString(_ sql: String, _ arguments: StatementArguments = .none) throws -> String? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        return try statement.first { $0.optionalString(0) } ?? nil
    }

    /// The rowid of the last row inserted on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True while a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// True when a table (or view) of that name exists.
    package func tableExists(_ name: String) throws -> Bool {
        try scalarInt64("SELECT count(*) FROM sqlite_schema WHERE name = ? AND type IN ('table','view')",
                        [.text(name)]) ?? 0 > 0
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
