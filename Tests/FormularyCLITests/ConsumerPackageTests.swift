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
            do {
                _ = try catalog.fieldType("credt-card")
            } catch {
                print(error)
            }
        } catch {
            print("unexpected:", error)
        }
        """#

    static let expected = """
        types: true true
        card: 4111 1111 1111 1111 false
        age: ["Age must be between 18 and 120"]
        form: invalid ["required"] ["same", "unknown-field"] ["nick"]
        <type reference>:1:1: error: unknown type 'credt-card'; did you mean 'credit-card'?
        credt-card
        ^~~~~~~~~~

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
        let program = #"""
            import FormularyKit

            let settings = WorkspaceSettings(databasePath: "postgres://ann:secret@127.0.0.1:1/formulary", pluginFolders: [], actor: "app")
            do {
                _ = try AuditService(workspace: Workspace(settings: settings)).head()
                print("opened")
            } catch {
                print(error)
            }
            """#
        let binary = try Self.buildConsumer(named: "KitApp", product: "FormularyKit", program: program)
        let ran = try Self.run(binary, [])
        #expect(ran.status == 0)
        #expect(ran.output.contains("built without the PostgreSQL backend") && ran.output.contains("PostgresBackend.install()"),
                "\(ran.output)")
        #expect(!ran.output.contains("secret"), "the URL's password is shown: \(ran.output)")
        let ldd = try Self.run("/usr/bin/env", ["ldd", binary])
        try #require(ldd.status == 0, "ldd failed: \(ldd.output)")
        #expect(ldd.output.contains("libsqlite3"), "the Kit's store is SQLite:\n\(ldd.output)")
        for library in ["libpq", "libkrb5", "libldap", "libsasl2", "libmicrohttpd", "libgnutls"] {
            #expect(!ldd.output.contains(library), "an app on the Kit alone links \(library):\n\(ldd.output)")
        }
    }

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
