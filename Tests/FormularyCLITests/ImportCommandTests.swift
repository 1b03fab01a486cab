import Foundation
import Testing

/// `import` of CSV and JSON Lines, and `entries list/show`, end to end.
@Suite struct ImportCommandTests {
    @Test(arguments: TestBackend.all) func csvWithQuotesEmbeddedNewlineBOMAndCRLF(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let csv = "\u{FEFF}name,email,age,card,cvv\r\n"
            + "\"Lovelace, Ada\",ada@example.com,36,4111111111111111,123\r\n"
            + "\"Bob \"\"B\"\" Smith\",\"bob\r\n@example.com\",17,,987\r\n"
        try sandbox.write("signups.csv", csv)
        let result = try sandbox.run("import", "--form", "signup", "signups.csv")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Imported 2 records into signup: 2 added.\n", "\(result)")

        let entries = try sandbox.entries()
        #expect(entries.count == 2)
        let ada = try sandbox.entry(try #require(entries.first?["id"] as? Int))
        let adaValues = try #require(ada["values"] as? [String: Any])
        // The BOM is not part of the first column's name.
        #expect(Set(adaValues.keys) == ["name", "email", "age", "card", "cvv"], "\(adaValues)")
        #expect(adaValues["name"] as? String == "Lovelace, Ada")
        #expect(adaValues["cvv"] as? String == "•••", "secure values are hidden")
        let bobID = try #require(entries.last?["id"] as? Int)
        let bob = try #require(try sandbox.entry(bobID)["values"] as? [String: Any])
        #expect(bob["name"] as? String == "Bob \"B\" Smith")
        #expect(bob["email"] as? String == "bob\r\n@example.com", "the line break inside quotes is kept as it is")
        #expect(bob["age"] as? String == "17")

        // The text view: secure values hidden, control characters escaped.
        let show = try sandbox.run("entries", "show", String(bobID))
        #expect(show.status == 0, "\(show)")
        #expect(!withoutTimesAndHashes(show.stdout).contains("987"), "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("cvv") && $0.hasSuffix("\"•••\"") }, "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("email") && $0.hasSuffix(#""bob\r\n@example.com""#) }, "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("card") && $0.hasSuffix("(absent)") } ||
                show.outputLines.contains { $0.hasPrefix("card") && $0.hasSuffix("\"\"") }, "\(show)")
        // And the secure value appears in no other output either.
        #expect(!withoutTimesAndHashes(try sandbox.run("entries", "list").stdout).contains("987"))
        #expect(!withoutTimesAndHashes(try sandbox.run("--format", "json", "audit").stdout).contains("987"))
    }

    @Test(arguments: TestBackend.all) func jsonLinesNumbersBooleansAndNull(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("more.jsonl", """
            {"name":"Cy","email":"cy@example.com","age":42,"card":null,"cvv":"321","vip":true}
            {"name":"Di","age":3.5,"vip":false}

            """)
        let result = try sandbox.run("import", "--form", "signup", "more.jsonl")
        #expect(result.status == 0, "\(result)")
        let entries = try sandbox.entries()
        #expect(entries.count == 2)
        let cyID = try #require(entries.first?["id"] as? Int)
        let cy = try #require(try sandbox.entry(cyID)["values"] as? [String: Any])
        #expect(cy["age"] as? String == "42")
        #expect(cy["vip"] as? String == "true", "a column the form does not declare is kept")
        #expect(cy["card"] is NSNull, "null is absent")
        #expect(cy["cvv"] as? String == "•••")
        let diID = try #require(entries.last?["id"] as? Int)
        let di = try #require(try sandbox.entry(diID)["values"] as? [String: Any])
        #expect(di["age"] as? String == "3.5")
        #expect(di["vip"] as? String == "false")
        #expect(di["email"] is NSNull)

        // From standard input, with --input.
        let piped = try sandbox.run(["import", "--form", "signup", "-", "--input", "jsonl"],
                                    stdin: #"{"name":"Ed","email":"ed@example.com"}"# + "\n")
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdout == "Imported 1 record into signup: 1 added.\n", "\(piped)")
        #expect(try sandbox.entries().count == 3)
        let noFormat = try sandbox.run("import", "--form", "signup", "-")
        #expect(noFormat.status == 2 && noFormat.stderr.contains("--input"), "\(noFormat)")
        let noForm = try sandbox.run("import", "more.jsonl")
        #expect(noForm.status == 2 && noForm.stderr.contains("--form"), "\(noForm)")
        let unknownForm = try sandbox.run("import", "--form", "sign-up", "more.jsonl")
        #expect(unknownForm.status == 2 && unknownForm.stderr.contains("unknown form 'sign-up'"), "\(unknownForm)")
    }

