// The benchmarks: `FormularyBench` runs them all, `FormularyBench engine` (or another
// suite name) only the ones named. Build in release mode:
//   swift run -c release FormularyBench [engine|reader]…
let requested = Array(CommandLine.arguments.dropFirst())
var suites: [(name: String, run: () -> Void)] = [("engine", { runEngineBench() })]
#if canImport(FormularyJSON)
suites.append(("reader", { runReaderBench() }))
#endif
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    suite.run()
}
for name in requested where !suites.contains(where: { $0.name == name }) {
    print("unknown benchmark '\(name)'; known: \(suites.map(\.name).joined(separator: ", "))")
}
