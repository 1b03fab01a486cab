// swift-tools-version:6.0
import PackageDescription

// Layers, each depending only on the ones above it (docs/architecture.md has the rules):
//   FormularyJSON   — JSON values, a strict reader and a canonical writer (no dependencies)
//   FormularyRules  — the rule language and engine: lexer, parser, diagnostics, resolver,
//                     compiled field types, Formulary's own pattern automata. Pure Swift: no
//                     C library, no SQLite, no libcrypto, no Foundation; files and the clock
//                     only where an app asks (adding(folder:), localToday()).
//                     A library product: its public API is what docs/library.md shows.
//   FormularyStore  — SQLite, migrations, SHA-256 (libcrypto), the audit log, and the
//                     StoreBackend seam; it stores the rules' domain values (one Severity), so
//                     it depends on FormularyRules. A server backend is installed by the
//                     program. `package` access throughout: no app sees the store.
//   FormularyPostgres — the PostgreSQL backend and its migrations (libpq): the only module
//                     that links libpq; `PostgresBackend.install()` makes postgres:// URLs work.
//   FormularyKit    — the application layer: a Workspace (the database and plugin folders)
//                     and one service per area (schema, registry, check, judge, import,
//                     entries, history, validation, impact, canonicalize, runs, reports,
//                     audit, tokens, copy) with plain result values of its own. A library product.
//   FormularyServer — `formulary serve`: the registry over HTTP (libmicrohttpd), on Kit's services.
//   FormularyCLI    — the commands, a library the tests run in-process: parse, one Kit call, render.
//   formulary       — the executable: main.swift, what belongs to the process, around FormularyCLI.

// The process-level test hooks (FORMULARY_TEST_FAULT, FORMULARY_TEST_WAIT_LOG,
// FORMULARY_TEST_CHUNK_PAUSE) exist in debug builds only, which `swift build --build-tests`
// and the test suite use: a release binary must not let an environment variable fake a
// full disk or write to a file it names (scripts/check-release-binary.sh checks it).
let testHooks: [SwiftSetting] = [.define("FORMULARY_TEST_HOOKS", .when(configuration: .debug))]

let package = Package(
    name: "Formulary",
    products: [
        .library(name: "FormularyRules", targets: ["FormularyRules"]),
        .library(name: "FormularyKit", targets: ["FormularyKit"]),
        // For an app that wants postgres:// databases: link it and call PostgresBackend.install().
        .library(name: "FormularyPostgres", targets: ["FormularyPostgres"]),
        .executable(name: "formulary", targets: ["formulary"]),
    ],
    targets: [
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8",
                       providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // libpq and libmicrohttpd: their headers only (libpq-dev, libmicrohttpd-dev). Neither
        // library is linked: FormularyPostgres and FormularyServer open them with dlopen when
        // a command first needs them, so that the other commands start without loading them
        // and the twenty-odd libraries behind them (docs/performance.md, "Start-up"). No
        // pkg-config here, which would link them: the headers are found in /usr/include.
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),

        .target(name: "FormularyJSON"),
        .target(name: "FormularyRules"),
        // PCRE2 as the tests' oracle and the benchmarks' speed reference for patterns: no
        // product links it.
        .target(name: "PCRE2Oracle", dependencies: ["CPCRE2"], path: "Tests/PCRE2Oracle"),
        .target(name: "FormularyStore",
                dependencies: ["CSQLite", "CCrypto", "FormularyJSON", "FormularyRules"]),
        // The PostgreSQL backend: libpq is linked by this module alone. A program that wants
        // `postgres://` databases links it and calls `PostgresBackend.install()`.
        .target(name: "FormularyPostgres",
                dependencies: ["CLibPQ", "FormularyStore", "FormularyJSON", "FormularyRules"]),
        .target(name: "FormularyKit",
                dependencies: ["FormularyRules", "FormularyStore", "FormularyJSON"],
                swiftSettings: testHooks),
        // `formulary serve`: the HTTP server on libmicrohttpd, the only module that links it.
        .target(name: "FormularyServer",
                dependencies: ["FormularyKit", "FormularyRules", "FormularyJSON", "CMicroHTTPD"],
                swiftSettings: testHooks),
        // The commands, a library so that the tests run them in-process: parse, one
        // FormularyKit call, render. They reach the database only through FormularyKit's
        // application services (LayeringTests keeps it so).
        .target(name: "FormularyCLI", dependencies: ["FormularyKit", "FormularyServer", "FormularyRules", "FormularyJSON"]),
        // The `formulary` executable: what belongs to a process (the PostgreSQL backend
        // installed, SIGPIPE, argv checked for UTF-8, the exit status, the test hooks) around
        // FormularyCLI's runner.
        .executableTarget(name: "formulary", dependencies: ["FormularyCLI", "FormularyKit", "FormularyPostgres"],
                          swiftSettings: testHooks),

        .executableTarget(name: "FormularyBench",
                         dependencies: ["FormularyKit", "FormularyRules", "FormularyStore", "FormularyPostgres", "FormularyJSON",
                                        "PCRE2Oracle"],
                          path: "bench/FormularyBench"),
        // The conformance vectors of formulary.js (runtime/js), written from this engine
        // (runtime/conformance/README.md; `make conformance`, which `make test` runs).
        .executableTarget(name: "FormularyConformance",
                          dependencies: ["FormularyKit", "FormularyRules", "FormularyJSON"],
                          path: "runtime/conformance/generator"),

        .testTarget(name: "FormularyJSONTests", dependencies: ["FormularyJSON"]),
        .testTarget(name: "FormularyRulesTests", dependencies: ["FormularyRules", "PCRE2Oracle"]),
        .testTarget(name: "FormularyStoreTests", dependencies: ["FormularyStore", "FormularyPostgres"]),
        .testTarget(name: "FormularyKitTests", dependencies: ["FormularyKit", "FormularyServer", "FormularyPostgres"]),
        // The commands run in-process (FormularyCLI) unless a test needs a process (exit
        // statuses end to end, signals, terminals, several processes), then as the
        // `formulary` executable. FormularyStore only for the PostgreSQL sandboxes (a scratch
        // database per test).
        .testTarget(name: "FormularyCLITests", dependencies: ["FormularyCLI", "FormularyKit", "FormularyStore", "FormularyPostgres"],
                    exclude: ["Golden"]),
    ]
)
