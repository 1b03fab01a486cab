import FormularyKit
import FormularyRules

/// Output formats a command may offer.
enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, csv, html
}

/// What every command gets: the parsed arguments, the environment, the output streams,
/// and the global settings resolved with their precedence (option, then environment,
/// then default).
final class CommandContext {
    let arguments: ParsedArguments
    let environment: [String: String]
    /// The descriptor standard input is read from (`import -`, `try`): 0 in the process.
    let stdin: Int32
    let stdout: OutputStream
    let stderr: OutputStream
    /// The progress line of long work on standard error (drawn only on a capable terminal).
    let progress: ProgressLine
    /// The database and plugin folders the command works on, through the application
    /// services of FormularyKit (opened when a service first needs the database).
    private(set) lazy var workspace = Workspace(settings: workspaceSettings)

    init(arguments: ParsedArguments, environment: [String: String], stdin: Int32,
         stdout: OutputStream, stderr: OutputStream, progress: ProgressLine) {
        self.arguments = arguments
        self.environment = environment
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.progress = progress
    }

    /// Colour on standard output and standard error (see `Style.init(stream:environment:)`).
    var style: Style { Style(stream: stdout, environment: environment) }
    var errorStyle: Style { Style(stream: stderr, environment: environment) }

    /// The `--format` value, checked against what the command offers.
    func format(offered: [OutputFormat]) throws -> OutputFormat {
        guard let text = arguments[GlobalOption.format] else { return .text }
        guard let f = OutputFormat(rawValue: text), offered.contains(f) else {
            let list = offered.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "this command does not offer --format \(text); use one of: \(list)",
                             helpCommand: arguments.commandPath.joined(separator: " "))
        }
        return f
    }

    func today() throws -> CivilDate {
        do {
            return try Today.resolve(option: arguments[GlobalOption.today], environment: environment["FORMULARY_TODAY"])
        } catch {
            throw UsageError(message: error.description, helpCommand: nil)
        }
    }

    /// Plugin folders, lowest precedence first: `FORMULARY_PATH` entries, then `--plugins`.
    var pluginFolders: [PluginFolder] {
        let fromEnvironment = (environment["FORMULARY_PATH"] ?? "")
            .split(separator: ":", omittingEmptySubsequences: true)
            .map { PluginFolder(path: String($0), origin: .environment) }
        let fromOptions = arguments.all(GlobalOption.plugins).map { PluginFolder(path: $0, origin: .option) }
        return fromEnvironment + fromOptions
    }

    var databasePath: String {
        arguments[GlobalOption.db] ?? environment["FORMULARY_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "formulary.db"
    }

    /// The locale messages and labels are given in: `--locale`, else the first of
    /// `FORMULARY_LOCALE`, `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty, as
    /// POSIX programs choose the language of their messages. `C` and `POSIX` (and a value
    /// that names no locale) mean the types' own texts; so does a locale without catalogs.
    var locale: String? {
        if let option = arguments[GlobalOption.locale] { return option }
        return ["FORMULARY_LOCALE", "LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { self.environment[$0] }
            .first { !$0.isEmpty }
    }

    var actor: String {
        if let a = arguments[GlobalOption.actor] { return a }
        if let a = environment["FORMULARY_ACTOR"], !a.isEmpty { return a }
        if let a = environment["USER"], !a.isEmpty { return a }
        return "unknown"
    }
}
