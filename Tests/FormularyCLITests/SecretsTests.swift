import Foundation
import Testing

/// Values of `secure` fields reach the database's stored entry values and nothing else: no
/// output of any command (standard output or error, in every format), no report file, no
/// audit record, no run result, no history. The secrets are markers no other text
/// contains, so a leak anywhere is found by a plain search.
@Suite struct SecretsTests {
    /// A custom secure type whose messages quote `{value}`, so a failing value is the first
    /// thing a careless renderer would print.
    static let secretCode = """
        field secret-code
        label "Secret code"
        secure
        normalize strip-spaces
        pattern /[A-Z]+-[A-Z]+-[0-9]+/ as shape message "{value} is not a code"
        length 1...10 message "{value} is too long"
        accept "AB-CD-1"
        reject "ab" shape

        """

    static let paymentForm = """
        form payment
        label "Payment"
        field holder name          required
        field card   credit-card
        field cvv    cvv
        field code   secret-code   required
        field backup secret-code

        """

    /// The secure values: a cvv of 4 digits (invalid, so it is in every failure list) and
    /// codes that are too long (their messages use `{value}`).
    static let cvvMarker = "7319"
    static let codeMarker = "SECRET-MARKER-4"

    /// Where a marker occurs in `text`. Runs of 12 or more hex digits (hashes and version
    /// prefixes) are removed first: "7319" may well occur inside a SHA-256; and so are the
    /// export's automata (objects of number arrays, no braces inside), whose scalar values
    /// reach 1114111: "7319" occurs inside 57319.
    static func leaks(in text: String) -> [String] {
        let cleaned = text.replacingOccurrences(of: "[0-9a-f]{12,}", with: "#", options: .regularExpression)
            .replacingOccurrences(of: #""automaton":\{[^{}]*\}"#, with: "#", options: .regularExpression)
        return [cvvMarker, codeMarker].filter { cleaned.contains($0) }
    }

    /// A database with the payment form and entries whose secure values are the markers:
    /// a keyed CSV import whose key is the secure `code`, a keyed update (so an earlier
    /// version holds a marker too), a JSON Lines import with the cvv as a number, and two
    /// validation runs.
    static func populated(_ backend: TestBackend) throws -> (Sandbox, [ProcessResult]) {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("secret-code.field", secretCode)
        try sandbox.write("payment.form", paymentForm)
        var outputs: [ProcessResult] = []
        outputs.append(try sandbox.mustRun("types", "add", "secret-code.field"))
        outputs.append(try sandbox.mustRun("forms", "add", "payment.form"))
        try sandbox.write("first.csv", """
            holder,card,cvv,code,backup
            Ada,4111111111111111,\(cvvMarker),\(codeMarker)1,\(codeMarker)51
            Bob,4111111111111112,\(cvvMarker),\(codeMarker)2,
            Cy,4111111111111111,123,AB-CD-1,\(codeMarker)53

            """)
        outputs.append(try sandbox.mustRun("import", "--form", "payment", "--key", "code", "first.csv"))
        outputs.append(try sandbox.run("validate"))
        try sandbox.write("update.csv", "holder,cvv,code\nBob,\(cvvMarker)0,\(codeMarker)2\n")
        outputs.append(try sandbox.mustRun("import", "--form", "payment", "--key", "code", "update.csv"))
        try sandbox.write("more.jsonl", """
            {"holder":"Dee","cvv":\(cvvMarker),"code":"\(codeMarker)4"}

            """)
        outputs.append(try sandbox.mustRun("--format", "json", "import", "--form", "payment", "more.jsonl"))
        // Bad lines that hold secrets: the messages name the line, never quote it.
        try sandbox.write("bad.csv", "holder,cvv,code\nEd,\(cvvMarker),\(codeMarker)5,extra\nFay,\(cvvMarker),\"\(codeMarker)6\n")
        outputs.append(try sandbox.run("import", "--form", "payment", "bad.csv"))
        outputs.append(try sandbox.run("import", "--form", "payment", "--skip-bad", "bad.csv"))
        try sandbox.write("bad.jsonl", "{\"code\":\"\(codeMarker)7\",\"cvv\":\(cvvMarker) x}\n{\"code\":[\"\(codeMarker)8\"]}\n")
        outputs.append(try sandbox.run("import", "--form", "payment", "--skip-bad", "bad.jsonl"))
        outputs.append(try sandbox.run("--format", "json", "validate"))
        return (sandbox, outputs)
    }

    @Test(arguments: TestBackend.all) func noOutputReportHistoryOrAuditRecordShowsASecureValue(_ backend: TestBackend) throws {
        let (sandbox, setup) = try Self.populated(backend)
        #expect(setup[3].status == 1, "the markers make entries invalid: \(setup[3])")
        var outputs = setup
        let ids = try sandbox.entries().compactMap { $0["id"] as? Int }
        #expect(ids.count == 4, "three CSV records and one JSON line")

        for format in ["text", "json"] {
            outputs.append(try sandbox.run("--format", format, "entries", "list"))
            outputs.append(try sandbox.run("--format", format, "entries", "list", "--failing"))
            outputs.append(try sandbox.run("--format", format, "audit"))
            for id in ids {
                outputs.append(try sandbox.run("--format", format, "entries", "show", String(id)))
                outputs.append(try sandbox.run("--format", format, "history", String(id)))
            }
            outputs.append(try sandbox.run("--format", format, "check", "cvv", Self.cvvMarker, "\(Self.cvvMarker)0"))
            outputs.append(try sandbox.run("--format", format, "check", "--live", "cvv", Self.cvvMarker))
            outputs.append(try sandbox.run("--format", format, "check", "secret-code", "\(Self.codeMarker)1", "ab"))
            outputs.append(try sandbox.run("--format", format, "check", "--live", "secret-code", "\(Self.codeMarker)1"))
            outputs.append(try sandbox.run("--format", format, "format", "secret-code", "\(Self.codeMarker)1"))
            outputs.append(try sandbox.run("--format", format, "format", "cvv", Self.cvvMarker))
            outputs.append(try sandbox.run("--format", format, "check", "payment", "\(Self.codeMarker)1"))
            for command in [["types", "list"], ["types", "show", "secret-code"], ["types", "history", "secret-code"],
                            ["types", "test", "secret-code"], ["forms", "list"], ["forms", "show", "payment"],
                            ["audit", "verify"], ["migrate", "--status"]] {
                outputs.append(try sandbox.run(["--format", format] + command))
            }
        }
        for by in ["rule", "field", "type", "entry"] {
            for format in ["text", "json", "csv"] {
                outputs.append(try sandbox.run("--format", format, "report", "--by", by))
                outputs.append(try sandbox.run("--format", format, "report", "--by", by, "--run", "1"))
            }
            let html = try sandbox.run("--format", "html", "report", "--by", by, "--output", "report-\(by).html")
            #expect(html.status == 0, "\(html)")
            outputs.append(html)
            let page = try String(contentsOfFile: sandbox.path("report-\(by).html"), encoding: .utf8)
            #expect(page.contains("•••"), "a secure key or value is shown masked in the \(by) page")
            #expect(Self.leaks(in: page).isEmpty, "the HTML report by \(by) shows \(Self.leaks(in: page))")
        }
        outputs.append(try sandbox.run("export"))

        for output in outputs {
            #expect(output.status != 3 && output.status < 128, "\(output)")
            #expect(Self.leaks(in: output.stdout).isEmpty, "stdout shows \(Self.leaks(in: output.stdout)): \(output)")
            #expect(Self.leaks(in: output.stderr).isEmpty, "stderr shows \(Self.leaks(in: output.stderr)): \(output)")
        }

        // The keyed entries' keys are secure values: listed, shown and reported as •••.
        let list = try sandbox.run("entries", "list")
        #expect(list.outputLines.filter { $0.contains("•••") }.count == 3, "\(list)")
        let masked = try sandbox.entries().filter { $0["key"] as? String == "•••" }
        #expect(masked.count == 3, "Ada, Bob and Cy were keyed by their secure code")
    }

    /// In the database the markers are in the entries' stored values (and keys, for entries
    /// keyed by a secure field) and nowhere else: not in run results or rules, not in the
    /// audit log, not in the imports, not in type or form versions.
    @Test(arguments: TestBackend.all) func theDatabaseHoldsSecretsOnlyInStoredEntryValues(_ backend: TestBackend) throws {
        let (sandbox, _) = try Self.populated(backend)
        let allowed: Set<String> = ["entries.vals", "entries.key", "entry_versions.vals"]
        for marker in [Self.cvvMarker, Self.codeMarker] {
            let found = try sandbox.occurrences(of: marker)
            #expect(found["entries.vals"] != nil, "\(marker) is not in the stored values at all: \(found)")
            for column in found.keys.sorted() where !allowed.contains(column) {
                // "7319" inside a hash or a version id is not a leak: look at the text itself.
                let parts = column.split(separator: ".").map(String.init)
                let texts = try sandbox.query("SELECT CAST(\(DatabaseSnapshot.identifier(parts[1])) AS TEXT) FROM \(DatabaseSnapshot.identifier(parts[0]))")
                let leaking = texts.compactMap { $0.first ?? nil }.filter { !Self.leaks(in: $0).isEmpty }
                #expect(leaking.isEmpty, "\(marker) is stored in \(column): \(leaking.prefix(3))")
            }
        }
        #expect(try sandbox.occurrences(of: Self.codeMarker)["entry_versions.vals"] != nil,
                "Bob's replaced version keeps its values (a keyed update)")
        #expect(try sandbox.query("SELECT count(*) FROM run_results") != [["0"]], "the runs recorded failures")
    }

