// swift-tools-version:6.0
import PackageDescription

// Layers, each depending only on the ones above it:
//   FormularyJSON   — JSON values, a strict reader and a canonical writer (no dependencies)
//   FormularyRules  — the rule language and engine: lexer, parser, diagnostics, resolver,
//                     compiled field types (PCRE2). No file system, no SQLite.
//   FormularyStore  — SQLite, migrations, SHA-256, the audit log, and the StoreBackend seam;
//                     it stores the rules' domain values (one Severity), so it depends on
//                     FormularyRules. A server backend is installed by the program.
//   FormularyPostgres — the PostgreSQL backend and its migrations (libpq): the only module
//                     that links libpq; `PostgresBackend.install()` makes postgres:// URLs work.
//   FormularyKit    — the application layer: a Workspace (the database and plugin folders)
//                     and one service per area (schema, registry and admission, entries,
//                     history, audit, import, validation, reports) with plain result values.
//   FormularyServer — `formulary serve`: the registry over HTTP (libmicrohttpd), on Kit's services.
//   formulary       — the thin command-line executable: parse, one Kit call, render.

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
        .executable(name: "formulary", targets: ["FormularyCLI"]),
    ],
    targets: [
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8",
                       providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),

        .target(name: "FormularyJSON"),
        .target(name: "FormularyRules", dependencies: ["CPCRE2"]),
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
        // The CLI reaches the database only through FormularyKit's application services
        // (LayeringTests keeps it so).
        .executableTarget(name: "FormularyCLI", dependencies: ["FormularyKit", "FormularyServer", "FormularyPostgres", "FormularyRules", "FormularyJSON"],
                          swiftSettings: testHooks),

        .executableTarget(name: "FormularyBench",
                         dependencies: ["FormularyKit", "FormularyRules", "FormularyStore", "FormularyPostgres", "FormularyJSON"],
                          path: "bench/FormularyBench"),
        // The conformance vectors of formulary.js (runtime/js), written from this engine
        // (runtime/conformance/README.md; `make conformance`, which `make test` runs).
        .executableTarget(name: "FormularyConformance",
                          dependencies: ["FormularyKit", "FormularyRules", "FormularyJSON"],
                          path: "runtime/conformance/generator"),

        .testTarget(name: "FormularyJSONTests", dependencies: ["FormularyJSON"]),
        .testTarget(name: "FormularyRulesTests", dependencies: ["FormularyRules"]),
        .testTarget(name: "FormularyStoreTests", dependencies: ["FormularyStore", "FormularyPostgres"]),
        .testTarget(name: "FormularyKitTests", dependencies: ["FormularyKit", "FormularyServer", "FormularyPostgres"]),
        // FormularyStore only for the PostgreSQL sandboxes (a scratch database per test); the
        // commands are always run as the `formulary` executable.
        .testTarget(name: "FormularyCLITests", dependencies: ["FormularyKit", "FormularyStore", "FormularyPostgres"], exclude: ["Golden"]),
    ]
)
