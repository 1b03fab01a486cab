import FormularyRules

/// Parses `argv` (without the program name) against the command table.
///
/// Global options may stand anywhere; `--` ends the options so that values may start
/// with `-`. Every token is consumed exactly once, so the loop always terminates.
struct ArgumentParser {
    var commands: [CommandSpec]

    /// What a run of command words names.
    enum Target {
        case root
        case group(String)
        case command(CommandSpec)
    }

    /// Groups: the first words of two-word commands (`types`, `forms`, `audit`…).
    var groups: [String] {
        var seen: [String] = []
        for spec in commands where spec.path.count > 1 && !spec.isHidden && !seen.contains(spec.path[0]) {
            seen.append(spec.path[0])
        }
        return seen
    }

    /// The command, group or root that `words` name, the longest match first; with
    /// `exactly`, every word must be part of the name (`help check foo` names nothing).
    /// An unknown name is a usage error with the nearest known one.
    func resolve(_ words: [String], exactly: Bool) throws(UsageError) -> Target {
        guard let first = words.first else { return .root }
        let typed = words.joined(separator: " ")
        for n in stride(from: min(2, words.count), through: 1, by: -1) {
            guard let match = commands.first(where: { $0.path == Array(words.prefix(n)) }) else { continue }
            if !exactly || n == words.count { return .command(match) }
            // `help check foo`, `help types add x`; but `help audit foo` is an unknown
            // subcommand of the group audit (below).
            if n == 2 || !groups.contains(first) {
                throw UsageError(message: "unknown command '\(typed)'; '\(match.name)' has no subcommands",
                                 helpCommand: match.name)
            }
        }
        let visible = commands.filter { !$0.isHidden }
        if groups.contains(first) {
            if words.count == 1 { return .group(first) }
            let subs = visible.filter { $0.path.count > 1 && $0.path[0] == first }.map { $0.path[1] }
            throw UsageError(message: "unknown command '\(typed)'"
                + (Suggestion.nearest(to: words[1], in: subs).map { "; did you mean '\(first) \($0)'?" } ?? ""),
                helpCommand: first)
        }
        throw UsageError(message: "unknown command '\(first)'"
            + Suggestion.hint(for: first, in: visible.map { $0.path[0] }), helpCommand: nil)
    }

    func parse(_ argv: [String]) throws(UsageError) -> (CommandSpec?, ParsedArguments) {
        var result = ParsedArguments()
        // Find the command: the longest run of leading non-option words naming one.
        var words: [String] = []
        var skipNext = false
        for token in argv {
            if skipNext { skipNext = false; continue }
            if token == "--" { break }
            if token.hasPrefix("--") && token.count > 2 {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                // Before the command is known, an option's value is only told from a word
                // of the command by the option: a misspelled one (`--formt json types
                // list`) is said as such, not as the unknown command 'json'.
                guard let spec = knownOption(name) else {
                    if namesNoCommandYet(words) { throw unknownOption(name, before: words) }
                    continue
                }
                if spec.takesValue && !token.contains("=") { skipNext = true }
                continue
            }
            if token.hasPrefix("-") && token.count > 1 { continue }
            words.append(token)
            if words.count == 2 { break }
        }
        let command: CommandSpec
        switch try resolve(words, exactly: false) {
        case .root:
            // Options alone (`formulary --version`), or nothing: the overview.
            try parseTokens(argv, for: nil, into: &result)
            return (nil, result)
        case .group(let group):
            // `formulary types` alone: show the group's help.
            result.commandPath = [group]
            result.flags.insert(GlobalOption.help.spec.name)
            return (nil, result)
        case .command(let spec):
            command = spec
        }
        result.commandPath = command.path
        result.spec = command
        try parseTokens(argv, for: command, into: &result)
        if !result[GlobalOption.help], !result[GlobalOption.version] {
            try checkComplete(result, for: command)
        }
        return (command, result)
    }

    /// The option of that name, global or any command's: an option takes a value
    /// everywhere or nowhere (``CompletionModel/conflicts``), so it tells what follows it.
    private func knownOption(_ name: String) -> OptionSpec? {
        OptionSpec.globals.first { $0.name == name }
            ?? commands.lazy.flatMap(\.options).first { $0.name == name }
    }

    /// Whether `words` stop short of a command: nothing yet, or a group's name alone
    /// (`audit` is also a command, but `audit --x verify` may still name `audit verify`).
    private func namesNoCommandYet(_ words: [String]) -> Bool {
        words.isEmpty || words.count == 1 && groups.contains(words[0])
    }

    /// `unknown option '--formt'; did you mean '--format'?`, the suggestion taken from the
    /// global options first, then every command's.
    private func unknownOption(_ name: String, before words: [String]) -> UsageError {
        var candidates = OptionSpec.globals.map(\.name)
        for option in commands.filter({ !$0.isHidden }).flatMap(\.options) where !candidates.contains(option.name) {
            candidates.append(option.name)
        }
        return UsageError(message: "unknown option '--\(name)'"
            + (Suggestion.nearest(to: name, in: candidates).map { "; did you mean '--\($0)'?" } ?? ""),
            helpCommand: words.first)
    }

    private func parseTokens(_ argv: [String], for command: CommandSpec?,
                             into result: inout ParsedArguments) throws(UsageError) {
        let options = OptionSpec.globals + (command?.options ?? [])
        var pathToSkip = command?.path ?? []
        var afterDashDash = false
        var i = 0
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
                if let valueName = spec.valueName {
                    let value: String
                    if let inlineValue { value = inlineValue } else {
                        guard i < argv.count else {
                            throw UsageError(message: "option '--\(name)' needs a value (\(valueName))", helpCommand: command?.name)
                        }
                        value = argv[i]
                        i += 1
                    }
                    if !spec.isRepeatable, result.values[name] != nil, !OptionSpec.globals.contains(spec) {
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
    }

    /// Every required option and argument is there, and no positional is left over; else
    /// the error names what is missing (all of it) or the first extra word, and the usage.
    private func checkComplete(_ result: ParsedArguments, for command: CommandSpec) throws(UsageError) {
        let count = result.positionals.count
        if count > command.positionalCount.upperBound {
            let extra = result.positionals[command.positionalCount.upperBound]
            throw UsageError(message: "unexpected argument '\(extra)'; usage: formulary \(command.usage)",
                             helpCommand: command.name)
        }
        let missingOptions = command.options.filter { $0.isRequired && result.values[$0.name] == nil }
            .map { "--\($0.name) \($0.valueName ?? "")" }
        let missingArguments = command.arguments.enumerated()
            .filter { !$0.element.isOptional && $0.offset >= count }
            .map(\.element.missingName)
        guard !missingOptions.isEmpty || !missingArguments.isEmpty else { return }
        // "missing at least one VALUE after 'credit-card'": where the missing part goes.
        let after = missingOptions.isEmpty && count > 0 ? " after '\(result.positionals[count - 1])'" : ""
        throw UsageError(message: "missing \((missingOptions + missingArguments).joined(separator: " and "))\(after); "
                         + "usage: formulary \(command.usage)", helpCommand: command.name)
    }
}