    // MARK: A plugin folder cannot unmask

    /// A folder that redefines the built-in `cvv` without `secure`, with a message that
    /// quotes the value: what a careless (or hostile) plugin folder looks like.
    static let evilCVV = """
        field cvv
        label "CVV"
        normalize strip-spaces
        pattern /[0-9]{3}/ message "{value} is not a cvv"
        accept "123"

        """

    static let cardForm = """
        form card
        field holder name required
        field cvv    cvv

        """

    /// A database with the `card` form (stored, with the built-in secure cvv) and entries
    /// keyed by their cvv, whose values are markers.
    static func cardDatabase(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("card.form", cardForm)
        try sandbox.write("evil/cvv.field", evilCVV)
        try sandbox.mustRun("forms", "add", "card.form")
        try sandbox.write("cards.csv", "holder,cvv\nAda,\(cvvMarker)\nBob,\(cvvMarker)0\n")
        try sandbox.mustRun("import", "--form", "card", "--key", "cvv", "cards.csv")
        return sandbox
    }

    /// Every output command, run with the folder that drops `secure`.
    static func outputsWithEvilFolder(_ sandbox: Sandbox) throws -> [ProcessResult] {
        var outputs: [ProcessResult] = []
        let evil = ["--plugins", "evil"]
        for format in ["text", "json"] {
            let f = ["--format", format]
            outputs.append(try sandbox.run(f + evil + ["entries", "list"]))
            outputs.append(try sandbox.run(f + evil + ["entries", "list", "--failing"]))
            for id in ["1", "2"] {
                outputs.append(try sandbox.run(f + evil + ["entries", "show", id]))
                outputs.append(try sandbox.run(f + evil + ["history", id]))
            }
            outputs.append(try sandbox.run(f + evil + ["audit"]))
        }
        outputs.append(try sandbox.run(evil + ["export"]))
        return outputs
    }

