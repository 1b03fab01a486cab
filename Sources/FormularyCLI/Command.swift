import FormularyKit

/// The process's exit statuses, as the CLI contract defines them.
package enum ExitStatus: Int32, Sendable {
    /// Success; for `check` and `validate`: no error-severity violation.
    case success = 0
    /// Violations found.
    case violations = 1
    /// Usage error, bad input or a bad plugin.
    case badInput = 2
    /// Database or environment failure.
    case environment = 3
}

/// One `formulary` subcommand: a spec for the parser and help, and what it does.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    init(arguments: ParsedArguments, context: CommandContext) throws
    func run() throws -> ExitStatus
}

/// An error that a command reports with a specific exit status. The message is printed
/// after `formulary: error: `; `details` (e.g. rendered diagnostics) follow on their own lines.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
    var details: String = ""
}
