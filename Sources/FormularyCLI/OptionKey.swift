/// What a command's spec declares and its `init` reads back: each option and positional is a
/// key, a static property next to the spec (`static let live = Flag("live", …)`), listed in
/// the spec and read with it (`arguments[Self.live]`). The parser works with the names the
/// keys declare; a command names only keys, so an option misspelt where it is read does not
/// compile, and the value comes back as the type the key declares.
protocol OptionKey: Sendable {
    var spec: OptionSpec { get }
}

/// A positional argument's key (``Argument``).
protocol ArgumentKey: Sendable {
    var spec: ArgumentSpec { get }
}

/// A flag, e.g. `--live`: read as a `Bool` with `arguments[key]`.
struct Flag: OptionKey {
    let spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = .flag(name, short: short, help: help)
    }
}

/// An option with a value, e.g. `--form NAME`, read as `Value`: text with `arguments[key]`
/// (or `arguments.all(key)` when repeatable), any other type with `try arguments.value(key)`,
/// which turns a value that does not convert into a usage error naming the option.
struct Option<Value: ExpressibleByArgument>: OptionKey {
    let spec: OptionSpec
    /// Replaces the type's usual advice in that usage error where the option means more
    /// (`--limit`: "use a whole number, 0 for all").
    let expecting: String?

    /// An option of `type`: when the type lists its values (an enum), the usage line shows
    /// them (`--by rule|field|type|entry`) and the shells offer them; otherwise they offer
    /// what `completion` says.
    init(_ name: String, _ valueName: String, of type: Value.Type, help: String, required: Bool = false,
         completion: CompletionKind = .none, expecting: String? = nil) {
        spec = .option(name, valueName, of: type, help: help, required: required, completion: completion)
        self.expecting = expecting
    }
}

extension Option where Value == String {
    /// An option whose value is text as typed.
    init(_ name: String, _ valueName: String, help: String, required: Bool = false, repeatable: Bool = false,
         completion: CompletionKind = .none) {
        spec = .option(name, valueName, help: help, required: required, repeatable: repeatable, completion: completion)
        expecting = nil
    }
}

/// A positional argument, read as `Value` with `try arguments.value(key)`, or every value
/// of a repeating or optional one with `arguments.values(key)`.
struct Argument<Value: ExpressibleByArgument>: ArgumentKey {
    let spec: ArgumentSpec

    /// `name` is what messages call it ("missing TYPE"); `spelling`, when given, how the
    /// usage line and help show it (`TYPE[(PARAMS)]`).
    init(_ name: String, of type: Value.Type, spelling: String? = nil, help: String, isOptional: Bool = false,
         isRepeating: Bool = false, completion: CompletionKind = .none) {
        spec = ArgumentSpec(name: name, spelling: spelling, help: help, isOptional: isOptional, isRepeating: isRepeating,
                            completion: completion)
    }
}

extension Argument where Value == String {
    /// A positional whose value is text as typed.
    init(_ name: String, spelling: String? = nil, help: String, isOptional: Bool = false, isRepeating: Bool = false,
         completion: CompletionKind = .none) {
        self.init(name, of: String.self, spelling: spelling, help: help, isOptional: isOptional, isRepeating: isRepeating,
                  completion: completion)
    }
}

/// The options every command accepts, before or after its name.
enum GlobalOption {
    static let db = Option("db", "PATH", help: "The database: SQLite file or postgres:// URL (env FORMULARY_DB; default ./formulary.db).",
                           completion: .files)
    static let plugins = Option("plugins", "DIR", help: "A folder of .field and .form files; repeatable (env FORMULARY_PATH, ':'-separated).",
                                repeatable: true, completion: .directories)
    static let actor = Option("actor", "NAME", help: "Who is acting, for the audit log (env FORMULARY_ACTOR; default $USER).")
    static let today = Option("today", "YYYY-MM-DD", help: "Fixes \"today\" for date checks (env FORMULARY_TODAY; default the local date).")
    static let locale = Option("locale", "LOCALE", help: "Messages and labels in this locale, e.g. de or pt-BR (env FORMULARY_LOCALE, LC_ALL, LC_MESSAGES, LANG).")
    // The values offered depend on the command (its spec's `formats`).
    static let format = Option("format", "FORMAT", help: "Output format: text or json, and csv or html where a command offers them.",
                               completion: .values(OutputFormat.allValueStrings))
    static let help = Flag("help", short: "h", help: "Shows help for the command.")
    static let version = Flag("version", help: "Shows the version.")

    /// In the order help lists them.
    static let all: [any OptionKey] = [db, plugins, actor, today, locale, format, help, version]
}