    static func reports(_ sandbox: Sandbox, name: String) throws -> [ProcessResult] {
        var outputs: [ProcessResult] = []
        for by in ["rule", "field", "type", "entry"] {
            for format in ["text", "json", "csv"] {
                outputs.append(try sandbox.run("--plugins", "evil", "--format", format, "report", "--by", by))
                outputs.append(try sandbox.run("--plugins", "evil", "--format", format, "report", "--by", by, "--run", "1"))
            }
            let file = "\(name)-\(by).html"
            let html = try sandbox.run("--plugins", "evil", "--format", "html", "report", "--by", by, "--output", file)
            #expect(html.status == 0, "\(html)")
            outputs.append(html)
            let page = try String(contentsOfFile: sandbox.path(file), encoding: .utf8)
            #expect(leaks(in: page).isEmpty, "the HTML report by \(by) shows \(leaks(in: page))")
        }
        return outputs
    }

    static func expectNoLeaks(_ outputs: [ProcessResult]) {
        for output in outputs {
            #expect(output.status != 3 && output.status < 128, "\(output)")
            #expect(leaks(in: output.stdout).isEmpty, "stdout shows \(leaks(in: output.stdout)): \(output)")
            #expect(leaks(in: output.stderr).isEmpty, "stderr shows \(leaks(in: output.stderr)): \(output)")
        }
    }

