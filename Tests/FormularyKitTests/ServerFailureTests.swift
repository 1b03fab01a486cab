import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// A PostgreSQL failure reads as a plain message (what happened, what the command kept, what
/// to do), exit 3, with the server's code on the details line — and never with a password.
struct ServerFailureTests {
    static let url = "postgres://ann:s3cr3t@db.example.com:6543/registry?sslmode=require"

    func failure(_ error: PostgresError, command: [String] = ["entries", "list"],
                 url: String = Self.url) throws -> ServiceError {
        let workspace = Workspace(settings: WorkspaceSettings(databasePath: url, pluginFolders: [], actor: "ada"))
        let failure = try #require(workspace.serviceError(for: error, command: command))
        #expect(failure.kind == .environment)
        let details = CommandDetails.text(failure.details)
        #expect(!failure.message.contains("s3cr3t") && !details.contains("s3cr3t"), "\(failure.message) \(details)")
        #expect(!failure.message.contains("SQLite"), "\(failure.message)")
        return failure
    }

    /// What libpq says when a connection cannot be made, as `PostgresConnection` reports it.
    func connecting(_ libpq: String) -> PostgresError {
        PostgresError(kind: .connection, sqlState: PostgresConnection.connectionSQLState(libpq),
                      message: "cannot connect to \(StoreLocation.redacted(Self.url)): \(libpq)")
    }

