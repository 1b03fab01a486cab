// The benchmarks: `FormularyBench` runs them all, `FormularyBench engine` (or another
// suite name) only the ones named. Build in release mode:
//   swift build -c release && .build/release/FormularyBench [engine|reader|fields|validate|validate-unique|validate-incremental|impact|command|startup|command-postgres|resolve|patterns|store|store-postgres|large|editor]…
#if canImport(Glibc)
import Glibc
#endif
import FormularyPostgres

PostgresBackend.install()
let requested = Array(CommandLine.arguments.dropFirst())
// The validation bench measures each run in a child process: `validate-child DB
// [judge-every-value] [unique-email] [incremental]`.
if requested.first == "validate-child" {
    runValidateChild(path: requested.count > 1 ? requested[1] : "",
                     rememberValues: !requested.contains("judge-every-value"),
                     unique: requested.contains("unique-email"),
                     incremental: requested.contains("incremental"))
    exit(0)
}
// The sign-up data set as a CSV file, for profiling a whole `formulary` run by hand:
// `signup-csv COUNT FILE [DEFECT_PERCENT]` (15% by default; the report bench's store has 30),
// then `formulary --plugins bench import --form signup FILE`.
if requested.first == "signup-csv" {
    guard requested.count == 3 || requested.count == 4, let count = Int(requested[1]), count > 0,
          let percent = requested.count == 4 ? Int(requested[3]) : 15, (0...100).contains(percent) else {
        print("usage: FormularyBench signup-csv COUNT FILE [DEFECT_PERCENT]")
        exit(2)
    }
    exit(SignupData.writeCSV(count: count, to: requested[2], defectPercent: percent) ? 0 : 1)
}
// Start-up beside another build of `formulary`, pair by pair: `startup OTHER_FORMULARY`.
if requested.first == "startup", requested.count == 2 {
    runStartupBench(baseline: requested[1])
    exit(0)
}
var suites: [(name: String, run: () -> Void)] = [("engine", { runEngineBench() })]
#if canImport(FormularyJSON)
suites.append(("reader", { runReaderBench() }))
#endif
suites.append(("fields", { runFieldsBench() }))
suites.append(("validate", { runValidateBench() }))
suites.append(("validate-unique", { runUniqueBench() }))
suites.append(("validate-incremental", { runIncrementalBench() }))
suites.append(("impact", { runImpactBench() }))
suites.append(("command", { runCommandBench() }))
suites.append(("startup", { runStartupBench() }))
suites.append(("command-postgres", { runPostgresCommandBench() }))
suites.append(("resolve", { runResolveBench() }))
suites.append(("patterns", { runPatternBench() }))
suites.append(("store", { runStoreBench() }))
suites.append(("store-postgres", { runPostgresStoreBench() }))
suites.append(("large", { runLargeBench() }))
suites.append(("editor", { runEditorBench() }))
suites.append(("report-memory", { runReportMemoryBench() }))
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    suite.run()
}
for name in requested where !suites.contains(where: { $0.name == name }) {
    print("unknown benchmark '\(name)'; known: \(suites.map(\.name).joined(separator: ", "))")
}
