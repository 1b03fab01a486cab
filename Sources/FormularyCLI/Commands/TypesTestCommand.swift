import FormularyJSON
import FormularyKit
import FormularyRules

/// `formulary types test [NAME...]`
struct TypesTestCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "test"],
        abstract: "Runs the types' accept/reject self-tests; prints 'N passed, N failed' last.",
        discussion: """
        Runs every 'accept' and 'reject' example of the named types (all types when none is
        named) with the types' default parameters. A failing example is printed with its
        file and line and what happened instead.

        Exit status: 0 when every example passed, 1 when some failed, 2 when a type could
        not be loaded.
        """,
        arguments: [ArgumentSpec(name: "NAME", help: "A type to test (default: every type).", isOptional: true,
                                 isRepeating: true)],
        examples: ["formulary types test", "formulary types test credit-card iban"])

    let names: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        names = arguments.positionals("NAME")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.loadRegistry()
        let today = try context.today()
        for name in names where registry.types[name] == nil {
            throw CommandFailure(status: .badInput,
                                 message: "unknown type '\(name)'" + (Suggestion.nearest(to: name, in: registry.typeNames)
                                     .map { "; did you mean '\($0)'?" } ?? "; 'formulary types list' shows the types there are"))
        }
        var passed = 0, failed = 0, broken = 0
        // Said after the run, each problem once however many types it stops.
        var unloadable = DiagnosticDigest()
        var report = JSONWriter()
        report.object { o in
            o.array("types") { types in
                for name in names.isEmpty ? registry.typeNames : names {
                    let reference = TypeReference(name: name, location: SourceLocation(file: "<command line>", line: 1, column: 1))
                    switch registry.compile(reference, today: today) {
                    case .failure(let problems):
                        broken += 1
                        unloadable.add(problems.diagnostics, of: name)
                        types.object { t in
                            t.field("name", name)
                            t.field("loaded", false)
                        }
                    case .success(let type):
                        let outcomes = SelfTests.run(type)
                        let bad = outcomes.filter { !$0.passed }
                        passed += outcomes.count - bad.count
                        failed += bad.count
                        if format == .text {
                            let mark = bad.isEmpty ? "ok  " : "FAIL"
                            context.stdout.line("\(mark)  \(name.forTerminal)  (\(outcomes.count - bad.count) of \(outcomes.count) examples passed)")
                            for outcome in bad {
                                let l = outcome.example.location
                                context.stdout.line("      \(l.file.forTerminal):\(l.line): \((outcome.reason ?? "failed").forTerminal)")
                            }
                        }
                        types.object { t in
                            t.field("name", name)
                            t.field("loaded", true)
                            t.field("passed", outcomes.count - bad.count)
                            t.field("failed", bad.count)
                            t.array("failures") { fa in
                                for outcome in bad {
                                    fa.object { f in
                                        f.field("file", outcome.example.location.file)
                                        f.field("line", outcome.example.location.line)
                                        f.field("reason", outcome.reason ?? "failed")
                                    }
                                }
                            }
                        }
                    }
                }
            }
            o.field("passed", passed)
            o.field("failed", failed + broken)
        }
        if !unloadable.isEmpty { context.stderr.write(unloadable.render()) }
        if format == .json {
            report.newline()
            context.stdout.write(bytes: report.bytes)
        } else {
            if broken > 0 { context.stdout.line("\(broken) type\(broken == 1 ? "" : "s") could not be loaded") }
            context.stdout.line("\(passed) passed, \(failed + broken) failed")
        }
        if broken > 0 { return .badInput }
        return failed > 0 ? .violations : .success
    }
}
