/// What the completion scripts know, read from the command specs: the command names, each
/// command's options and what each option's value and each positional can be.
///
/// Every script works the same way, in its shell's words: it walks the words before the
/// cursor, keeping those that are neither options nor option values (after `--`, all of
/// them); finds the command those words name (two words first, as the parser does); then
/// offers the value of the option just before the cursor, or options when the word begins
/// with `-`, or command names, or what the command's positional at that place takes.
struct CompletionModel {
    /// A word to offer and the line that describes it (zsh and fish show it).
    struct Word: Equatable {
        var name: String
        var help: String
    }

    /// The visible commands (hidden ones are neither offered nor recognized).
    let specs: [CommandSpec]

    init(specs: [CommandSpec]) {
        self.specs = specs.filter { !$0.isHidden }
    }

    /// The words that can follow `formulary`: one-word commands and groups, in the order
    /// of the command list.
    var topLevel: [Word] {
        var words: [Word] = []
        for spec in specs where !words.contains(where: { $0.name == spec.path[0] }) {
            if let single = specs.first(where: { $0.path == [spec.path[0]] }) {
                words.append(Word(name: single.path[0], help: single.abstract))
            } else {
                let subs = subcommands(of: spec.path[0]).map(\.name).joined(separator: ", ")
                words.append(Word(name: spec.path[0], help: "Subcommands: \(subs)."))
            }
        }
        return words
    }

    /// The groups (first words of two-word commands), each with its subcommands.
    var groups: [(name: String, subcommands: [Word])] {
        topLevel.map(\.name).compactMap { name in
            let subs = subcommands(of: name)
            return subs.isEmpty ? nil : (name, subs)
        }
    }

    func subcommands(of group: String) -> [Word] {
        specs.filter { $0.path.count == 2 && $0.path[0] == group }.map { Word(name: $0.path[1], help: $0.abstract) }
    }

    /// Commands named by one word, and by two.
    var singleWordCommands: [String] { specs.filter { $0.path.count == 1 }.map(\.name) }
    var twoWordCommands: [String] { specs.filter { $0.path.count == 2 }.map(\.name) }

    /// The options of `spec` (its own first, then the global ones it does not declare
    /// again), or the global ones before a command is known.
    func options(of spec: CommandSpec?) -> [OptionSpec] {
        let own = spec?.options ?? []
        return own + OptionSpec.globals.filter { global in !own.contains { $0.name == global.name } }
    }

    /// Every option name, anywhere, that takes a value: while walking the words the
    /// scripts do not know the command yet, so the next word after any of these is its
    /// value. (`CompletionModel.conflicts` lists names that are a flag in one command and
    /// take a value in another; there are none, and a test keeps it so.)
    var valueOptionNames: [String] {
        var names: [String] = []
        for option in specs.flatMap({ options(of: $0) }) + OptionSpec.globals
        where option.takesValue && !names.contains(option.name) {
            names.append(option.name)
        }
        return names
    }

    /// Option names that take a value in one place and not in another.
    var conflicts: [String] {
        let all = specs.flatMap { options(of: $0) }
        return Set(all.map(\.name)).filter { name in
            Set(all.filter { $0.name == name }.map(\.takesValue)).count > 1
        }.sorted()
    }

    /// What the value of `option` can be in `spec`: `--format` offers the command's own
    /// formats (all of them before the command is known).
    func valueCompletion(of option: OptionSpec, in spec: CommandSpec?) -> CompletionKind {
        if option.name == "format", let spec { return .values(spec.formats.map(\.rawValue)) }
        return option.completion
    }

    /// For each positional that offers something, the first index it takes and whether it
    /// takes every index from there on.
    func positionalCompletions(of spec: CommandSpec) -> [(index: Int, repeats: Bool, kind: CompletionKind)] {
        var result: [(Int, Bool, CompletionKind)] = []
        for (index, argument) in spec.arguments.enumerated() where argument.completion != .none {
            result.append((index, argument.isRepeating, argument.completion))
        }
        // A one-word command that is also a group (`audit`, `audit verify`) offers the
        // subcommands where its first positional would go.
        if spec.path.count == 1, spec.arguments.isEmpty {
            let subs = subcommands(of: spec.path[0]).map(\.name)
            if !subs.isEmpty { result.append((0, false, .values(subs))) }
        }
        return result
    }
}

extension String {
    /// The text inside single quotes for sh, bash and zsh: `'` becomes `'\''`.
    var singleQuotedForShell: String { "'" + replacing("'", with: "'\\''") + "'" }

    /// The text inside single quotes for fish, where `\` and `'` are escaped with `\`.
    var singleQuotedForFish: String {
        "'" + replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
