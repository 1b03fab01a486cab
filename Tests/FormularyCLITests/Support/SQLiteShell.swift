import Foundation

/// Direct SQL on a database file, from outside Formulary: what an attacker with write
/// access to the file (or a curious user with `sqlite3`) can do. The tests use it to
/// tamper with the audit log and to look at tables no command prints.
///
/// The test target links only FormularyKit, and the `sqlite3` shell is not installed
/// everywhere, so this loads the system's libsqlite3 (which the `formulary` executable
/// itself links) at run time.
final class SQLiteShell {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private typealias OpenV2 = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) -> Int32
    private typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    private typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
    private typealias Step = @convention(c) (OpaquePointer?) -> Int32
    private typealias ColumnText = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    private typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private let library: UnsafeMutableRawPointer
    private var db: OpaquePointer?

    init(path: String) throws {
        guard let library = dlopen("libsqlite3.so.0", RTLD_NOW) ?? dlopen("libsqlite3.so", RTLD_NOW) else {
            throw Failure(description: "cannot load libsqlite3: \(String(cString: dlerror()))")
        }
        self.library = library
        let open: OpenV2 = try symbol("sqlite3_open_v2")
        let SQLITE_OPEN_READWRITE: Int32 = 0x2
        guard open(path, &db, SQLITE_OPEN_READWRITE, nil) == 0 else {
            throw Failure(description: "cannot open \(path)")
        }
    }

    deinit {
        if let close: Step = try? symbol("sqlite3_close_v2") { _ = close(db) }
        dlclose(library)
    }

    private func symbol<T>(_ name: String) throws -> T {
        guard let pointer = dlsym(library, name) else { throw Failure(description: "libsqlite3 has no \(name)") }
        return unsafeBitCast(pointer, to: T.self)
    }

    private func lastError() -> String {
        guard let message: ErrorMessage = try? symbol("sqlite3_errmsg"), let text = message(db) else { return "unknown error" }
        return String(cString: text)
    }

    /// Runs one or more statements.
    func execute(_ sql: String) throws {
        let exec: Exec = try symbol("sqlite3_exec")
        guard exec(db, sql, nil, nil, nil) == 0 else {
            throw Failure(description: "\(sql): \(lastError())")
        }
    }

    /// The rows of one query, every column as text (nil for NULL).
    func query(_ sql: String) throws -> [[String?]] {
        let prepare: Prepare = try symbol("sqlite3_prepare_v2")
        let step: Step = try symbol("sqlite3_step")
        let columnCount: Step = try symbol("sqlite3_column_count")
        let columnText: ColumnText = try symbol("sqlite3_column_text")
        let finalize: Step = try symbol("sqlite3_finalize")
        var statement: OpaquePointer?
        guard prepare(db, sql, -1, &statement, nil) == 0 else { throw Failure(description: "\(sql): \(lastError())") }
        defer { _ = finalize(statement) }
        let SQLITE_ROW: Int32 = 100, SQLITE_DONE: Int32 = 101
        var rows: [[String?]] = []
        while true {
            let rc = step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw Failure(description: "\(sql): \(lastError())") }
            rows.append((0..<columnCount(statement)).map { i in
                columnText(statement, i).map { String(cString: $0) }
            })
        }
        return rows
    }

    /// The first column of the first row.
    func scalar(_ sql: String) throws -> String? {
        try query(sql).first?.first ?? nil
    }
}
