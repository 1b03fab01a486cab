import Testing
@testable import FormularyStore
@testable import FormularyPostgres
import CLibPQ

/// libpq is opened at the first connection, not linked: a library that cannot be loaded is a
/// `clientLibrary` error naming it and the loader's reason, never a crash at start.
struct LibPQLoadingTests {
    @Test func libpqLoadsByItsSoname() throws {
        let functions = try LibPQ.load(LibPQ.soname).get()
        // A function of the table answers as libpq does: no connection, no status to read.
        #expect(functions.pointee.PQstatus(nil) == CONNECTION_BAD)
    }

    @Test func aLibraryThatCannotBeLoadedIsAClientLibraryErrorNamingIt() {
        let missing = "libpq-formulary-missing.so.5"
        let error = #expect(throws: PostgresError.self) { try LibPQ.load(missing).get() }
        #expect(error?.kind == .clientLibrary)
        #expect(error?.message.hasPrefix("the PostgreSQL client library \(missing) cannot be loaded (") == true,
                "\(String(describing: error))")
        // The loader's own words follow, which name the file it looked for.
        #expect(error?.message.contains(missing) == true && error?.message.hasSuffix(")") == true)
        #expect(error?.isConnectionFailure == false)
        #expect(error?.description.hasPrefix("PostgreSQL client library error: ") == true)
    }

    @Test func aLibraryWithoutLibpqsFunctionsIsRefused() {
        // libc loads, but has no PQconnectdb: the table is refused as a whole.
        let error = #expect(throws: PostgresError.self) { try LibPQ.load("libc.so.6").get() }
        #expect(error?.kind == .clientLibrary)
        #expect(error?.message.contains("PQconnectdb") == true, "\(String(describing: error))")
    }
}