    @Test func anUnreachableServerIsNamedByHostAndPort() throws {
        let error = try failure(connecting("""
            connection to server at "db.example.com" (10.0.0.5), port 6543 failed: Connection refused
            \tIs the server running on that host and accepting TCP/IP connections?
            """))
        #expect(error.message.hasPrefix("cannot reach the PostgreSQL server at db.example.com:6543 (for postgres://ann:•••@db.example.com:6543/registry?sslmode=require); nothing was written."),
                "\(error.message)")
        #expect(error.message.contains("Start the server, or check the host and port in --db"), "\(error.message)")
        #expect(CommandDetails.text(error.details).contains("08001"))
        let unknownHost = try failure(connecting("could not translate host name \"db.example.com\" to address: Name or service not known"))
        #expect(unknownHost.message.hasPrefix("cannot reach the PostgreSQL server at db.example.com:6543"), "\(unknownHost.message)")
    }

    @Test func aRefusedLoginPointsAtPGPASSWORDAndPgpass() throws {
        for libpq in ["connection to server at \"db.example.com\", port 6543 failed: FATAL:  password authentication failed for user \"ann\"",
                      "connection to server at \"db.example.com\", port 6543 failed: fe_sendauth: no password supplied",
                      "connection to server at \"db.example.com\", port 6543 failed: FATAL:  role \"ann\" does not exist"] {
            let error = try failure(connecting(libpq))
            #expect(error.message.contains("refused the login"), "\(error.message)")
            #expect(error.message.contains("PGPASSWORD") && error.message.contains("~/.pgpass"), "\(error.message)")
            #expect(error.message.contains("nothing was written"), "\(error.message)")
        }
    }

    @Test func aMissingDatabaseSuggestsCreatedb() throws {
        let error = try failure(connecting("connection to server at \"db.example.com\", port 6543 failed: FATAL:  database \"registry\" does not exist"))
        #expect(error.message == "the PostgreSQL server at db.example.com:6543 has no database registry; nothing was written. "
                + "Create it with 'createdb registry' and then run 'formulary init', or check the name in --db (or FORMULARY_DB).")
    }

    @Test func tooManyConnections() throws {
        let error = try failure(connecting("connection to server at \"db.example.com\", port 6543 failed: FATAL:  sorry, too many clients already"))
        #expect(error.message.contains("has no connection to spare") && error.message.contains("max_connections"), "\(error.message)")
    }

    @Test func aConnectionLostMidCommandSaysWhatWasKept() throws {
        let lost = PostgresError(kind: .connection, sqlState: nil, message: "server closed the connection unexpectedly",
                                 sql: "INSERT INTO entries (id) VALUES ($1)")
        let importing = try failure(lost, command: ["import"])
        #expect(importing.message.hasPrefix("the connection to the PostgreSQL server at db.example.com:6543 was lost during the command"),
                "\(importing.message)")
        #expect(importing.message.contains("; nothing was written."), "\(importing.message)")
        let validating = try failure(PostgresError(kind: .server, sqlState: "57P01", message: "terminating connection due to administrator command"),
                                     command: ["validate"])
        #expect(validating.message.contains("an interrupted run is marked incomplete"), "\(validating.message)")
        #expect(validating.message.contains("was lost during the command"), "\(validating.message)")
    }

    @Test func aFullDiskAndTheFallbackShowTheSQLSTATE() throws {
        let full = try failure(PostgresError(kind: .server, sqlState: "53100", message: "could not extend file"), command: ["import"])
        #expect(full.message.hasPrefix("the disk of the PostgreSQL server at db.example.com:6543 is full"), "\(full.message)")
        #expect(full.message.contains("nothing was written") && full.message.contains("Free some space"), "\(full.message)")
        let other = try failure(PostgresError(kind: .server, sqlState: "XX000", message: "internal error", sql: "SELECT 1"))
        #expect(other.message.contains("(PostgreSQL error XX000: internal error)"), "\(other.message)")
        #expect(CommandDetails.text(other.details) == "(PostgreSQL error XX000: internal error — while executing `SELECT 1`)")
    }

    @Test func aNulInTextIsBadInput() throws {
        let workspace = Workspace(settings: WorkspaceSettings(databasePath: Self.url, pluginFolders: [], actor: "ada"))
        let nul = PostgresError(kind: .misuse, sqlState: PostgresError.nulInText,
                                message: "parameter $2 is text with a NUL character, which PostgreSQL cannot store")
        let error = try #require(workspace.serviceError(for: nul, command: ["import"]))
        #expect(error.kind == .badInput)
        #expect(error.message.contains("holds a NUL character, which a PostgreSQL database cannot store; nothing was written."),
                "\(error.message)")
    }

    @Test func aURLWithoutHostOrPassword() throws {
        let error = try failure(connecting("connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory"),
                                url: "postgresql:///registry")
        #expect(error.message.hasPrefix("cannot reach the PostgreSQL server (for postgresql:///registry)"), "\(error.message)")
    }

    @Test func passwordsAreShownAsDots() {
        #expect(StoreLocation(Self.url).displayName == "postgres://ann:•••@db.example.com:6543/registry?sslmode=require")
        #expect(StoreLocation("postgres://ann@db/f?password=x").displayName == "postgres://ann@db/f?password=•••")
        #expect(StoreLocation("postgres://ann@db/f").displayName == "postgres://ann@db/f")
        #expect(StoreLocation("formulary.db").displayName == "formulary.db")
        #expect(!StoreLocation("postgres.db").isServer && StoreLocation("postgresql://h/d").isServer)
        let workspace = Workspace(settings: WorkspaceSettings(databasePath: Self.url, pluginFolders: [], actor: "ada"))
        #expect(workspace.databaseName == "postgres://ann:•••@db.example.com:6543/registry?sslmode=require")
        #expect(workspace.isServerDatabase)
    }

    @Test func hostPortAndNameComeFromTheURL() {
        #expect(StoreLocation("postgres://ann:pw@db:6543/reg").serverAddress == "db:6543")
        #expect(StoreLocation("postgres://db/reg").serverAddress == "db:5432")
        #expect(StoreLocation("postgres://[::1]:7000/reg").serverAddress == "[::1]:7000")
        #expect(StoreLocation("postgresql:///reg").serverAddress == nil)
        #expect(StoreLocation("postgres://db/my%20reg?x=1").databaseName == "my reg")
        #expect(StoreLocation("f.db").serverAddress == nil)
    }
}

/// The details of a ``ServiceError`` as text, for the assertions above.
enum CommandDetails {
    static func text(_ details: ServiceError.Details) -> String {
        if case .text(let text) = details { return text }
        return ""
    }
}