    /// Entries validated with the built-in (secure) cvv, then every output with a folder
    /// whose `cvv` is not secure — a run with that folder included: the values, the keys
    /// that are values, and messages quoting the value all stay masked.
    @Test(arguments: TestBackend.all) func aFolderThatDropsSecureCannotUnmaskValidatedValues(_ backend: TestBackend) throws {
        let sandbox = try Self.cardDatabase(backend)
        #expect(try sandbox.run("validate").status == 1, "the 4- and 5-digit markers are invalid cvvs")
        let evilRun = try sandbox.run("--plugins", "evil", "validate")
        #expect(evilRun.status == 1, "\(evilRun)")
        var outputs = [evilRun]
        outputs += try Self.outputsWithEvilFolder(sandbox)
        outputs += try Self.reports(sandbox, name: "validated")
        Self.expectNoLeaks(outputs)
        let shown = try sandbox.run("--plugins", "evil", "entries", "show", "1")
        #expect(shown.stdout.contains("•••"), "\(shown)")
        // The folder's message was rendered with the value masked, and stored so.
        let history = try sandbox.run("--plugins", "evil", "--format", "json", "history", "1")
        #expect(history.stdout.contains("••• is not a cvv"), "\(history)")
        let found = try sandbox.occurrences(of: Self.cvvMarker)
        #expect(found["run_rules.message"] == nil, "\(found)")
    }

    /// Entries imported but never validated, shown with the folder that drops `secure`: the
    /// form the database registers resolves `cvv` to the built-in secure type.
    @Test(arguments: TestBackend.all) func aFolderThatDropsSecureCannotUnmaskUnvalidatedValues(_ backend: TestBackend) throws {
        let sandbox = try Self.cardDatabase(backend)
        let outputs = try Self.outputsWithEvilFolder(sandbox)
        Self.expectNoLeaks(outputs)
        let list = try sandbox.run("--plugins", "evil", "--format", "json", "entries", "list")
        #expect(list.stdout.components(separatedBy: "\"key\":\"•••\"").count == 3, "\(list)")
        // A form that only the folder defines, over the folder's cvv, is judged by the
        // folder alone: nothing in the database or the built-in types says its values are
        // secret — except the built-in `cvv` the type name resolves to without the folder.
        try sandbox.write("evil/tip.form", "form tip\nfield cvv cvv\n")
        try sandbox.write("tips.csv", "cvv\n\(Self.cvvMarker)\n")
        try sandbox.mustRun("--plugins", "evil", "import", "--form", "tip", "tips.csv")
        let tip = try sandbox.run("--plugins", "evil", "entries", "show", "3")
        #expect(tip.status == 0 && Self.leaks(in: tip.stdout).isEmpty, "\(tip)")
    }
}
