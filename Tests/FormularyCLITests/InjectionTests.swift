import Foundation
import Testing

/// SQL-looking (and otherwise hostile) text in every argument and value a user controls —
/// type and form names, key columns and key values, field values, `--actor`, entry ids,
/// `--since`, `--run` — is data: the schema and every existing row stay as they were, the
/// text is stored verbatim where it is stored at all, and the audit chain stays valid.
/// Plugin lookups cannot leave their folder. (`AuditCommandTests` has the first,
/// single-string version of this.)
@Suite struct InjectionTests {
    /// Strings that break naive SQL quoting, LIKE patterns, shells or terminals.
    static let corpus: [String] = [
        "'; DROP TABLE entries; --",
        "\" OR 1=1 --",
        "') ; DELETE FROM audit_log; --",
        "1; UPDATE forms SET name = 'x'",
        "x' UNION SELECT source FROM type_versions --",
        "Robert'); DROP TABLE runs;--",
        "%", "_", "%_%", "*", "[a-z]", "\\", "\\'", "''",
        "’; DROP TABLE forms; --",            // typographic quote
        "＇ OR ＇1＇=＇1",                    // full-width quotes
        "\u{202E}txt.exe; --",                // right-to-left override
        "$(touch pwned) `touch pwned`",
        "NULL",
        "-1",
        String(repeating: "'", count: 3_000),
        String(repeating: "x", count: 60_000) + "'); DROP TABLE entries; --",
    ]

    /// File values can also carry what a command line cannot: NUL and other controls.
    static let valueCorpus: [String] = corpus + ["a\u{0}'; DROP TABLE entries; --", "\u{0}", "\u{7}\u{1B}[2J", "line\nbreak'"]

