#if canImport(Glibc)
import Glibc
#endif
import FormularyKit
import FormularyRules

/// The root command: finds the subcommand, runs it, and turns every error into the
/// contract's message and exit status.
///
/// The `formulary` executable calls ``main(arguments:environment:)`` with its process's
/// streams; the tests call ``run(arguments:environment:standardInput:standardOutput:standardError:)``
/// in-process with captured ones. Nothing here belongs to the process as a whole (signals,
/// `exit`, the test hooks): main.swift does that.
package enum Formulary {
    static let version = "0.1.0"

    static let commandTypes: [any Command.Type] = [
        CheckCommand.self, FormatCommand.self, TryCommand.self,
        TypesListCommand.self, TypesShowCommand.self, TypesLintCommand.self, TypesTestCommand.self, TypesDiffCommand.self,
        InitCommand.self, MigrateCommand.self,
        TypesAddCommand.self, TypesHistoryCommand.self, TypesRetireCommand.self, TypesPolicyCommand.self,
        FormsAddCommand.self, FormsListCommand.self, FormsShowCommand.self, FormsJudgeCommand.self,
        ImportCommand.self, EntriesListCommand.self, EntriesShowCommand.self,
        AuditCommand.self, AuditVerifyCommand.self, AuditHeadCommand.self,
        ValidateCommand.self, HistoryCommand.self,
        ImpactCommand.self, CanonicalizeCommand.self,
        ReportCommand.self, RunsListCommand.self, ExportCommand.self, CopyCommand.self, ServeCommand.self,
        TokensAddCommand.self, TokensListCommand.self, TokensRevokeCommand.self,
        DemoCommand.self,
        HelpCommand.self, CompletionsCommand.self, CompleteCommand.self, ManPageCommand.self,
    ]

    static var specs: [CommandSpec] { commandTypes.map { $0.spec } }

    /// Runs the command line `arguments` (without the program's name) with the process's
    /// standard input, output and error.
    package static func main(arguments: [String], environment: [String: String]) -> ExitStatus {
        run(arguments: arguments, environment: environment, standardInput: 0,
            standardOutput: OutputStream(fd: 1), standardError: OutputStream(fd: 2))
    }

    /// Runs the command line `arguments` with exactly `environment` (nothing is read from
    /// the process's), reading standard input from the descriptor `standardInput` and
    /// writing to the two streams, which are flushed before it returns.
    package static func run(arguments: [String], environment: [String: String], standardInput: Int32,
                            standardOutput stdout: OutputStream, standardError stderr: OutputStream) -> ExitStatus {
        let progress = ProgressLine(stdout: stdout, stderr: stderr, environment: environment)
        defer {
            progress.clear()
            stderr.flush()
        }
        let errorStyle = Style(stream: stderr, environment: environment)
        func fail(_ message: String, details: String = "") {
            // Messages quote names, paths and values from the command line and from files:
            // escaped, like every text output. Details are diagnostics (already made safe,
            // their tabs kept for the caret) or SQLite's words.
            stderr.line("formulary: \(errorStyle.red("error")): \(ReportEscaping.terminal(message))")
            if !details.isEmpty {
                let lines = details.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { TerminalText.escaped(String($0), keepingTabs: true) }
                let text = lines.joined(separator: "\n")
                stderr.write(text.hasSuffix("\n") ? text : text + "\n")
            }
        }
        let status = run(arguments: arguments, environment: environment, stdin: standardInput, stdout: stdout,
                         stderr: stderr, progress: progress, fail: fail)
        // The progress line goes before anything else reaches the terminal.
        progress.clear()
        stdout.flush()
        // Output lost to a full disk or an I/O error (`formulary export > /full/disk/x.json`)
        // is an environment failure, whatever the command concluded.
        if let code = stdout.failure {
            let reason = String(cString: strerror(code))
            let advice = OutputFileError(path: "standard output", code: code).advice
            fail("cannot write to standard output: \(reason); the output is incomplete. "
                 + advice.prefix(1).uppercased() + advice.dropFirst())
            return status == .badInput ? status : .environment
        }
        return status
    }

    private static func run(arguments: [String], environment: [String: String], stdin: Int32, stdout: OutputStream,
                            stderr: OutputStream, progress: ProgressLine,
                            fail report: (String, String) -> Void) -> ExitStatus {
        func fail(_ message: String, details: String = "") { report(message, details) }

        // A spec that breaks the parser's rules (a repeating argument before another, an
        // option a flag here and a value there) is a programming error: every test run
        // of a debug build stops on it.
        assert(specs.flatMap(\.problems).isEmpty && CompletionModel(specs: specs).conflicts.isEmpty,
               "broken command specs: \(specs.flatMap(\.problems)) \(CompletionModel(specs: specs).conflicts)")
        let parser = ArgumentParser(commands: specs)
        let command: CommandSpec?
        let parsed: ParsedArguments
        do {
            (command, parsed) = try parser.parse(arguments)
        } catch {
            fail(error.message)
            stderr.line("See 'formulary \(error.helpCommand.map { $0 + " " } ?? "")--help'.")
            return .badInput
        }
        if parsed[GlobalOption.version] {
            stdout.line("formulary \(version)")
            return .success
        }
        guard let command else {
            stdout.write(Help.root(specs: specs, group: parsed.commandPath.first))
            return .success
        }
        if parsed[GlobalOption.help] {
            stdout.write(Help.command(command))
            return .success
        }
        let context = CommandContext(arguments: parsed, environment: environment, stdin: stdin, stdout: stdout,
                                     stderr: stderr, progress: progress)
        do {
            // A bad --today or FORMULARY_TODAY is a mistake whether or not this command checks
            // dates: said at once, never silently ignored. `help` is `--help` by another
            // name, which works whatever the settings are.
            if command.path != HelpCommand.spec.path {
                _ = try context.today()
            }
            guard let type = commandTypes.first(where: { $0.spec.path == command.path }) else {
                fail("internal: no implementation for '\(command.name)'")
                return .environment
            }
            return try type.init(arguments: parsed, context: context).run()
        } catch let error as UsageError {
            fail(error.message)
            stderr.line("See 'formulary \(error.helpCommand.map { $0 + " " } ?? "")--help'.")
            return .badInput
        } catch let error as CommandFailure {
            fail(error.message, details: error.details)
            return error.status
        } catch let error as FileError {
            fail(error.description)
            return .badInput
        } catch let error as OutputFileError {
            fail("cannot write \(error.path): \(error.reason); " + error.advice)
            return error.isBadPath ? .badInput : .environment
        } catch let error as ServiceError {
            let failure = CommandContext.failure(error)
            fail(failure.message, details: failure.details)
            return failure.status
        } catch {
            // The store's own failures (an unknown entry, SQLite's errors) in the user's words.
            if let known = context.workspace.serviceError(for: error, command: command.path) {
                let failure = CommandContext.failure(known)
                fail(failure.message, details: failure.details)
                return failure.status
            }
            fail("\(error)")
            return .environment
        }
    }

    /// The process's environment, read once at start.
    package static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}
