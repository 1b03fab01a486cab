/// The command line after parsing: which command, its options and its positionals.
///
/// The accessors take the names the command's spec declares: `value("limit", as: Count.self)`,
/// `positional("TYPE")`, `positionals("VALUE")`. A typed value that does not convert is a
/// usage error naming the option (or argument), the value and what to write instead.
struct ParsedArguments: Sendable {
    var commandPath: [String] = []
    /// The command's spec; nil for the root or a group (`formulary types`).
    var spec: CommandSpec?
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    /// The command's name, for "See 'formulary NAME --help'".
    private var helpCommand: String { commandPath.joined(separator: " ") }

    func flag(_ name: String) -> Bool {
        assertDeclared(option: name)
        return flags.contains(name)
    }

    /// The option's value as typed (the last one, for a global option given twice).
    func value(_ name: String) -> String? {
        assertDeclared(option: name)
        return values[name]?.last
    }

    /// The value of an option the spec declares required; a usage error when it is missing
    /// (which the parser has already ruled out).
    func required(_ name: String) throws(UsageError) -> String {
        guard let text = value(name) else {
            let valueName = spec?.options.first { $0.name == name }?.valueName.map { " " + $0 } ?? ""
            throw UsageError(message: "missing --\(name)\(valueName)" + (spec.map { "; usage: formulary \($0.usage)" } ?? ""),
                             helpCommand: helpCommand)
        }
        return text
    }

    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] {
        assertDeclared(option: name)
        return values[name] ?? []
    }

    /// The option's value converted to `type`, or nil when the option was not given.
    /// `expecting` replaces the type's usual advice where the option means more
    /// (`--limit`: "0 for all").
    func value<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type,
                                             expecting: String? = nil) throws(UsageError) -> Value? {
        guard let text = value(name) else { return nil }
        return try convert(text, as: type, shown: "--\(name) '\(text)'", expecting: expecting)
    }

    /// The positional the spec calls `name`; a usage error when it is missing (which the
    /// parser has already ruled out for required ones).
    func positional(_ name: String) throws(UsageError) -> String {
        guard let text = positionals(name).first else {
            throw UsageError(message: "missing \(name)" + (spec.map { "; usage: formulary \($0.usage)" } ?? ""),
                             helpCommand: helpCommand)
        }
        return text
    }

    /// The positional the spec calls `name`, converted to `type`.
    func positional<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type) throws(UsageError) -> Value {
        let text = try positional(name)
        return try convert(text, as: type, shown: "'\(text)'", expecting: nil)
    }

    /// Every positional the spec's `name` takes: one (or none, when optional and not
    /// given), or all from its place on when it repeats.
    func positionals(_ name: String) -> [String] {
        guard let spec, let index = spec.arguments.firstIndex(where: { $0.name == name }) else {
            assertionFailure("'\(name)' is no argument of '\(helpCommand)'")
            return []
        }
        guard index < positionals.count else { return [] }
        return spec.arguments[index].isRepeating ? Array(positionals[index...]) : [positionals[index]]
    }

    private func convert<Value: ExpressibleByArgument>(_ text: String, as type: Value.Type, shown: String,
                                                       expecting: String?) throws(UsageError) -> Value {
        do {
            return try Value.converting(text)
        } catch {
            throw UsageError(message: Value.refusal(of: shown, error, expecting: expecting), helpCommand: helpCommand)
        }
    }

    /// A name the spec does not declare is a mistake in the command's code: the option
    /// could never be given, so the code reading it would never run.
    private func assertDeclared(option name: String) {
        assert(OptionSpec.globals.contains { $0.name == name } || spec == nil
               || spec!.options.contains { $0.name == name }, "--\(name) is no option of '\(helpCommand)'")
    }
}

/// A usage error: exit status 2, with a hint at the command's help.
struct UsageError: Error, Sendable {
    var message: String
    var helpCommand: String?   // e.g. "check" → "See 'formulary check --help'."
}