    /// A database with a form, a database type, two imports and a run: something to lose.
    static func populated(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("base.csv", "name,email,age\nAda,ada@example.com,36\nBob,bob@example.com,17\n")
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "base.csv")
        _ = try sandbox.run("validate")
        return sandbox
    }

    static func csvField(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Commands that only read, or that must refuse the hostile argument: before and after,
    /// the database is identical, and nothing crashes (status 0, 1 or 2, never a signal or 3).
    @Test(arguments: TestBackend.all) func hostileArgumentsToReadingCommandsChangeNothing(_ backend: TestBackend) throws {
        let sandbox = try Self.populated(backend)
        let before = try sandbox.databaseFingerprint()
        for evil in Self.corpus {
            let refused: [[String]] = [
                ["check", evil, "x"], ["format", evil, "x"], ["check", "name", "--", evil],
                ["types", "show", evil], ["types", "history", evil], ["types", "retire", evil], ["types", "test", evil],
                ["forms", "show", evil],
                ["entries", "show", evil], ["history", evil],
                ["report", "--run", evil], ["report", "--by", evil],
                ["audit", "--since", evil],
                ["import", "--form", evil, "base.csv"],
                ["validate", "--form", evil],
            ]
            for arguments in refused {
                let result = try sandbox.run(arguments)
                // `check name -- VALUE` judges the value: 0 or 1. Everything else is refused.
                let allowed: Set<Int32> = arguments.first == "check" && arguments[1] == "name" ? [0, 1] : [2]
                #expect(allowed.contains(result.status), "\(result)")
                #expect(result.stderr.isEmpty || result.stderr.hasPrefix("formulary: "), "\(result)")
            }
            // Filters find nothing (no LIKE wildcards, no SQL), and that is not an error.
            let byForm = try sandbox.run("--format", "json", "entries", "list", "--form", evil)
            #expect(byForm.status == 0 && byForm.stdout == "[]\n", "\(byForm)")
            let byActor = try sandbox.run("--format", "json", "audit", "--actor", evil)
            #expect(byActor.status == 0 && byActor.stdout == "[]\n", "\(byActor)")
            let reportByForm = try sandbox.run("report", "--form", evil)
            #expect(reportByForm.status == 2 || reportByForm.status == 0, "\(reportByForm)")
        }
        let after = try sandbox.databaseFingerprint()
        #expect(after == before, "a refused or read-only command changed the database")
        #expect(try sandbox.run("audit", "verify").status == 0)
    }

    /// Writing commands store hostile text verbatim and touch nothing else: every earlier row
    /// of every table is still there, byte for byte, the schema is unchanged, and the audit
    /// chain verifies. (PostgreSQL's text cannot hold NUL: there a key with one is refused as
    /// bad input, nothing written, and the keys carry `\0` instead; values keep their NULs.)
    @Test(arguments: TestBackend.all) func hostileValuesKeysAndActorsAreStoredVerbatim(_ backend: TestBackend) throws {
        let sandbox = try Self.populated(backend)
        let before = try sandbox.rowSnapshot()
        let entriesBefore = try sandbox.entries().count
        func key(_ prefix: String, _ evil: String) -> String {
            prefix + (backend == .postgres ? evil.replacingOccurrences(of: "\u{0}", with: "\\0") : evil)
        }
        if backend == .postgres {
            try sandbox.write("nul-key.csv", "email,name\nok@example.com,Ok\n\"a\u{0}b\",Nul\n")
            let refused = try sandbox.run("import", "--form", "signup", "--key", "email", "nul-key.csv")
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.errorLines.first?.hasPrefix("formulary: error: a text value to store (an entry's key, a name) "
                                                        + "holds a NUL character, which a PostgreSQL database cannot store; "
                                                        + "nothing was written.") == true, "\(refused)")
            #expect(try sandbox.entries().count == entriesBefore)
        }

        // CSV: each hostile string as the key, the name and the age of one record, imported
        // under a hostile actor.
        var csv = "email,name,age\n"
        for (i, evil) in Self.valueCorpus.enumerated() {
            csv += "\(Self.csvField(key("\(i)|", evil))),\(Self.csvField(evil)),\(Self.csvField(evil))\n"
        }
        try sandbox.write("evil.csv", csv)
        for (i, actor) in Self.corpus.prefix(8).enumerated() {
            // The first import adds the records; the later ones (same keys) change nothing.
            let result = try sandbox.run("--actor", actor, "import", "--form", "signup", "--key", "email", "evil.csv")
            #expect(result.status == 0, "\(result)")
            if i == 0 {
                #expect(result.stdout.contains("\(Self.valueCorpus.count) added"), "\(result)")
            }
        }
        // JSON Lines: the hostile strings as values of a key column whose name is hostile too.
        var jsonl = ""
        for (i, evil) in Self.valueCorpus.enumerated() {
            let object: [String: String] = ["k'; DROP TABLE entries; --": key("j\(i)|", evil), "name": evil]
            jsonl += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try sandbox.write("evil.jsonl", jsonl)
        let keyed = try sandbox.run(["import", "--form", "signup", "--key", "k'; DROP TABLE entries; --", "evil.jsonl"],
                                    environment: ["FORMULARY_ACTOR": "\" OR 1=1 --"])
        #expect(keyed.status == 0, "\(keyed)")
        let run = try sandbox.run("--actor", "') ; DELETE FROM audit_log; --", "validate")
        #expect(run.status == 1, "hostile ages are invalid: \(run)")

        let after = try sandbox.rowSnapshot()
        #expect(after.schema == before.schema, "the schema changed")
        for table in before.tables.keys.sorted() where table != "audit_head" {
            let lost = before.tables[table, default: []].subtracting(after.tables[table, default: []])
            #expect(lost.isEmpty, "\(table) lost or changed \(lost.count) rows")
        }

        // Stored verbatim: each entry's key and values are exactly what the file said.
        let entries = try sandbox.entries()
        #expect(entries.count == entriesBefore + 2 * Self.valueCorpus.count)
        let byKey = Dictionary(entries.compactMap { e in (e["key"] as? String).map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        for (i, evil) in Self.valueCorpus.enumerated() {
            let id = try #require(byKey[key("\(i)|", evil)]?["id"] as? Int, "no entry keyed \(i)")
            let values = try #require(try sandbox.entry(id)["values"] as? [String: Any])
            #expect(values["name"] as? String == evil, "entry \(id)")
            #expect(values["age"] as? String == evil, "entry \(id)")
            #expect(byKey[key("j\(i)|", evil)] != nil, "no entry keyed j\(i)")
        }
        let records = try sandbox.auditRecords()
        #expect(Set(records.compactMap { $0["actor"] as? String }).isSuperset(of: Self.corpus.prefix(1)))
        #expect(records.last?["actor"] as? String == "') ; DELETE FROM audit_log; --")
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
    }

    /// Keys, actors and column names (a CSV header, a JSON Lines key) come from files and
    /// the environment: in text output their control and format characters (a terminal
    /// escape sequence, a bell, a right-to-left override) are shown escaped, never sent to
    /// the terminal, on standard output or error; JSON keeps the exact text.
    @Test func controlCharactersNeverReachTheTerminalRaw() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let key = "k\u{1B}[31mey\u{202E}"
        let header = "h\u{1B}[2Jd\u{202E}r"
        try sandbox.write("esc.csv", "name,email,\"\(header)\"\n\"A\u{1B}[2Jx\",\"\(key)\",v\n")
        try sandbox.write("esc.jsonl", "{\"name\":\"B\",\"email\":\"b@example.com\",\"j\\u001B[5m\\u202E\":\"w\"}\n")
        try sandbox.mustRun("--actor", "ev\u{1B}]0;pwned\u{7}il", "import", "--form", "signup", "--key", "email", "esc.csv")
        try sandbox.mustRun("import", "--form", "signup", "esc.jsonl")
        let validated = try sandbox.run("validate")
        let ids = try sandbox.entries().compactMap { $0["id"] as? Int }.map(String.init)
        #expect(ids.count == 2)
        let hidden: Set<Unicode.Scalar> = ["\u{1B}", "\u{7}", "\u{202E}"]
        var outputs = [validated]
        for arguments in [["entries", "list"], ["audit"], ["report", "--by", "entry"], ["report", "--by", "field"],
                          ["report", "--by", "rule"], ["report", "--by", "type"],
                          // A key column the file lacks: the error lists the file's columns.
                          ["import", "--form", "signup", "--key", "nope", "esc.csv"]] {
            outputs.append(try sandbox.run(arguments))
        }
        for id in ids {
            outputs.append(try sandbox.run("entries", "show", id))
            outputs.append(try sandbox.run("history", id))
        }
        for result in outputs {
            #expect(result.status < 3, "\(result)")
            #expect(!result.stdout.unicodeScalars.contains(where: hidden.contains), "\(result)")
            #expect(!result.stderr.unicodeScalars.contains(where: hidden.contains), "\(result)")
        }
        let list = try sandbox.run("entries", "list")
        #expect(list.stdout.contains("k\\u{1B}[31mey\\u{202E}"), "\(list)")
        #expect(try sandbox.run("audit").stdout.contains("ev\\u{1B}]0;pwned\\u{7}il"))
        let shown = try sandbox.run("entries", "show", ids[0])
        #expect(shown.stdout.contains("h\\u{1B}[2Jd\\u{202E}r"), "the header is shown, escaped: \(shown)")
        let history = try sandbox.run("history", ids[1])
        #expect(history.stdout.contains("j\\u{1B}[5m\\u{202E}"), "the unknown column is named, escaped: \(history)")
        #expect(try sandbox.entries().first?["key"] as? String == key)
        let values = try #require(try sandbox.entry(Int(ids[0])!)["values"] as? [String: Any])
        #expect(values[header] as? String == "v", "JSON keeps the exact column name: \(values)")
    }

    /// A type name is a name, never a path: `check ../x` does not load `../x.field`, and
    /// `types add` stores a type under the name it declares, whatever its file is called.
    @Test func typeNamesCannotReachOutsideThePluginFolder() throws {
        let sandbox = try Sandbox()
        try sandbox.write("outside/secret.field", "field secret\nlength 1...3\naccept \"ab\"\n")
        try sandbox.write("p/own.field", "field own\nlength 1...3\naccept \"ab\"\n")
        for name in ["../outside/secret", "../secret", "outside/secret", "/\(sandbox.path("outside/secret"))",
                     "p/../outside/secret", "secret.field", "../outside/secret.field"] {
            for arguments in [["check", name, "ab"], ["types", "show", name], ["format", name, "ab"]] {
                let result = try sandbox.run(["--plugins", "p"] + arguments)
                #expect(result.status == 2, "\(result)")
                #expect(!result.stdout.contains("secret") || arguments[0] == "types", "\(result)")
            }
        }
        let list = try sandbox.run("--plugins", "p", "--format", "json", "types", "list")
        #expect(list.status == 0 && list.stdout.contains("\"own\"") && !list.stdout.contains("secret"), "\(list)")

        // A declared name that is a path is a syntax error, not a file lookup.
        try sandbox.write("bad/evil.field", "field ../outside/secret\nlength 1...3\n")
        let lint = try sandbox.run("types", "lint", "bad/evil.field")
        #expect(lint.status == 2, "\(lint)")

        try sandbox.initDatabase()
        try sandbox.write("deep/er/x'; DROP TABLE type_versions; --.field", "field tidy\nlength 1...3\naccept \"ab\"\n")
        let added = try sandbox.run("types", "add", "deep/er/../er/x'; DROP TABLE type_versions; --.field")
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.hasPrefix("tidy: added"), "\(added)")
        let names = try sandbox.run("--format", "json", "types", "list")
        let types = try #require(try JSONSerialization.jsonObject(with: Data(names.stdout.utf8)) as? [[String: Any]])
        #expect(types.filter { $0["source"] as? String == "database" }.compactMap { $0["name"] as? String } == ["tidy"])
        #expect(try sandbox.run("check", "tidy", "ab").status == 0)
        #expect(try sandbox.run("check", "x", "ab").status == 2)
        let sql = try SQLiteShell(path: sandbox.databasePath)
        #expect(try sql.scalar("SELECT group_concat(name) FROM type_versions WHERE origin = 'database'") == "tidy")
    }

    /// Symbolic links: a file linked out of the folder, a chain of links that ends outside,
    /// a linked sub-folder and a dangling link. Only the first three could smuggle a type
    /// in; all are refused or ignored, with the folder's own types still usable where the
    /// bad file is ignored.
    @Test func symbolicLinksCannotSmuggleTypesIn() throws {
        let fm = FileManager.default
        let sandbox = try Sandbox()
        try sandbox.write("outside/secret.field", "field secret\nlength 1...3\naccept \"ab\"\n")
        try sandbox.write("p/own.field", "field own\nlength 1...3\naccept \"ab\"\n")
        // A chain: p/a.field → p/b.field → outside/secret.field.
        try fm.createSymbolicLink(atPath: sandbox.path("p/b.field"), withDestinationPath: "../outside/secret.field")
        try fm.createSymbolicLink(atPath: sandbox.path("p/a.field"), withDestinationPath: "b.field")
        let chain = try sandbox.run("--plugins", "p", "check", "secret", "ab")
        #expect(chain.status == 2 && chain.stderr.contains("symbolic link"), "\(chain)")
        try fm.removeItem(atPath: sandbox.path("p/a.field"))
        try fm.removeItem(atPath: sandbox.path("p/b.field"))

        // A linked folder is not searched (plugin folders are flat), even when named *.field.
        try fm.createSymbolicLink(atPath: sandbox.path("p/sub"), withDestinationPath: "../outside")
        try fm.createSymbolicLink(atPath: sandbox.path("p/dir.field"), withDestinationPath: "../outside")
        let folder = try sandbox.run("--plugins", "p", "check", "secret", "ab")
        #expect(folder.status == 2, "\(folder)")
        #expect(try sandbox.run("--plugins", "p", "check", "own", "ab").status == 0 || folder.stderr.contains("symbolic link"))
        try fm.removeItem(atPath: sandbox.path("p/sub"))
        try fm.removeItem(atPath: sandbox.path("p/dir.field"))

        // A dangling link is an error that names the file, not a crash.
        try fm.createSymbolicLink(atPath: sandbox.path("p/gone.field"), withDestinationPath: "nowhere.field")
        let dangling = try sandbox.run("--plugins", "p", "check", "own", "ab")
        #expect(dangling.status == 2, "\(dangling)")
        #expect(dangling.stderr.contains("p/gone.field"), "\(dangling)")
    }
}
