/// What a command accepts: its options and positional arguments, and the help text.
///
/// Every command declares one of these; the parser, `--help` and the golden tests all
/// read from it, so help can never drift from what is actually accepted.
struct CommandSpec: Sendable {
    /// Words after `formulary`, e.g. `["types", "lint"]`.
    var path: [String]
    /// One line, shown in the command list.
    var abstract: String
    /// The usage line after `formulary`, e.g. `check TYPE[(PARAMS)] VALUE... [--live]`.
    var usage: String
    /// Paragraphs shown under the usage line.
    var discussion: String = ""
    var options: [OptionSpec] = []
    /// Inclusive bounds on the number of positional arguments.
    var positionals: ClosedRange<Int> = 0...0
    /// What the positionals are called in error messages, e.g. "FILE".
    var positionalName: String = "argument"
    /// What is still missing when only the first positional is given, if that differs
    /// from ``positionalName`` (`check age` lacks "at least one VALUE", not "TYPE").
    var missingAfterFirst: String? = nil
    var examples: [String] = []

    var name: String { path.joined(separator: " ") }
}

/// One option. Flags take no value; the others take exactly one (`--x V` or `--x=V`).
struct OptionSpec: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case flag, value(String), repeatable(String) }
    var name: String          // without the leading dashes
    var kind: Kind
    var help: String
    var short: Character? = nil

    var valueName: String? {
        switch kind {
        case .flag: nil
        case .value(let n), .repeatable(let n): n
        }
    }
    var takesValue: Bool { valueName != nil }
}

extension OptionSpec {
    /// Options every command accepts, before or after its name.
    static let globals: [OptionSpec] = [
        OptionSpec(name: "db", kind: .value("PATH"),
                   help: "The SQLite database (env FORMULARY_DB; default ./formulary.db)."),
        OptionSpec(name: "plugins", kind: .repeatable("DIR"),
                   help: "A folder of .field and .form files; repeatable (env FORMULARY_PATH, ':'-separated)."),
        OptionSpec(name: "actor", kind: .value("NAME"),
                   help: "Who is acting, for the audit log (env FORMULARY_ACTOR; default $USER)."),
        OptionSpec(name: "today", kind: .value("YYYY-MM-DD"),
                   help: "Fixes \"today\" for date checks (env FORMULARY_TODAY; default the local date)."),
        OptionSpec(name: "format", kind: .value("FORMAT"),
                   help: "Output format: text or json, and csv or html where a command offers them."),
        OptionSpec(name: "help", kind: .flag, help: "Shows help for the command.", short: "h"),
        OptionSpec(name: "version", kind: .flag, help: "Shows the version."),
    ]
}
