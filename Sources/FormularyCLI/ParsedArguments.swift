/// The command line after parsing: which command, its options and its positionals.
///
/// Read through the keys the command's spec declares (``OptionKey``): `arguments[Self.live]`,
/// `arguments[Self.form]`, `try arguments.value(Self.run)`, `try arguments.value(Self.type)`,
/// `arguments.values(Self.value)`. A typed value that does not convert is a usage error
/// naming the option (or argument), the value and what to write instead.
struct ParsedArguments: Sendable {
    var commandPath: [String] = []
    /// The command's spec; nil for the root or a group (`formulary types`).
    var spec: CommandSpec?
    /// What the parser found, by the names the specs declare.
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    /// The command's name, for "See 'formulary NAME --help'".
    private var helpCommand: String { commandPath.joined(separator: " ") }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool {
        assertDeclared(flag.spec)
        return flags.contains(flag.spec.name)
    }

    /// The option's value as typed (the last one, for a global option given twice).
    subscript(option: Option<String>) -> String? {
        assertDeclared(option.spec)
        return values[option.spec.name]?.last
    }

    /// Every value of a repeatable option, in order.
    func all(_ option: Option<String>) -> [String] {
        assertDeclared(option.spec)
        return values[option.spec.name] ?? []
    }

    /// The option's value converted to its type, or nil when the option was not given.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        assertDeclared(option.spec)
        guard let text = values[option.spec.name]?.last else { return nil }
        return try convert(text, as: Value.self, shown: "--\(option.spec.name) '\(text)'", expecting: option.expecting)
    }

    /// The value of an option the spec declares required; a usage error when it is missing
    /// (which the parser has already ruled out).
    func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = try value(option) else {
            let valueName = option.spec.valueName.map { " " + $0 } ?? ""
            throw UsageError(message: "missing --\(option.spec.name)\(valueName)" + (spec.map { "; usage: formulary \($0.usage)" } ?? ""),
                             helpCommand: helpCommand)
        }
        return value
    }

    /// The positional, converted to its type; a usage error when it is missing (which the
    /// parser has already ruled out for required ones).
    func value<Value>(_ argument: Argument<Value>) throws(UsageError) -> Value {
        guard let text = values(argument).first else {
            throw UsageError(message: "missing \(argument.spec.name)" + (spec.map { "; usage: formulary \($0.usage)" } ?? ""),
                             helpCommand: helpCommand)
        }
        return try convert(text, as: Value.self, shown: "'\(text)'", expecting: nil)
    }

    /// Every positional the argument takes, as typed: one (or none, when optional and not
    /// given), or all from its place on when it repeats.
    func values<Value>(_ argument: Argument<Value>) -> [String] {
        guard let spec, let index = spec.arguments.firstIndex(of: argument.spec) else {
            assertionFailure("'\(argument.spec.name)' is no argument of '\(helpCommand)'")
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

    /// A key the spec does not list is a mistake in the command's code (another command's
    /// key): the option could never be given, so the code reading it would never run.
    private func assertDeclared(_ option: OptionSpec) {
        assert(OptionSpec.globals.contains(option) || spec == nil || spec!.options.contains(option),
               "--\(option.name) is no option of '\(helpCommand)'")
    }
}

/// A usage error: exit status 2, with a hint at the command's help.
struct UsageError: Error, Sendable {
    var message: String
    var helpCommand: String?   // e.g. "check" → "See 'formulary check --help'."
}