    @Test(arguments: TestBackend.all) func aMalformedLineStopsTheImportAndWritesNothing(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.mustRun("import", "--form", "signup", "-", "--input", "csv", stdin: "name,email\nZed,z@example.com\n")
        let auditBefore = try sandbox.auditRecords().count

        try sandbox.write("bad.csv", "name,email\nGus,g@example.com\nHal,h@example.com,extra\nIvy,i@example.com\nJo\n")
        let csv = try sandbox.run("import", "--form", "signup", "bad.csv")
        #expect(csv.status == 2, "\(csv)")
        #expect(csv.errorLines.first?.hasPrefix("formulary: error: bad.csv:3:") == true, "\(csv)")
        #expect(csv.stderr.contains("nothing was imported"), "\(csv)")
        #expect(try sandbox.entries().count == 1, "Gus, on the line before the bad one, must not be written either")

        try sandbox.write("bad.jsonl", "{\"name\":\"Ed\"}\n{\"name\": broken\n{\"name\":\"Flo\"}\n")
        let jsonl = try sandbox.run("import", "--form", "signup", "bad.jsonl")
        #expect(jsonl.status == 2, "\(jsonl)")
        #expect(jsonl.errorLines.first?.hasPrefix("formulary: error: bad.jsonl:2:") == true, "\(jsonl)")

        try sandbox.write("unbalanced.csv", "name,email\n\"Hal,h@example.com\nIvy,i@example.com\n")
        let quote = try sandbox.run("import", "--form", "signup", "unbalanced.csv")
        #expect(quote.status == 2, "\(quote)")
        #expect(quote.stderr.contains("unbalanced.csv:2"), "\(quote)")

        try sandbox.write("latin1.csv", bytes: Array("name,email\nJos".utf8) + [0xE9] + Array(",j@example.com\n".utf8))
        let encoding = try sandbox.run("import", "--form", "signup", "latin1.csv")
        #expect(encoding.status == 2, "\(encoding)")
        #expect(encoding.stderr.contains("latin1.csv:2") && encoding.stderr.contains("UTF-8"), "\(encoding)")

        #expect(try sandbox.entries().count == 1, "a failed import wrote entries")
        #expect(try sandbox.auditRecords().count == auditBefore, "a failed import was audited")

        // --skip-bad imports the good lines and lists each bad one.
        let skipped = try sandbox.run("import", "--form", "signup", "--skip-bad", "bad.csv")
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stdout == "Imported 2 records into signup: 2 added, 2 skipped.\n", "\(skipped)")
        let warnings = skipped.errorLines.filter { $0.hasPrefix("formulary: warning: bad.csv:") }
        #expect(warnings.count == 2, "\(skipped)")
        #expect(warnings.first?.hasPrefix("formulary: warning: bad.csv:3:") == true, "\(skipped)")
        #expect(warnings.last?.hasPrefix("formulary: warning: bad.csv:5:") == true, "\(skipped)")
        #expect(try sandbox.entries().count == 3)
        let json = try sandbox.run("--format", "json", "import", "--form", "signup", "--skip-bad", "bad.jsonl")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((summary["skipped"] as? [[String: Any]])?.map { $0["line"] as? Int } == [2], "\(json)")
        #expect(summary["added"] as? Int == 2)
    }

    @Test(arguments: TestBackend.all) func keyUpdatesAnEntryAndKeepsItsHistory(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("first.csv", "name,email,age\nKim,kim@example.com,30\nLee,lee@example.com,40\n")
        try sandbox.write("second.csv", "name,email,age\nKim,kim@example.com,31\nLee,lee@example.com,40\nMo,mo@example.com,50\n")
        let first = try sandbox.run("import", "--form", "signup", "--key", "email", "first.csv")
        #expect(first.stdout == "Imported 2 records into signup: 2 added, 0 updated, 0 unchanged.\n", "\(first)")
        let second = try sandbox.run("import", "--form", "signup", "--key", "email", "second.csv")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout == "Imported 3 records into signup: 1 added, 1 updated, 1 unchanged.\n", "\(second)")

        let entries = try sandbox.entries()
        #expect(entries.count == 3, "no duplicates")
        let kimID = try #require(entries.first { $0["key"] as? String == "kim@example.com" }?["id"] as? Int)
        let kim = try sandbox.entry(kimID)
        #expect(kim["version"] as? Int == 2)
        #expect((kim["values"] as? [String: Any])?["age"] as? String == "31")
        let lee = try sandbox.entry(try #require(entries.first { $0["key"] as? String == "lee@example.com" }?["id"] as? Int))
        #expect(lee["version"] as? Int == 1, "an identical record changes nothing")
        let text = try sandbox.run("entries", "show", String(kimID))
        #expect(text.outputLines.contains { $0.hasPrefix("key") && $0.hasSuffix("kim@example.com") }, "\(text)")
        #expect(text.outputLines.contains { $0.hasPrefix("changed") && $0.hasSuffix("(version 2)") }, "\(text)")

        // The previous values stay in the database.
        let kept = try sandbox.query("SELECT count(*) FROM entry_versions WHERE entry_id = \(kimID)")
        #expect(kept == [["1"]], "the version before the update is kept")

        // A record without the key is refused, and nothing of that file is written.
        try sandbox.write("nokey.csv", "name,email,age\nNed,ned@example.com,20\nOz,,22\n")
        let noKey = try sandbox.run("import", "--form", "signup", "--key", "email", "nokey.csv")
        #expect(noKey.status == 2, "\(noKey)")
        #expect(noKey.stderr.contains("nokey.csv:3"), "\(noKey)")
        #expect(try sandbox.entries().count == 3)
    }

    @Test(arguments: TestBackend.all) func entriesListFiltersByForm(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("contact.form", "form contact\nfield email email required\n")
        try sandbox.mustRun("forms", "add", "contact.form")
        try sandbox.mustRun("import", "--form", "signup", "-", "--input", "csv", stdin: "name,email\nA,a@example.com\nB,b@example.com\n")
        try sandbox.mustRun("import", "--form", "contact", "-", "--input", "csv", stdin: "email\nc@example.com\n")
        let all = try sandbox.run("entries", "list")
        #expect(all.status == 0, "\(all)")
        #expect(all.outputLines.first?.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["ID", "FORM", "KEY"])
        #expect(all.outputLines.count == 4, "\(all)")
        #expect(all.outputLines.dropFirst().allSatisfy { $0.hasSuffix("not validated") }, "\(all)")
        let contact = try sandbox.run("entries", "list", "--form", "contact")
        #expect(contact.outputLines.count == 2 && contact.outputLines[1].contains(" contact "), "\(contact)")
        let limited = try sandbox.run("--format", "json", "entries", "list", "--limit", "1")
        #expect((try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [Any])?.count == 1, "\(limited)")
        let badLimit = try sandbox.run("entries", "list", "--limit", "many")
        #expect(badLimit.status == 2, "\(badLimit)")
        let badID = try sandbox.run("entries", "show", "x")
        #expect(badID.status == 2, "\(badID)")
        let noSuch = try sandbox.run("entries", "show", "999")
        #expect(noSuch.status == 2 && noSuch.stderr.contains("999"), "\(noSuch)")
    }

    /// `entries list` stops at --limit (1000 by default) and says so on standard error, in
    /// both formats; standard output keeps its shape (a table, a JSON array).
    @Test(arguments: TestBackend.all) func entriesListSaysWhenItStopsAtItsLimit(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        var csv = "name,email,age\n"
        for i in 0..<1_205 { csv += "P\(TerminalTests.letters(i)),p\(i)@example.com,\(i % 3 == 0 ? "12" : "40")\n" }
        try sandbox.write("many.csv", csv)
        try sandbox.mustRun("import", "--form", "signup", "many.csv")

        let byDefault = try sandbox.run("entries", "list")
        #expect(byDefault.outputLines.count == 1_001, "a header and 1,000 entries")
        #expect(byDefault.stderr == "1,000 of 1,205 entries shown; use --limit N to see more, --limit 0 for all.\n",
                "\(byDefault.stderr)")
        let two = try sandbox.run("--format", "json", "entries", "list", "--limit", "2")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(two.stderr == "2 of 1,205 entries shown; use --limit N to see more, --limit 0 for all.\n", "\(two)")
        for arguments in [["entries", "list", "--limit", "0"], ["entries", "list", "--limit", "1205"],
                          ["entries", "list", "--limit", "5000"]] {
            let all = try sandbox.run(arguments)
            #expect(all.outputLines.count == 1_206 && all.stderr.isEmpty, "\(arguments): \(all.stderr)")
        }
        _ = try sandbox.run("validate")
        let failing = try sandbox.run("entries", "list", "--failing", "--limit", "3")
        #expect(failing.outputLines.count == 4, "\(failing)")
        #expect(failing.stderr == "3 of 402 failing entries shown; use --limit N to see more, --limit 0 for all.\n",
                "\(failing.stderr)")
        let form = try sandbox.run("entries", "list", "--form", "signup", "--limit", "1204")
        #expect(form.stderr == "1,204 of 1,205 entries of form signup shown; use --limit N to see more, --limit 0 for all.\n",
                "\(form.stderr)")
    }

    /// A column the form does not declare is named, with the field it is a typo of, and
    /// stored all the same; a required field no column holds is named too.
    @Test(arguments: TestBackend.all) func unknownColumnsAndMissingRequiredFieldsAreNamed(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()   // name and email required; age, card, cvv
        try sandbox.write("typo.csv", "name,mail,agee,nickname\nAda,ada@example.com,36,Countess\n")
        let result = try sandbox.run("import", "--form", "signup", "typo.csv")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Imported 1 record into signup: 1 added.\n", "\(result)")
        #expect(result.errorLines == [
            "formulary: warning: typo.csv: column 'mail' is not a field of form signup; did you mean 'email'? (stored as it is; 'validate' reports it as unknown-field)",
            "formulary: warning: typo.csv: column 'agee' is not a field of form signup; did you mean 'age'? (stored as it is; 'validate' reports it as unknown-field)",
            "formulary: warning: typo.csv: column 'nickname' is not a field of form signup (stored as it is; 'validate' reports it as unknown-field)",
            "formulary: warning: typo.csv: no column holds the required field 'email' of form signup; 'validate' will find it missing in every entry",
        ], "\(result)")
        let values = try #require(try sandbox.entry(1)["values"] as? [String: Any])
        #expect(values["mail"] as? String == "ada@example.com", "the unknown column is stored")

        // JSON Lines: the keys of all the records together; the JSON summary lists them too.
        let jsonl = "{\"name\":\"Bo\",\"Email\":\"bo@example.com\"}\n{\"name\":\"Cy\",\"phone\":\"555\"}\n"
        let json = try sandbox.run(["--format", "json", "import", "--form", "signup", "-", "--input", "jsonl"], stdin: jsonl)
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout == #"{"form":"signup","records":2,"added":2,"updated":0,"unchanged":0,"skipped":[],"unknown_columns":[{"column":"Email","did_you_mean":"email"},{"column":"phone","did_you_mean":null}],"missing_required":["email"]}"# + "\n",
                "\(json)")
        #expect(json.errorLines.count == 3 && json.errorLines.allSatisfy { $0.hasPrefix("formulary: warning: -: key '") || $0.hasPrefix("formulary: warning: -: no key holds") },
                "\(json)")
        // A required key present in one record only is not missing from the file.
        let some = try sandbox.run(["import", "--form", "signup", "-", "--input", "jsonl"],
                                   stdin: "{\"name\":\"Di\"}\n{\"name\":\"Ed\",\"email\":\"ed@example.com\"}\n")
        #expect(some.status == 0 && some.stderr.isEmpty, "\(some)")
    }

    /// A file none of whose columns is a field of the form is the wrong file (or the wrong
    /// --form): refused, with the typos it may hold, and nothing is stored.
    @Test(arguments: TestBackend.all) func aFileWithNoneOfTheFormsFieldsIsRefused(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let before = try sandbox.databaseFingerprint()
        let cases: [(file: String, content: String, message: String)] = [
            ("other.csv", "sku,price\nA1,9.99\n",
             "other.csv: none of its columns (sku, price) is a field of form signup, whose fields are name, email, age, card, cvv"),
            ("header-only.csv", "nme,mail\n",
             "header-only.csv: none of its columns (nme, mail) is a field of form signup, whose fields are name, email, age, card, cvv (did you mean 'name' for 'nme', 'email' for 'mail'?)"),
            ("other.jsonl", "{\"nme\":\"Ada\"}\n{\"sku\":\"A1\"}\n",
             "other.jsonl: none of its keys (nme, sku) is a field of form signup, whose fields are name, email, age, card, cvv (did you mean 'name' for 'nme'?)"),
        ]
        for item in cases {
            try sandbox.write(item.file, item.content)
            // (With --key, JSON Lines stops earlier, at the first record without the key.)
            for extra in [[], ["--skip-bad"]] + (item.file.hasSuffix(".csv") ? [["--key", "sku"]] : []) {
                let result = try sandbox.run(["import", "--form", "signup", item.file] + extra)
                #expect(result.status == 2, "\(result)")
                #expect(result.errorLines == ["formulary: error: \(item.message); nothing was imported. Check that the file and --form signup go together"],
                        "\(result)")
            }
        }
        #expect(try sandbox.databaseFingerprint() == before, "a refused import wrote something")
    }

    /// Standard input has no name to tell its format by: the message says so.
    @Test(arguments: TestBackend.all) func standardInputNeedsInput(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let result = try sandbox.run(["import", "--form", "signup", "-"], stdin: "name,email\nAda,ada@example.com\n")
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first == "formulary: error: standard input has no file name to tell its format by; "
                + "add --input csv or --input jsonl", "\(result)")
    }
}
