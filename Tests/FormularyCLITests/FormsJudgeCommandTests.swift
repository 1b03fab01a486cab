import Foundation
import Testing

/// `formulary forms judge`: one filled-in form judged, as a table or as the JSON document
/// `POST /v1/forms/NAME/judge` answers, with the exit status of `check`.
@Suite struct FormsJudgeCommandTests {
    @Test func aTableOfFieldsThenTheFormsRulesAndTheVerdict() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let result = try sandbox.run("forms", "judge", "signup", "name=Ada", "email=ada@example", "age=17", "cvv=987", "x=1")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("email  invalid"), "\(result)")
        #expect(result.stdout.contains("age    invalid  \"17\""), "\(result)")
        #expect(result.stdout.contains("cvv    valid    •••"), "\(result)")
        #expect(result.stdout.contains("card   valid    (empty)"), "\(result)")
        #expect(result.stdout.contains("warning: x: unknown-field"), "\(result)")
        #expect(result.stdout.hasSuffix("verdict: invalid\n"), "\(result)")
        #expect(!result.stdout.contains("987"), "a secure value is never printed")

        let valid = try sandbox.run("forms", "judge", "signup", "name=Ada", "email=ada@example.com")
        #expect(valid.status == 0 && valid.stdout.hasSuffix("verdict: valid\n"), "\(valid)")
    }

    @Test func jsonIsTheDocumentOfTheHTTPAnswer() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let result = try sandbox.run("--format", "json", "forms", "judge", "signup", "name=Ada", "email=a=b@example",
                                     "cvv=987", "age=")
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["verdict", "fields", "form_violations", "unknown_fields"])
        let fields = try #require(document["fields"] as? [String: [String: Any]])
        #expect(fields["cvv"]?["formatted"] as? String == "•••")
        #expect(fields["age"]?["verdict"] as? String == "valid" && fields["age"]?["formatted"] as? String == "")
        #expect(fields["email"]?["verdict"] as? String == "invalid", "split at the first '='")
        #expect(!result.stdout.contains("987"))

        // The server answers the same bytes for the same values.
        let server = try ServeCommandTests.Server(sandbox)
        let answer = try ServeCommandTests.request(server.port, "POST", "/v1/forms/signup/judge",
            body: #"{"fields": {"name": "Ada", "email": "a=b@example", "cvv": "987", "age": ""}}"#)
        #expect(answer.status == 200)
        #expect(answer.body == result.stdout)
        let live = try sandbox.run("--format", "json", "forms", "judge", "--live", "signup", "email=ada@exa")
        let liveAnswer = try ServeCommandTests.request(server.port, "POST", "/v1/forms/signup/judge",
                                                      body: #"{"fields": {"email": "ada@exa"}, "stage": "live"}"#)
        #expect(live.status == 0 && liveAnswer.body == live.stdout)
        #expect(server.stop() == 0)
        #expect(!server.logText.contains("987"))
    }

    @Test func badArgumentsAndUnknownFormsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let bare = try sandbox.run("forms", "judge", "signup", "name")
        #expect(bare.status == 2 && bare.stderr.contains("'name' is not KEY=VALUE"), "\(bare)")
        let twice = try sandbox.run("forms", "judge", "signup", "name=a", "name=b")
        #expect(twice.status == 2 && twice.stderr.contains("'name' is given twice"), "\(twice)")
        let noKey = try sandbox.run("forms", "judge", "signup", "=a")
        #expect(noKey.status == 2, "\(noKey)")
        let unknown = try sandbox.run("forms", "judge", "signpu", "name=a")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown form 'signpu'; did you mean 'signup'?"), "\(unknown)")
        // No values at all: every required field is missing.
        let empty = try sandbox.run("forms", "judge", "signup")
        #expect(empty.status == 1 && empty.stdout.contains("required"), "\(empty)")
    }
}
