import FormularyStore

/// How a PostgreSQL failure reads to the user: what happened, what the command kept, and what
/// to do, with the server's code and words on the line after — the server's counterpart of
/// ``DatabaseFailure``. ``Workspace/serviceError(for:command:)`` turns a ``PostgresError``
/// into one.
///
/// The database is always shown without its password (``StoreLocation/displayName``), and a
/// ``PostgresError`` carries no bound values, so neither line can leak a secret.
struct ServerFailure {
    var error: PostgresError
    /// The database, as the user named it.
    var location: StoreLocation
    /// The failing command's path (`["import"]`, `["types", "add"]`…).
    var command: [String]

    /// The line after `formulary: error: `.
    var message: String {
        let (what, kept, todo) = explanation
        return "\(what); \(kept). \(todo)."
    }

    /// The server's code, message and statement (never bound values), on one line.
    var details: String {
        var technical = error
        technical.sql = error.sql.map(DatabaseFailure.oneLine)
        return "(\(technical))"
    }

    /// The database as messages show it.
    private var database: String { location.displayName }

    /// `the PostgreSQL server at db:5432`, or `the PostgreSQL server` when the URL names no host.
    private var server: String {
        location.serverAddress.map { "the PostgreSQL server at \($0)" } ?? "the PostgreSQL server"
    }

    private var name: String { location.databaseName ?? "NAME" }

    private var explanation: (what: String, kept: String, todo: String) {
        let kept = DatabaseFailure.kept(command: command)
        if error.kind == .clientLibrary {
            return ("cannot open \(database): \(error.message)", "nothing was written",
                    "Install the PostgreSQL client library (Debian and Ubuntu: apt-get install libpq5), "
                    + "then run the command again")
        }
        let opening = error.kind == .connection && error.message.hasPrefix("cannot connect to ")
        switch error.sqlState {
        case "08001" where opening:
            return ("cannot reach \(server) (for \(database))", "nothing was written",
                    "Start the server, or check the host and port in --db (or FORMULARY_DB)")
        case "28P01", "28000":
            return ("\(server) refused the login to \(database) (wrong or missing password, or a role that may not connect)",
                    "nothing was written",
                    "Give the password through PGPASSWORD or ~/.pgpass rather than in the URL, "
                    + "and check the user name in --db (or FORMULARY_DB)")
        case "3D000":
            return ("\(server) has no database \(name)", "nothing was written",
                    "Create it with 'createdb \(name)' and then run 'formulary init', or check the name in --db (or FORMULARY_DB)")
        case "53300":
            return ("\(server) has no connection to spare (too many clients are connected)",
                    opening ? "nothing was written" : kept,
                    "Run the command again when fewer clients are connected, or raise the server's max_connections")
        case "57P03" where opening:
            return ("\(server) is starting up or shutting down", "nothing was written",
                    "Run the command again once the server is up")
        case "53100":
            return ("the disk of \(server) is full (writing to \(database))", kept,
                    "Free some space on the server, then run the command again")
        case "53200":
            return ("\(server) ran out of memory working on \(database)", kept,
                    "Run the command again when the server is less busy")
        case "25006":
            return ("\(server) allows only reading \(database) (a standby, or a read-only database)", kept,
                    "Point --db at the primary server, or at a database you may write")
        case "42501":
            return ("the role in \(database) lacks a privilege the command needs (\(error.message))", kept,
                    "Grant the role the privileges on the database and its schema (README: 'Using a PostgreSQL server')")
        case "40001", "40P01":
            return ("\(database) could not finish the command's transaction because of a concurrent one", kept,
                    "Run the command again")
        default:
            if error.isConnectionFailure {
                return ("the connection to \(server) was lost during the command (\(database))", kept,
                        "Check that the server is running and reachable, then run the command again")
            }
            let code = error.sqlState.map { "PostgreSQL error \($0)" } ?? "PostgreSQL client error"
            return ("database \(database) failed (\(code): \(error.message))", kept,
                    "Run the command again; if it fails the same way, report it with the line below")
        }
    }
}
