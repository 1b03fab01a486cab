import Testing
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit
@testable import FormularyServer
import CMicroHTTPD

/// The libraries `formulary` opens only when a command needs them (libpq for `postgres://`
/// databases, libmicrohttpd for `serve`): when one cannot be loaded, the command says which,
/// why, and what to install, with exit status 3 (environment).
struct ClientLibraryFailureTests {
    @Test func aMissingLibpqNamesTheLibraryAndThePackage() throws {
        let url = "postgres://ann:s3cr3t@db.example.com:6543/registry"
        let workspace = Workspace(settings: WorkspaceSettings(databasePath: url, pluginFolders: [], actor: "ada"))
        let loadError: PostgresError
        switch LibPQ.load("libpq-formulary-missing.so.5") {
        case .failure(let error): loadError = error
        case .success: Issue.record("a library that does not exist was loaded"); return
        }
        let failure = try #require(workspace.serviceError(for: loadError, command: ["types", "list"]))
        #expect(failure.kind == .environment)
        #expect(failure.message.hasPrefix("cannot open postgres://ann:•••@db.example.com:6543/registry: "
                                          + "the PostgreSQL client library libpq-formulary-missing.so.5 cannot be loaded ("),
                "\(failure.message)")
        #expect(failure.message.hasSuffix("; nothing was written. Install the PostgreSQL client library "
                                          + "(Debian and Ubuntu: apt-get install libpq5), then run the command again."),
                "\(failure.message)")
        #expect(!failure.message.contains("s3cr3t") && !CommandDetails.text(failure.details).contains("s3cr3t"))
    }

    @Test func aMissingLibmicrohttpdNamesTheLibraryAndThePackage() {
        switch LibMicroHTTPD.load("libmicrohttpd-formulary-missing.so.12") {
        case .success:
            Issue.record("a library that does not exist was loaded")
        case .failure(let error):
            #expect(error.kind == .environment)
            #expect(error.message.hasPrefix("cannot serve: the HTTP server library libmicrohttpd-formulary-missing.so.12 "
                                            + "cannot be loaded ("), "\(error.message)")
            #expect(error.message.hasSuffix("Install libmicrohttpd (Debian and Ubuntu: apt-get install libmicrohttpd12), "
                                            + "then run the command again"), "\(error.message)")
        }
    }

    @Test func libmicrohttpdLoadsByItsSoname() throws {
        let functions = try LibMicroHTTPD.load(LibMicroHTTPD.soname).get()
        // Asked for the port of no daemon (through the shim's variadic call), libmicrohttpd
        // answers nothing: port 0.
        #expect(formulary_mhd_port(functions, nil) == 0)
    }
}
