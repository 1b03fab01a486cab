import Foundation
import Testing

/// Compatibility policies as a team meets them: `types policy`, `types add` refusing a
/// version that breaks its type's policy on the stored entries (and taking it with
/// `--allow-breaking --reason`, audited), `impact --fail-on newly-failing`, and the same
/// over HTTP.
@Suite struct CompatibilityPolicyTests {
    /// The built-in card without its Luhn check: it accepts what the built-in one rejected.
    static let looseCard = """
        field credit-card
        label "Card"
        normalize strip " -"
        mask "0000 0000 0000 0000"
        accept "4111 1111 1111 1111"

        """

    @Test(arguments: TestBackend.all) func typesAddRefusesAVersionThatBreaksBackward(_ backend: TestBackend) throws {
        let sandbox = try ImpactCommandTests.sandbox(backend)
        let historyBefore = try sandbox.mustRun("types", "history", "credit-card").stdout
        let auditBefore = try sandbox.auditRecords().count
        let refused = try sandbox.run("types", "add", "proposed/credit-card.field")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stdout.isEmpty, "\(refused)")
        #expect(refused.errorLines == [
            "formulary: error: the new version of 'credit-card' breaks its compatibility policy",
            "credit-card: policy backward (the new version must accept every value the previous one accepted):",
            "  it rejects values the current version accepts, e.g. \"493698000004\"",
            "  1 stored value valid under the current version would be rejected (e.g. entry 2 card)",
            "Nothing was stored. To see the change: formulary impact FILE. To take it anyway: formulary types add --allow-breaking --reason \"…\" FILE (audited).",
        ], "\(refused)")
        #expect(try sandbox.mustRun("types", "history", "credit-card").stdout == historyBefore, "a refused version was stored")
        #expect(try sandbox.auditRecords().count == auditBefore, "a refusal wrote to the audit log")

        // The flags go together, and a reason must say something.
        let noReason = try sandbox.run("types", "add", "--allow-breaking", "proposed/credit-card.field")
        #expect(noReason.status == 2 && noReason.stderr.contains("--allow-breaking needs --reason TEXT"), "\(noReason)")
        let reasonAlone = try sandbox.run("types", "add", "--reason", "why", "proposed/credit-card.field")
        #expect(reasonAlone.status == 2 && reasonAlone.stderr.contains("--reason goes with --allow-breaking"), "\(reasonAlone)")
        let blank = try sandbox.run("types", "add", "--allow-breaking", "--reason", "  ", "proposed/credit-card.field")
        #expect(blank.status == 2 && blank.stderr.contains("--allow-breaking needs a reason"), "\(blank)")
        #expect(try sandbox.auditRecords().count == auditBefore)

        let taken = try sandbox.run("types", "add", "--allow-breaking", "--reason", "Visa only from January",
                                    "proposed/credit-card.field")
        #expect(taken.status == 0, "\(taken)")
        #expect(taken.outputLines.dropFirst() == [
            "credit-card: stored although it breaks its policy backward (--allow-breaking; the reason is in the audit log):",
            "  it rejects values the current version accepts, e.g. \"493698000004\"",
            "  1 stored value valid under the current version would be rejected (e.g. entry 2 card)",
        ], "\(taken)")
        let record = try #require(try sandbox.auditRecords().last)
        #expect(record["action"] as? String == "types.add")
        let details = try #require(record["details"] as? [String: Any])
        #expect(details["breaking"] as? Bool == true)
        #expect(details["reason"] as? String == "Visa only from January")
        #expect(details["compatibility"] as? String == "backward")
        #expect((details["compared_with"] as? String)?.count == 64)
        #expect(details["breaches"] as? [String] == ["it rejects values the current version accepts, e.g. \"493698000004\"", "1 stored value valid under the current version would be rejected (e.g. entry 2 card)"])
        #expect(try sandbox.run("audit", "verify").status == 0)
    }

    /// A value the new version rejects counts even where its entry is already invalid for
    /// another field: an app using the type would now refuse it. (`impact` counts entries,
    /// and sees no entry newly failing here.)
    @Test func aValueInAnAlreadyInvalidEntryStillBreaksBackward() throws {
        let sandbox = try Sandbox(backend: .sqlite)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("signups.csv", """
            name,email,age,card,cvv
            Grace Hopper,not-an-email,40,5500 0000 0000 0004,456

            """)
        _ = try sandbox.run("import", "--form", "signup", "signups.csv")
        _ = try sandbox.run("validate")
        try sandbox.write("proposed/credit-card.field", ImpactCommandTests.strictCard)
        let impact = try sandbox.run("--format", "json", "impact", "proposed/credit-card.field")
        #expect(impact.stdout.hasPrefix(#"{"entries_checked":1,"newly_failing":0,"#), "\(impact)")
        let refused = try sandbox.run("types", "add", "proposed/credit-card.field")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.errorLines.contains("  1 stored value valid under the current version would be rejected (e.g. entry 1 card)"),
                "\(refused)")
    }

    @Test(arguments: TestBackend.all) func thePolicyDecidesWhichDirectionBreaks(_ backend: TestBackend) throws {
        let sandbox = try ImpactCommandTests.sandbox(backend)
        try sandbox.write("proposed/loose/credit-card.field", Self.looseCard)
        // Without Luhn it lets entry 3's bad digit pass, which forward and full forbid; and
        // with one 16-digit mask it refuses the other brands' lengths, which backward forbids
        // (decided on the versions themselves: no stored entry shows it).
        try sandbox.mustRun("types", "policy", "forward", "--type", "credit-card")
        let forward = try sandbox.run("types", "add", "proposed/loose/credit-card.field")
        #expect(forward.status == 2, "\(forward)")
        #expect(forward.errorLines.dropFirst() == [
            "credit-card: policy forward (the new version must reject every value the previous one rejected):",
            "  it accepts values the current version rejects, e.g. \"0000000000000000\"",
            "  1 stored value invalid under the current version would be accepted (e.g. entry 3 card)",
        ] + [forward.errorLines.last ?? ""], "\(forward)")
        try sandbox.mustRun("types", "policy", "full")   // the registry's default; the type's own still wins
        #expect(try sandbox.run("types", "add", "proposed/loose/credit-card.field").status == 2)
        try sandbox.mustRun("types", "policy", "default", "--type", "credit-card")   // now the registry's: full
        let full = try sandbox.run("types", "add", "proposed/loose/credit-card.field")
        #expect(full.status == 2 && full.stderr.contains("policy full (the new version must accept exactly"), "\(full)")
        try sandbox.mustRun("types", "policy", "backward", "--type", "credit-card")
        let backward = try sandbox.run("types", "add", "proposed/loose/credit-card.field")
        #expect(backward.status == 2, "\(backward)")
        #expect(backward.errorLines.dropFirst(2).first?.hasPrefix("  it rejects values the current version accepts, e.g. ") == true,
                "\(backward)")
        #expect(!backward.stderr.contains("stored value"), "no stored value shows it: \(backward)")
        // Under none, the stricter version goes in without a word.
        try sandbox.mustRun("types", "policy", "none", "--type", "credit-card")
        let none = try sandbox.run("types", "add", "proposed/credit-card.field")
        #expect(none.status == 0 && none.outputLines.count == 1, "\(none)")
    }

    /// A version that accepts more (ZIP+4 beside ZIP) keeps backward and breaks forward, with
    /// the shortest value that shows it; decided on the versions alone.
    @Test func aWiderVersionKeepsBackwardAndBreaksForward() throws {
        let sandbox = try Sandbox(backend: .sqlite)
        try sandbox.initDatabase()
        try sandbox.write("v1/zip.field", "field zip\npattern /[0-9]{5}/\naccept \"12345\"\n")
        try sandbox.write("v2/zip.field", "field zip\npattern /[0-9]{5}(-[0-9]{4})?/\naccept \"12345-6789\"\n")
        try sandbox.write("v3/zip.field", "field zip\npattern /[1-9][0-9]{4}/\naccept \"12345\"\n")
        try sandbox.mustRun("types", "add", "v1/zip.field")
        try sandbox.mustRun("types", "policy", "forward", "--type", "zip")
        let forward = try sandbox.run("types", "add", "v2/zip.field")
        #expect(forward.status == 2, "\(forward)")
        #expect(forward.errorLines.contains("  it accepts values the current version rejects, e.g. \"00000-0000\""), "\(forward)")
        try sandbox.mustRun("types", "policy", "backward", "--type", "zip")
        let backward = try sandbox.run("types", "add", "v2/zip.field")
        #expect(backward.status == 0 && backward.outputLines.count == 1, "\(backward)")
        // Narrower again: "00000" was valid under v2 and is not under v3.
        let narrower = try sandbox.run("types", "add", "v3/zip.field")
        #expect(narrower.status == 2, "\(narrower)")
        #expect(narrower.errorLines.contains("  it rejects values the current version accepts, e.g. \"00000\""), "\(narrower)")
        // A secure type shows no value.
        try sandbox.write("s1/pin.field", "field pin\nsecure\npattern /[0-9]{4}/\naccept \"1234\"\n")
        try sandbox.write("s2/pin.field", "field pin\nsecure\npattern /[1-9][0-9]{3}/\naccept \"1234\"\n")
        try sandbox.mustRun("types", "add", "s1/pin.field")
        let pin = try sandbox.run("types", "add", "s2/pin.field")
        #expect(pin.status == 2 && pin.stderr.contains("it rejects values the current version accepts (a secure type: no value is shown)"),
                "\(pin)")
        #expect(!pin.stderr.contains("0000"), "\(pin)")
    }

    @Test(arguments: TestBackend.all) func typesPolicyShowsSetsAndAudits(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        #expect(try sandbox.mustRun("types", "policy").outputLines == [
            "registry default: backward (not set)", "No type has a policy of its own."])
        let set = try sandbox.run("types", "policy", "full", "--type", "email")
        #expect(set.outputLines == ["registry default: backward (not set)", "TYPE   POLICY", "email  full"], "\(set)")
        try sandbox.mustRun("types", "policy", "none")
        #expect(try sandbox.mustRun("--format", "json", "types", "policy").stdout
                == #"{"registry":"none","types":{"email":"full"}}"# + "\n")
        let records = try sandbox.auditRecords().filter { $0["action"] as? String == "registry.setting" }
        #expect(records.map { $0["subject"] as? String } == ["compatibility.email", "compatibility"])
        #expect((records.last?["details"] as? [String: Any])?["value"] as? String == "none")
        // Setting what is already set writes nothing.
        try sandbox.mustRun("types", "policy", "none")
        #expect(try sandbox.auditRecords().filter { $0["action"] as? String == "registry.setting" }.count == 2)
        try sandbox.mustRun("types", "policy", "default")
        try sandbox.mustRun("types", "policy", "default", "--type", "email")
        #expect(try sandbox.mustRun("types", "policy").outputLines == [
            "registry default: backward (not set)", "No type has a policy of its own."])

        let unknown = try sandbox.run("types", "policy", "strict")
        #expect(unknown.status == 2 && unknown.stderr.contains("'strict' is not a compatibility policy; use backward, forward, full, none, or default"),
                "\(unknown)")
        let typeOnly = try sandbox.run("types", "policy", "--type", "email")
        #expect(typeOnly.status == 2 && typeOnly.stderr.contains("--type email needs a POLICY"), "\(typeOnly)")
        #expect(try sandbox.run("audit", "verify").status == 0)
    }

    @Test(arguments: TestBackend.all) func impactFailsOnNewlyFailingEntriesWhenAsked(_ backend: TestBackend) throws {
        let sandbox = try ImpactCommandTests.sandbox(backend)
        let strict = try sandbox.run("impact", "--fail-on", "newly-failing", "proposed/credit-card.field")
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.outputLines.first?.hasPrefix("Judged 4 entries") == true, "the report is printed as without the option")
        #expect(strict.errorLines == ["formulary: 1 entry would newly fail (--fail-on newly-failing)"], "\(strict)")
        let json = try sandbox.run("--format", "json", "impact", "--fail-on", "newly-failing", "proposed/credit-card.field")
        #expect(json.status == 1 && json.stdout.contains(#""newly_failing":1"#), "\(json)")
        try sandbox.write("proposed/loose/credit-card.field", Self.looseCard)
        let loose = try sandbox.run("impact", "--fail-on", "newly-failing", "proposed/loose/credit-card.field")
        #expect(loose.status == 0 && loose.stderr.isEmpty, "fixing entries is not failing: \(loose)")
        let bad = try sandbox.run("impact", "--fail-on", "fixed", "proposed/credit-card.field")
        #expect(bad.status == 2 && bad.stderr.contains("'fixed'"), "\(bad)")
    }

    @Test func theServerWeighsAndRefusesAsTheCommandsDo() throws {
        let sandbox = try ImpactCommandTests.sandbox(.sqlite)
        let admin = try ServeEntriesTests.token(sandbox, "ops", "admin")
        let reader = try ServeEntriesTests.token(sandbox, "dash", "read")
        let server = try ServeCommandTests.Server(sandbox)
        let strict = try String(contentsOfFile: sandbox.path("proposed/credit-card.field"), encoding: .utf8)
        let auth = ["Authorization: Bearer \(admin)"]
        func post(_ path: String, _ body: String, _ headers: [String] = auth) throws -> (status: Int, body: String) {
            try ServeCommandTests.request(server.port, "POST", path, body: body, headers: headers, contentType: "text/plain")
        }
        let weighed = try post("/v1/types/credit-card/compatibility", strict)
        #expect(weighed.status == 200, "\(weighed)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(weighed.body.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "credit-card" && object["policy"] as? String == "backward")
        #expect(object["compatible"] as? Bool == false && object["unchanged"] as? Bool == false)
        #expect(object["breaches"] as? [String] == ["it rejects values the current version accepts, e.g. \"493698000004\"", "1 stored value valid under the current version would be rejected (e.g. entry 2 card)"])
        let values = try #require(object["stored_values"] as? [String: Any])
        #expect(values["values_checked"] as? Int == 4 && values["newly_rejected"] as? Int == 1 && values["newly_accepted"] as? Int == 0)
        #expect(weighed.body.contains(#""newly_rejected_examples":[{"entry":2,"form":"signup","field":"card"}],"newly_accepted_examples":[]"#),
                "\(weighed.body)")
        // Read tokens may not weigh (it judges every stored entry); a body for another type is refused.
        #expect(try post("/v1/types/credit-card/compatibility", strict, ["Authorization: Bearer \(reader)"]).status == 403)
        let other = try post("/v1/types/email/compatibility", strict)
        #expect(other.status == 400 && other.body.contains("declares the type 'credit-card', not 'email'"), "\(other)")
        #expect(try post("/v1/types/credit-card/compatibility", "field credit-card\nlength 3..1\n").status == 422)

        let refused = try post("/v1/types", strict)
        #expect(refused.status == 409 && refused.body.contains(#""code":"incompatible""#), "\(refused)")
        #expect(refused.body.contains("1 stored value valid under the current version would be rejected"), "\(refused)")
        #expect(try post("/v1/types?allow_breaking=true", strict).status == 400)
        #expect(try post("/v1/types?reason=because", strict).status == 400)
        let taken = try post("/v1/types?allow_breaking=true&reason=Visa%20only", strict)
        #expect(taken.status == 201, "\(taken)")
        let record = try #require(try sandbox.auditRecords().last)
        #expect((record["details"] as? [String: Any])?["reason"] as? String == "Visa only")
        #expect(record["actor"] as? String == "ops")
        #expect(server.stop() == 0)
    }
}
