import FormularyJSON
import FormularyKit
import FormularyRules

/// `formulary format TYPE[(PARAMS)] VALUE...`
struct FormatCommand: Command {
    static let spec = CommandSpec(
        path: ["format"],
        abstract: "Prints each value's canonical, formatted form.",
        usage: "format TYPE[(PARAMS)] VALUE...",
        discussion: """
        Runs the type's normalization and lays the value into its mask, one line per value.
        Formatting never drops a character: a value that does not fit the mask keeps its
        extra characters (use 'formulary check' to see why it fails). Empty values print
        as empty lines. Values of secure types print as •••.
        """,
        positionals: 2...Int.max,
        positionalName: "TYPE and at least one VALUE",
        missingAfterFirst: "at least one VALUE",
        examples: ["formulary format phone 5551234567", "formulary format iban de89370400440532013000"])

    let typeText: String
    let values: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        typeText = arguments.positionals[0]
        values = Array(arguments.positionals.dropFirst())
        format = try context.format(offered: [.text, .json])
        self.context = context
    }

    func run() throws -> ExitStatus {
        let type = try context.compiledType(typeText, in: try context.loadRegistry())
        for value in values {
            let formatted = type.definition.secure ? "•••" : type.format(value)
            if format == .json {
                var w = JSONWriter()
                w.object { o in
                    o.field("type", typeText)
                    o.field("value", type.definition.secure ? "•••" : value)
                    o.field("formatted", formatted)
                }
                w.newline()
                context.stdout.write(bytes: w.bytes)
            } else {
                context.stdout.line(formatted.forTerminal)
            }
        }
        return .success
    }
}
