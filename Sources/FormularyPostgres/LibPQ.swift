import FormularyStore
import CLibPQ

/// libpq, opened when the process first connects to a PostgreSQL server rather than linked:
/// `formulary check` and every command on an SQLite file start without loading it and the
/// twenty libraries behind it (Kerberos, LDAP, SASL, GnuTLS, OpenSSL), which took about half
/// of a one-value `check`'s start-up (docs/performance.md, "Start-up").
///
/// The functions come as a table (`formulary_pq`, CLibPQ's shim.h) whose entries have the
/// types libpq's header declares, so a call through it is checked as a direct call would be.
package enum LibPQ {
    /// libpq's shared library, by its soname (the one the client library has had since
    /// PostgreSQL 8.0).
    package static let soname = "libpq.so.5"

    /// The process's libpq, loaded on first use; every connection shares it.
    /// `nonisolated(unsafe)`: the table is filled once, inside the global's one-time
    /// initialisation, and only read after.
    nonisolated(unsafe) private static let shared: Result<UnsafePointer<formulary_pq>, PostgresError> = load(soname)

    /// libpq's functions, loading the library on the first call.
    ///
    /// - Throws: a ``PostgresError`` of kind `clientLibrary` that names the library and
    ///   the loader's reason when it cannot be loaded.
    static func functions() throws(PostgresError) -> UnsafePointer<formulary_pq> {
        try shared.get()
    }

    /// Opens `library` and resolves libpq's functions from it (the process's copy is
    /// `load(soname)`; tests name a library that is not there).
    package static func load(_ library: String) -> Result<UnsafePointer<formulary_pq>, PostgresError> {
        let table = UnsafeMutablePointer<formulary_pq>.allocate(capacity: 1)
        if let reason = formulary_pq_load(library, table) {
            table.deallocate()
            return .failure(PostgresError(
                kind: .clientLibrary,
                message: "the PostgreSQL client library \(library) cannot be loaded (\(String(cString: reason)))"))
        }
        return .success(UnsafePointer(table))
    }
}
