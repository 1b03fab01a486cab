import FormularyRules

/// The command line after parsing: which command, its options and its positionals.
struct ParsedArguments: Sendable {
    var commandPath: [String] = []
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The entry id given as the first positional (`entries show ID`, `history ENTRY`).
    func entryID(helpCommand: String) throws(UsageError) -> Int64 {
        try Self.id(positionals[0], noun: "entry", hint: "see 'formulary entries list'", helpCommand: helpCommand)
    }

    /// A stored row's id as typed: a whole number from 1. The refusal says which of the two
    /// it is not (`0` is a whole number, but no id).
    static func id(_ text: String, noun: String, option: String? = nil, hint: String,
                   helpCommand: String) throws(UsageError) -> Int64 {
        let shown = option.map { "\($0) \(text)" } ?? "'\(text)'"
        let digits = text.drop { $0 == "-" || $0 == "+" }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw UsageError(message: "\(shown) is not \(noun == "entry" ? "an" : "a") \(noun) id: ids are whole numbers, "
                             + "1 or more (\(hint))", helpCommand: helpCommand)
        }
        guard let id = Int64(text), id > 0 else {
            let why = text.hasPrefix("-") || digits.allSatisfy({ $0 == "0" })
                ? "\(noun) ids start at 1" : "that is larger than any \(noun) id"
            throw UsageError(message: "there is no \(noun) \(text): \(why) (\(hint))", helpCommand: helpCommand)
        }
        return id
    }
}

/// A usage error: exit status 2, with a hint at the command's help.
struct UsageError: Error, Sendable {
    var message: String
    var helpCommand: String?   // e.g. "check" → "See 'formulary check --help'."
}

/// Parses `argv` (without the program name) against the command table.
///
/// Global options may stand anywhere; `--` ends the options so that values may start
/// with `-`. Every token is consumed exactly once, so the loop always terminates.
struct ArgumentParser {
    var commands: [CommandSpec]

    func parse(_ argv: [String]) throws(UsageError) -> (CommandSpec?, ParsedArguments) {
        var result = ParsedArguments()
        // Find the command: the longest run of leading non-option words naming one.
        var words: [String] = []
        var i = 0
        var skipNext = false
        for token in argv {
            if skipNext { skipNext = false; continue }
            if token == "--" { break }
            if token.hasPrefix("-") && token.count > 1 {
                if let spec = OptionSpec.globals.first(where: { "--" + $0.name == token }), spec.takesValue {
                    skipNext = true
                }
                continue
            }
            words.append(token)
            if words.count == 2 { break }
        }
        var command: CommandSpec?
        for n in stride(from: min(2, words.count), through: 1, by: -1) {
            if let match = commands.first(where: { $0.path == Array(words.prefix(n)) }) {
                command = match
                break
            }
        }
        if command == nil, let first = words.first {
            let groups = Set(commands.compactMap { $0.path.count > 1 ? $0.path[0] : nil })
            if groups.contains(first) {
                let subs = commands.filter { $0.path.first == first }.map { $0.path[1] }
                if words.count > 1 {
                    throw UsageError(message: "unknown command '\(first) \(words[1])'"
                        + (Suggestion.nearest(to: words[1], in: subs).map { "; did you mean '\(first) \($0)'?" } ?? ""),
                        helpCommand: first)
                }
                // `formulary types` alone: show the group's help.
                result.commandPath = [first]
                result.flags.insert("help")
                return (nil, result)
            }
            throw UsageError(message: "unknown command '\(first)'"
                + Suggestion.hint(for: first, in: commands.map { $0.path[0] }), helpCommand: nil)
        }
        result.commandPath = command?.path ?? []
        let options = OptionSpec.globals + (command?.options ?? [])
        var pathToSkip = command?.path ?? []
        var afterDashDash = false
        while i < argv.count {
            let token = argv[i]
            i += 1
            if afterDashDash { result.positionals.append(token); continue }
            if token == "--" { afterDashDash = true; continue }
            if token.hasPrefix("-") && token.count > 1 {
                var name: String
                var inlineValue: String?
                if token.hasPrefix("--") {
                    name = String(token.dropFirst(2))
                    if let eq = name.firstIndex(of: "=") {
                        inlineValue = String(name[name.index(after: eq)...])
                        name = String(name[..<eq])
                    }
                } else if token.count == 2, let spec = options.first(where: { $0.short == token.last }) {
                    name = spec.name
                } else {
                    throw UsageError(message: "unknown option '\(token)'; to pass a value that starts with '-', put '--' before it",
                                     helpCommand: command?.name)
                }
                guard let spec = options.first(where: { $0.name == name }) else {
                    throw UsageError(message: "unknown option '--\(name)'"
                        + (Suggestion.nearest(to: name, in: options.map(\.name)).map { "; did you mean '--\($0)'?" } ?? ""),
                        helpCommand: command?.name)
                }
                if spec.takesValue {
                    let value: String
                    if let inlineValue { value = inlineValue } else {
                        guard i < argv.count else {
                            throw UsageError(message: "option '--\(name)' needs a value (\(spec.valueName!))",
                                             helpCommand: command?.name)
                        }
                        value = argv[i]
                        i += 1
                    }
                    if case .value = spec.kind, result.values[name] != nil, !OptionSpec.globals.contains(spec) {
                        throw UsageError(message: "option '--\(name)' was given twice", helpCommand: command?.name)
                    }
                    result.values[name, default: []].append(value)
                } else {
                    if inlineValue != nil {
                        throw UsageError(message: "option '--\(name)' takes no value", helpCommand: command?.name)
                    }
                    result.flags.insert(name)
                }
                continue
            }
            if let first = pathToSkip.first, token == first {
                pathToSkip.removeFirst()
                continue
            }
            result.positionals.append(token)
        }
        if let command, !result.flag("help"), !result.flag("version") {
            let n = result.positionals.count
            if n < command.positionals.lowerBound {
                let missing = n > 0 ? command.missingAfterFirst.map { "\($0) after '\(result.positionals[0])'" } : nil
                throw UsageError(message: "missing \(missing ?? command.positionalName); usage: formulary \(command.usage)",
                                 helpCommand: command.name)
            }
            if n > command.positionals.upperBound {
                let extra = result.positionals[command.positionals.upperBound]
                throw UsageError(message: "unexpected argument '\(extra)'; usage: formulary \(command.usage)",
                                 helpCommand: command.name)
            }
        }
        return (command, result)
    }
}
