import FormularyKit
import FormularyRules

/// `formulary types test [NAME...]`
struct TypesTestCommand: Command {
    static let name = Argument("NAME", help: "A type to test (default: every type).", isOptional: true,
                               isRepeating: true, completion: .registry(.types))
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
        arguments: [name],
        examples: ["formulary types test", "formulary types test credit-card iban"])

    let names: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        names = arguments.values(Self.name)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let report = try RegistryService(workspace: context.workspace).selfTest(names, today: try context.today())
        if format == .text {
            for type in report.types where type.loaded {
                let total = type.passed + type.failures.count
                let mark = type.failures.isEmpty ? "ok  " : "FAIL"
                context.stdout.line("\(mark)  \(type.name.forTerminal)  (\(type.passed) of \(total) examples passed)")
                for failure in type.failures {
                    context.stdout.line("      \(failure.file.forTerminal):\(failure.line): \(failure.reason.forTerminal)")
                }
            }
        }
        // Said after the run, each problem once however many types it stops.
        if !report.unloadable.isEmpty { context.stderr.write(CommandContext.digest(report.unloadable).render()) }
        let (passed, failed, broken) = (report.passed, report.failed, report.broken)
        if format == .json {
            context.stdout.write(bytes: report.jsonDocument)
        } else {
            if broken > 0 { context.stdout.line("\(ReportNumbers.grouped(broken)) type\(broken == 1 ? "" : "s") could not be loaded") }
            context.stdout.line("\(ReportNumbers.grouped(passed)) passed, \(ReportNumbers.grouped(failed + broken)) failed")
        }
        if broken > 0 { return .badInput }
        return failed > 0 ? .violations : .success
    }
}
