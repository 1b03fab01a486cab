import Synchronization

/// The backends for databases on a server, as the program that links them registers them.
///
/// FormularyStore itself links SQLite only: a server's client library (libpq, with Kerberos,
/// LDAP and SASL behind it) is linked by the module that implements its backend
/// (`FormularyPostgres`), so an app that links FormularyKit for SQLite files links none of
/// it. The `formulary` executable installs the PostgreSQL backend at start
/// (`PostgresBackend.install()`); a program that has not gets a clear error for a
/// `postgres://` URL instead.
package enum ServerBackends {
    /// Opens a backend on the database `url` names; read-only for the whole session when
    /// asked.
    package typealias Opener = @Sendable (_ url: String, _ readOnly: Bool) throws -> any StoreBackend

    private static let installed = Mutex<Opener?>(nil)

    /// Makes `opener` the one ``Store/init(location:configuration:)`` uses for `postgres://`
    /// URLs. Installing again replaces it.
    package static func install(_ opener: @escaping Opener) {
        installed.withLock { $0 = opener }
    }

    /// The installed opener, or nil.
    static var opener: Opener? { installed.withLock { $0 } }

    /// The error for a server URL in a program without a server backend.
    static func missing(for location: StoreLocation) -> PostgresError {
        PostgresError(kind: .misuse, message: "\(location.displayName) is a PostgreSQL URL, but this program was built "
                      + "without the PostgreSQL backend: link the FormularyPostgres module and call "
                      + "PostgresBackend.install() at start, or name an SQLite file")
    }
}
