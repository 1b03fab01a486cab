import Foundation
import FormularyPostgres
import Testing

/// Two `formulary serve` processes on one PostgreSQL registry: what is added or revoked
/// through one is what the other serves on its next request — the team's one registry.
@Suite(.serialized) struct ServeSharedRegistryTests {
    static func token(from output: String) throws -> String {
        // `tokens add` prints the token once, on a line of its own.
        try #require(output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count >= 32 && !$0.contains(" ") })
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs PostgreSQL: run `make test`, or `scripts/with-pg-cluster.sh swift test`"))
    func aTypeAddedThroughOneServerIsServedByTheOther() throws {
        let sandbox = try Sandbox(backend: .postgres)
        try sandbox.mustRun("init")
        let admin = try Self.token(from: try sandbox.mustRun("tokens", "add", "ops", "--scope", "admin").stdout)
        let reader = try Self.token(from: try sandbox.mustRun("tokens", "add", "dashboard", "--scope", "read").stdout)
        let first = try ServeCommandTests.Server(sandbox, arguments: [])
        let second = try ServeCommandTests.Server(sandbox, arguments: [])
        let one = try HTTPConnection(port: first.port), two = try HTTPConnection(port: second.port)
        let asReader = ["Authorization: Bearer \(reader)"]

        #expect(try two.exchange("GET", "/v1/types/zip5", headers: asReader).status == 404)
        let added = try one.exchange("POST", "/v1/types", body: Array("field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n".utf8),
                                     contentType: "text/plain", headers: ["Authorization: Bearer \(admin)"])
        #expect(added.status == 201, "\(added.text)")
        let served = try two.exchange("GET", "/v1/types/zip5", headers: asReader)
        #expect(served.status == 200)
        #expect(served.text == (try one.exchange("GET", "/v1/types/zip5", headers: asReader)).text)
        let check = try two.exchange("POST", "/v1/check", body: Array(#"{"type": "zip5", "values": ["1234"]}"#.utf8), headers: asReader)
        #expect(check.status == 200 && check.text.contains(#""verdict":"invalid""#), "\(check.text)")

        // One token store: revoked from the command line, refused by both servers.
        try sandbox.mustRun("tokens", "revoke", "dashboard")
        #expect(try one.exchange("GET", "/v1/types", headers: asReader).status == 401)
        #expect(try two.exchange("GET", "/v1/types", headers: asReader).status == 401)

        // The audit log both read is the one the server wrote to: the type's record names the token.
        let audit = try sandbox.mustRun("audit").stdout
        #expect(audit.contains("types.add") && audit.contains("ops"))
        #expect(first.stop() == 0 && second.stop() == 0)
    }
}
