import Foundation
import Testing

/// An app that depends on this package and imports only `FormularyRules` builds (with
/// pkg-config knowing no system library at all), runs, and links no C library of this
/// package's — no PCRE2, SQLite or libcrypto: the contract of docs/library.md, checked the
/// way an app would meet it (a separate SwiftPM package with a path dependency on this one).
///
/// The consumer package and its build folder live under this repository's `.build`
/// (`consumer-package/`), so a second run builds incrementally; the first takes a minute or
/// two. Skipped when `swift` is not on PATH.
struct ConsumerPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let swift: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/swift" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let program = #"""
        import FormularyRules

        let today = CivilDate(year: 2026, month: 11, day: 29)
        do {
            let catalog = try FieldCatalog.builtin(today: today)
            print("types:", catalog.typeNames.contains("credit-card"), catalog.typeNames == catalog.typeNames.sorted())
            let card = try catalog.fieldType("credit-card")
            print("card:", card.format("4111111111111111"), card.isValid("4111 1111 1111 1112"))
            let adult = try catalog.fieldType("age(min: 18, max: 120)")
            print("age:", adult.validate("17").violations.map(\.message))
            let signup = try catalog.form(source: """
                form signup
                field email         email           required
                field email-again   email           required
                field age           age(min: 18, max: 120)    required
                same email email-again   message "The two email addresses differ"
                """, file: "signup.form")
            let result = signup.judge(["email": "ada@example.com", "email-again": "ada@example.org", "nick": "ada"])
            print("form:", result.verdict, result.fields["age"]!.violations.map(\.rule),
                  result.formViolations.map(\.rule), result.unknownFields)
            print("form fields:", signup.fieldKeys, signup.form.fields.map(\.type.name), try signup.fieldType("age").definition.name)
            do {
                _ = try catalog.fieldType("credt-card")
            } catch {
                print(error)
                print("ids:", error.ids, error.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.severity)" })
            }

            // The rest of what docs/library.md shows an app doing, so that a declaration it
            // names and the library no longer makes public fails this build.
            var field = FieldEditor(type: card)
            field.insert("4111")
            let refused: EditOutcome = field.insert("x")
            print("editor:", field.text, field.caret, field.result.verdict, refused.accepted, refused.refusal?.rule ?? "-")
            print("unformat:", card.unformat("4111 1111 1111 1111"), card.validate("4111 1111", stage: .live).verdict)
            let bio = try catalog.fieldType("bio")
            let limit: LengthLimit? = bio.lengthLimit
            print("length:", limit?.max ?? -1, limit?.unit ?? .bytes, bio.length(of: "Zoë"), FieldEditor(type: bio).counterText ?? "-")
            let email = try catalog.fieldType("email")
            let definition: FieldTypeDefinition = email.definition
            print("definition:", definition.name, definition.keyboard?.rawValue ?? "-", definition.autocomplete?.rawValue ?? "-",
                  definition.autocomplete?.uiTextContentTypeName ?? "-", definition.secure, email.timing)
            var typing = FieldEditor(type: email)
            typing.insert("ada@")
            print("message:", typing.visibleMessage(after: MessageMoment.typing) ?? "nil", "/", typing.visibleMessage(after: .leaving) ?? "nil")
            let outcomes: [SelfTestOutcome] = SelfTests.run(card)
            print("self-tests:", !outcomes.isEmpty, outcomes.allSatisfy(\.passed), outcomes.map(\.example.value).contains("4111111111111111"))
            let more = try catalog.adding(source: "field visa extends credit-card\npattern /4.*/ as visa-prefix message \"Only Visa\"\n", file: "visa.field")
            print("added:", try more.fieldType("visa").validate("5555 5555 5555 4444").message ?? "nil")
            let adultsOnly = try catalog.adding(source: "field age\nnormalize trim\ninteger\nrange 18...150\n", file: "age.field")
            let comparison = TypeComparison(old: adult, new: try adultsOnly.fieldType("age"))
            print("compared:", comparison.relation, comparison.newlyRejected.status, comparison.newlyAccepted.witness ?? "nil",
                  comparison.rules.map(\.relation.rawValue))
            let german = try catalog.adding(messages: "age.label = \"Lebensjahre\"", file: "de.messages").localized("de-AT")
            print("localized:", german.locale ?? "nil", catalog.locales, try german.fieldType("age(min: 18)").validate("17").message ?? "nil",
                  try german.definition(named: "age").label ?? "nil")
        } catch {
            print("unexpected:", error)
        }
        """#

    static let expected = """
        types: true true
        card: 4111 1111 1111 1111 false
        age: ["Age must be between 18 and 120"]
        form: invalid ["required"] ["same", "unknown-field"] ["nick"]
        form fields: ["email", "email-again", "age"] ["email", "email", "age"] age
        <type reference>:1:1: error: unknown type 'credt-card'; did you mean 'credit-card'?
        credt-card
        ^~~~~~~~~~
        ids: ["unknown-type"] ["1:1 error"]
        editor: 4111 4 incomplete false visa
        unformat: 4111111111111111 incomplete
        length: 160 graphemes 3 0/160
        definition: email email email emailAddress false leaving
        message: nil / Enter an email address like name@example.com
        self-tests: true true true
        added: Only Visa
        compared: superset none 121 ["same", "superset"]
        localized: de-AT ["de", "es", "fr", "pt-BR"] Das Alter muss zwischen 18 und 150 liegen Lebensjahre

        """

    @Test(.enabled(if: swift != nil, "swift is not on PATH: the consumer package cannot be built"),
          .timeLimit(.minutes(20)))
    func anAppImportingOnlyTheRulesBuildsRunsAndLinksNoCLibrary() throws {
        // pkg-config finds no library at all: the rules need none (as on iOS, where there is
        // no pkg-config and no system PCRE2).
        let nothing = FileManager.default.temporaryDirectory.appendingPathComponent("no-pkg-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: nothing, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: nothing) }
        let binary = try Self.buildConsumer(named: "App", product: "FormularyRules", program: Self.program,
                                            environment: ["PKG_CONFIG_LIBDIR": nothing.path, "PKG_CONFIG_PATH": nothing.path])
        let ran = try Self.run(binary, [])
        #expect(ran.status == 0)
        #expect(ran.output == Self.expected)

        let ldd = try Self.run("/usr/bin/env", ["ldd", binary])
        try #require(ldd.status == 0, "ldd failed: \(ldd.output)")
        for library in ["libpcre2", "libsqlite3", "libcrypto"] {
            #expect(!ldd.output.contains(library), "an app on the rules links \(library):\n\(ldd.output)")
        }
    }

    /// An app on FormularyKit alone, for SQLite files: it links no libpq (nor Kerberos, LDAP
    /// or SASL behind it) and no libmicrohttpd (nor GnuTLS), and a `postgres://` URL, which it cannot open without the
    /// PostgreSQL module, gets an error that says so.
    @Test(.enabled(if: swift != nil, "swift is not on PATH: the consumer package cannot be built"),
          .timeLimit(.minutes(20)))
    func anAppOnTheKitAloneLinksNoPostgreSQLClientOrHTTPServer() throws {
        let binary = try Self.buildConsumer(named: "KitApp", product: "FormularyKit", program: Self.kitProgram)
        let ran = try Self.run(binary, [])
        #expect(ran.status == 0)
        let lines = ran.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first.map { $0.contains("built without the PostgreSQL backend") && $0.contains("PostgresBackend.install()") } == true,
                "\(ran.output)")
        #expect(Array(lines.dropFirst()) == Self.kitExpected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                "\(ran.output)")
        #expect(!ran.output.contains("secret"), "the URL's password is shown: \(ran.output)")
        let ldd = try Self.run("/usr/bin/env", ["ldd", binary])
        try #require(ldd.status == 0, "ldd failed: \(ldd.output)")
        #expect(ldd.output.contains("libsqlite3"), "the Kit's store is SQLite:\n\(ldd.output)")
        for library in ["libpq", "libkrb5", "libldap", "libsasl2", "libmicrohttpd", "libgnutls"] {
            #expect(!ldd.output.contains(library), "an app on the Kit alone links \(library):\n\(ldd.output)")
        }
    }

    /// The app on the Kit: a `postgres://` URL it cannot open, then an SQLite file taken from
    /// `init` to `audit verify` through the services, naming the values they hand out
    /// (`RunRecord`, `StoredEntry`, `EntryRunVerdict`, `DefinitionVersion`, `AuditRecord`…), so
    /// that one the Kit no longer makes public fails this build.
    static let kitProgram = #"""
        import Foundation
        import FormularyKit
        import FormularyRules

        let server = WorkspaceSettings(databasePath: "postgres://ann:secret@127.0.0.1:1/formulary", pluginFolders: [], actor: "app")
        do {
            _ = try AuditService(workspace: Workspace(settings: server)).head()
            print("opened")
        } catch {
            print(error)
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kit-app-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let formFile = folder.appendingPathComponent("people.form").path
        let csvFile = folder.appendingPathComponent("people.csv").path
        try "form people\nfield name name required\nfield age age(min: 18)\n".write(toFile: formFile, atomically: true, encoding: .utf8)
        try "name,age\nAda Lovelace,36\nBob,12\n".write(toFile: csvFile, atomically: true, encoding: .utf8)
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let workspace = Workspace(settings: WorkspaceSettings(databasePath: folder.appendingPathComponent("app.db").path,
                                                              pluginFolders: [], actor: "app"))
        do {
            print("init:", try SchemaService(workspace: workspace).initialize().created)
            let admission = try RegistryService(workspace: workspace).addForms([formFile], addTypes: false, today: today,
                                                                              warnings: { _ in })
            let added: [AddOutcome] = admission.forms
            print("added:", added.map(\.version.name), added.map(\.changedDatabase))
            let imported = try ImportService(workspace: workspace).run(file: csvFile, format: .csv, form: "people",
                                                                       key: nil, skipBad: false)
            print("imported:", imported.summary.added)
            let run: RunRecord = try ValidationService(workspace: workspace).run(forms: nil, today: today).run
            let counts: RunCounts = run.counts
            let status: RunStatus = run.status
            print("run:", run.id, status, counts.entriesChecked, counts.entriesInvalid, run.forms.map(\.form))
            print("runs:", try RunsService(workspace: workspace).list(form: nil, limit: 0).map(\.id))
            let failing = try EntriesService(workspace: workspace).list(form: "people", failing: true, limit: 0).rows
            let entry: StoredEntry = failing[0].entry
            print("failing:", failing.count, entry.id, entry["name"] ?? "-", failing[0].verdict?.verdict ?? .valid)
            let verdicts: [EntryRunVerdict] = try HistoryService(workspace: workspace).history(entry: entry.id).runs
            let rules: [RunRule] = verdicts.flatMap { $0.results.map(\.rule) }
            print("history:", rules.map { "\($0.field ?? "-") \($0.rule) \($0.severity)" })
            let versions: [DefinitionVersion] = try RegistryService(workspace: workspace).storedVersions(.form, name: "people")
            print("versions:", versions.map(\.kind.rawValue), versions.map(\.shortHash.count))
            let records: [AuditRecord] = try AuditService(workspace: workspace).records(since: nil, actor: nil)
            print("audit:", records.map(\.action))
            let report: AuditReport = try AuditService(workspace: workspace).verify(expectedHead: nil)
            let problems: [AuditProblem] = report.problems
            print("verify:", report.isValid, report.chain.verifiedCount == records.count, problems.count, report.covered.imports)
        } catch {
            print("unexpected:", error)
        }
        """#

    /// What the app prints after the line about the `postgres://` URL.
    static let kitExpected = """
        init: true
        added: ["people"] [true]
        imported: 2
        run: 1 complete 2 1 ["people"]
        runs: [1]
        failing: 1 2 Bob invalid
        history: ["age range error"]
        versions: ["form"] [12]
        audit: ["forms.add", "import", "validate.start", "validate"]
        verify: true true 0 1

        """

    /// Builds the package `named` in `.build/consumer-package/NAME`, one executable with
    /// `program` as its `main.swift` depending on this repository's `product`; its binary's path.
    static func buildConsumer(named name: String, product: String, program: String,
                              environment: [String: String] = [:]) throws -> String {
        let swift = try #require(Self.swift)
        let folder = Self.root.appendingPathComponent(".build/consumer-package")
        let package = folder.appendingPathComponent(name)
        let sources = package.appendingPathComponent("Sources/\(name)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // The dependency's identity is its folder's name (a worktree may be called anything).
        let identity = Self.root.lastPathComponent
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "\(name)",
                dependencies: [.package(path: "\(Self.root.path)")],
                targets: [.executableTarget(name: "\(name)", dependencies: [
                    .product(name: "\(product)", package: "\(identity)")])]
            )
            """
        try Self.writeIfChanged(manifest, to: package.appendingPathComponent("Package.swift"))
        try Self.writeIfChanged(program, to: sources.appendingPathComponent("main.swift"))

        let scratch = folder.appendingPathComponent("build-\(name)").path
        // SwiftPM plans a path dependency's files once per build folder and misses files
        // added to it later (a merge that adds sources): start afresh when the list changes.
        let listing = try Self.sourceListing()
        let listingFile = folder.appendingPathComponent("sources-\(name).list")
        if (try? String(contentsOf: listingFile, encoding: .utf8)) != listing {
            try? FileManager.default.removeItem(atPath: scratch)
            try listing.write(to: listingFile, atomically: true, encoding: .utf8)
        }
        let build = try Self.run(swift, ["build", "--package-path", package.path, "--scratch-path", scratch],
                                 environment: environment)
        try #require(build.status == 0, "swift build of the consumer failed:\n\(build.output)")
        let binPath = try Self.run(swift, ["build", "--package-path", package.path, "--scratch-path", scratch,
                                           "--show-bin-path"])
        return binPath.output.trimmingCharacters(in: .whitespacesAndNewlines) + "/\(name)"
    }

    /// The library compiles without a warning: an app building it sees every warning of
    /// its dependencies in its own build log. Type-checked the way SwiftPM compiles the
    /// module — its sources alone, with no C module to find — in seconds.
    @Test(.enabled(if: swift != nil, "swift is not on PATH"))
    func theRulesLibraryCompilesWithoutWarnings() throws {
        let swiftc = URL(fileURLWithPath: try #require(Self.swift)).deletingLastPathComponent()
            .appendingPathComponent("swiftc").path
        let base = Self.root.appendingPathComponent("Sources/FormularyRules")
        let sources = (FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.map { base.appendingPathComponent($0).path }
        try #require(sources.count > 20)
        let checked = try Self.run(swiftc, ["-typecheck", "-swift-version", "6", "-module-name", "FormularyRules",
                                            "-package-name", "formulary"] + sources)
        #expect(checked.status == 0, "\(checked.output)")
        #expect(!checked.output.contains("warning:"), "FormularyRules compiles with warnings:\n\(checked.output)")
    }

    /// The files the consumer's build compiles from this repository, one path a line.
    static func sourceListing() throws -> String {
        var paths = ["Package.swift"]
        for module in ["FormularyRules", "FormularyJSON", "FormularyStore", "FormularyKit",
                       "FormularyPostgres", "FormularyServer", "CSQLite", "CCrypto", "CLibPQ", "CMicroHTTPD"] {
            let base = root.appendingPathComponent("Sources/\(module)")
            let found = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            paths += found.map { "Sources/\(module)/\($0)" }
        }
        return paths.sorted().joined(separator: "\n") + "\n"
    }

    /// Writes only when the text differs, so that an unchanged package is not rebuilt.
    static func writeIfChanged(_ text: String, to url: URL) throws {
        if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Runs a program to its end; standard output and error together, through a file (a
    /// build's output can be large).
    static func run(_ executable: String, _ arguments: [String],
                    environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = handle
        process.standardError = arguments.contains("--show-bin-path") ? FileHandle.nullDevice : handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }
}
