/// What a command accepts: its options and positional arguments, and the help text.
///
/// Every command declares one of these; the parser, the usage line, `--help`, `help`, the
/// completion scripts and the man page all read from it, so none of them can drift from
/// what is actually accepted.
struct CommandSpec: Sendable {
    /// Words after `formulary`, e.g. `["types", "lint"]`.
    var path: [String]
    /// One line, shown in the command list.
    var abstract: String
    /// Paragraphs shown under the usage line.
    var discussion: String = ""
    var options: [OptionSpec] = []
    /// The positional arguments in order. Optional ones come after the required ones, and
    /// only the last may repeat (``CommandSpec/problems`` says so when a spec breaks this).
    var arguments: [ArgumentSpec] = []
    /// The `--format` values the command offers (text first: the default).
    var formats: [OutputFormat] = [.text, .json]
    var examples: [String] = []
    /// Left out of the command list, the completions and the man page (e.g. the generator
    /// of the man page itself); `--help` still works for it.
    var isHidden = false

    /// A command's spec, its options and arguments given as the keys it reads them with.
    init(path: [String], abstract: String, discussion: String = "", options: [any OptionKey] = [],
         arguments: [any ArgumentKey] = [], formats: [OutputFormat] = [.text, .json], examples: [String] = [],
         isHidden: Bool = false) {
        self.path = path
        self.abstract = abstract
        self.discussion = discussion
        self.options = options.map(\.spec)
        self.arguments = arguments.map(\.spec)
        self.formats = formats
        self.examples = examples
        self.isHidden = isHidden
    }

    var name: String { path.joined(separator: " ") }

    /// The usage line after `formulary`: the name, the options (required ones bare, the
    /// others in brackets), then the positionals, e.g.
    /// `import --form NAME [--key FIELD] [--input csv|jsonl] [--skip-bad] FILE|-`.
    var usage: String {
        ([name] + options.map(\.synopsis) + arguments.map(\.synopsis)).joined(separator: " ")
    }

    /// Inclusive bounds on the number of positional arguments.
    var positionalCount: ClosedRange<Int> {
        let required = arguments.filter { !$0.isOptional }.count
        return required...(arguments.last?.isRepeating == true ? Int.max : arguments.count)
    }

    /// Which declared argument the positional at `index` belongs to: each takes one, the
    /// last takes the rest when it repeats.
    func argument(at index: Int) -> ArgumentSpec? {
        if index < arguments.count { return arguments[index] }
        return arguments.last?.isRepeating == true ? arguments.last : nil
    }

    /// What is wrong with the spec itself (an empty list for every shipped command; a test
    /// runs every command so that a broken spec fails it).
    var problems: [String] {
        var found: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument.isRepeating && index != arguments.count - 1 {
                found.append("\(name): only the last argument may repeat, not \(argument.name)")
            }
            if !argument.isOptional, arguments[..<index].contains(where: \.isOptional) {
                found.append("\(name): the required argument \(argument.name) follows an optional one")
            }
        }
        let names = options.map(\.name)
        for duplicate in Set(names) where names.filter({ $0 == duplicate }).count > 1 {
            found.append("\(name): the option --\(duplicate) is declared twice")
        }
        // A command may declare a global option again to say what it means there (`audit
        // --actor` filters), but not make it take a value where the global takes none.
        for option in options {
            if let global = OptionSpec.globals.first(where: { $0.name == option.name }),
               global.valueName != option.valueName || global.isRepeatable != option.isRepeatable {
                found.append("\(name): --\(option.name) differs from the global option of that name")
            }
        }
        if formats.first != .text { found.append("\(name): text must be the first (default) format") }
        return found
    }
}

/// What a shell may offer for a value: nothing in particular, files, folders, a fixed list
/// of words, the names of formulary's own commands (for `help`), or the names of the types
/// or forms of the registry the command line names (asked of `formulary __complete`).
enum CompletionKind: Sendable, Hashable {
    case none
    case files
    case directories
    case values([String])
    case commands
    case registry(RegistryNames)
}

/// Names a completion script asks the binary for, as the registry of the moment has them.
enum RegistryNames: String, CaseIterable, Sendable, Hashable, ExpressibleByArgument {
    case types, forms
    static var noun: String { "what names to list" }
}

/// One positional argument.
struct ArgumentSpec: Sendable, Hashable {
    /// The name used in messages and by ``ParsedArguments/positional(_:)``, e.g. "TYPE".
    var name: String
    /// How the usage line and help spell it when that differs, e.g. "TYPE[(PARAMS)]", "FILE|-".
    var spelling: String? = nil
    var help: String
    var isOptional = false
    /// Takes every positional from its place on (only the last argument).
    var isRepeating = false
    var completion: CompletionKind = .none

    /// `FILE|-`, `VALUE...`, `[NAME...]`.
    var synopsis: String {
        let word = (spelling ?? name) + (isRepeating ? "..." : "")
        return isOptional ? "[\(word)]" : word
    }

    /// The name column of the ARGUMENTS section: the spelling, brackets left to the usage line.
    var label: String { (spelling ?? name) + (isRepeating ? "..." : "") }

    /// What a message calls it when it is missing: `FILE`, `at least one VALUE`.
    var missingName: String { isRepeating ? "at least one \(name)" : name }
}

/// One option. Flags take no value; the others take exactly one (`--x V` or `--x=V`).
struct OptionSpec: Sendable, Hashable {
    /// Without the leading dashes.
    var name: String
    /// What the value is called (`PATH`); nil for a flag.
    var valueName: String?
    var help: String
    var short: Character? = nil
    /// The command refuses to run without it (the parser says so).
    var isRequired = false
    /// May be given more than once; each value is kept. Others may be given once (global
    /// options excepted: there the last one wins, as in a shell alias plus a command line).
    var isRepeatable = false
    var completion: CompletionKind = .none

    var takesValue: Bool { valueName != nil }

    /// A flag, e.g. `--live`.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, short: short)
    }

    /// An option with a value, e.g. `--form NAME`.
    static func option(_ name: String, _ valueName: String, help: String, required: Bool = false,
                       repeatable: Bool = false, completion: CompletionKind = .none) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, isRequired: required, isRepeatable: repeatable,
                   completion: completion)
    }

    /// An option whose value is of `type`: when the type lists its values (an enum), the
    /// usage line shows them (`--by rule|field|type|entry`) and the shells offer them.
    static func option<Value: ExpressibleByArgument>(_ name: String, _ valueName: String, of type: Value.Type,
                                                     help: String, required: Bool = false,
                                                     completion: CompletionKind = .none) -> OptionSpec {
        let values = Value.allValueStrings
        return option(name, valueName, help: help, required: required, completion: values.isEmpty ? completion : .values(values))
    }

    /// What the usage line shows for the value: its choices when there are few, else its name.
    var valueSynopsis: String? {
        if case .values(let words) = completion { return words.joined(separator: "|") }
        return valueName
    }

    /// `--live`, `[--key FIELD]`, `--form NAME`, `[--form NAME]...`.
    var synopsis: String {
        let word = "--\(name)" + (valueSynopsis.map { " " + $0 } ?? "")
        let bracketed = isRequired ? word : "[\(word)]"
        return bracketed + (isRepeatable ? "..." : "")
    }
}

extension OptionSpec {
    /// Options every command accepts, before or after its name (``GlobalOption``).
    static let globals: [OptionSpec] = GlobalOption.all.map(\.spec)
}
