import Foundation

/// Where a store keeps its rows, read from what the user named (`--db`, `FORMULARY_DB`): a
/// `postgres://` or `postgresql://` URL names a database on a PostgreSQL server; anything
/// else is the path of an SQLite file.
package enum StoreLocation: Sendable, Equatable {
    /// An SQLite database file.
    case sqliteFile(path: String)
    /// A PostgreSQL database, by its URL as given (a password in it included).
    case postgres(url: String)

    /// The location `text` names: a server for a `postgres://` or `postgresql://` URL, an
    /// SQLite file for anything else.
    package init(_ text: String) {
        self = Self.isServerURL(text) ? .postgres(url: text) : .sqliteFile(path: text)
    }

    /// Whether it is a database server rather than a file.
    package var isServer: Bool {
        if case .postgres = self { true } else { false }
    }

    /// How messages show it: the path, or the URL with its password replaced by `•••`
    /// (`postgres://ann:•••@db:5432/formulary`). Never the password itself.
    package var displayName: String {
        switch self {
        case .sqliteFile(let path): path
        case .postgres(let url): Self.redacted(url)
        }
    }

    /// The server's host and port as the URL gives them (`db.example.com:5432`; the port is
    /// libpq's default 5432 when the URL leaves it out); nil for a file, and for a URL
    /// without a host (libpq then takes `PGHOST` or the local socket).
    package var serverAddress: String? {
        guard case .postgres(let url) = self, let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        var authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex)]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.isEmpty { return nil }
        // [::1]:5432, host:5432, host
        if let close = authority.lastIndex(of: "]") {
            let port = authority[authority.index(after: close)...]
            return String(authority[...close]) + (port.isEmpty ? ":5432" : String(port))
        }
        return authority.contains(":") ? String(authority) : authority + ":5432"
    }

    /// The database's name on the server (the URL's path, percent-decoded; libpq's default, the
    /// user's name, when it has none); nil for a file.
    package var databaseName: String? {
        guard case .postgres(let url) = self, let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }), rest[slash] == "/" else { return nil }
        let path = rest[rest.index(after: slash)...].prefix { $0 != "?" }
        return path.isEmpty ? nil : (String(path).removingPercentEncoding ?? String(path))
    }
}

extension Store {
    /// Opens the store `location` names: an SQLite file (created when missing, unless
    /// `configuration` says otherwise) or a database on a PostgreSQL server.
    ///
    /// On a server, `configuration.readOnly` makes the whole session read-only
    /// (`default_transaction_read_only`): the server itself refuses any write, as SQLite does
    /// for a file opened read-only. `configuration.create` does not apply there: the database
    /// must exist (`createdb NAME`); `formulary init` creates its tables.
    ///
    /// Like ``init(path:configuration:migrations:)``, opening does not change the schema.
    ///
    /// - Throws: `DatabaseError` (SQLite) or ``PostgresError`` (the server cannot be reached,
    ///   refuses the login, or has no such database).
    package convenience init(location: StoreLocation, configuration: Database.Configuration = .init()) throws {
        switch location {
        case .sqliteFile(let path):
            try self.init(path: path, configuration: configuration)
        case .postgres(let url):
            guard let opener = ServerBackends.opener else { throw ServerBackends.missing(for: location) }
            self.init(backend: try opener(url, configuration.readOnly))
        }
    }

    /// Whether the store is on a database server (PostgreSQL) rather than in an SQLite file.
    package var isOnServer: Bool { !(backend is SQLiteBackend) }
}
