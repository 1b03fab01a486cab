import FormularyKit
import FormularyRules

/// `formulary format TYPE[(PARAMS)] VALUE...`
struct FormatCommand: Command {
    static let type = Argument("TYPE", spelling: "TYPE[(PARAMS)]",
                               help: "A field type, with parameters in parentheses if any: phone, 'decimal(places: 2)'.",
                               completion: .registry(.types))
    static let value = Argument("VALUE", help: "A value to format; one line each.", isRepeating: true)
    static let spec = CommandSpec(
        path: ["format"],
        abstract: "Prints each value's canonical, formatted form.",
        discussion: """
        Runs the type's normalization and lays the value into its mask, one line per value.
        Formatting never drops a character: a value that does not fit the mask keeps its
        extra characters (use 'formulary check' to see why it fails). Empty values print
        as empty lines. Values of secure types print as •••.
        """,
        arguments: [type, value],
        examples: ["formulary format phone 5551234567", "formulary format iban de89370400440532013000"])

    let typeText: String
    let values: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        typeText = try arguments.value(Self.type)
        values = arguments.values(Self.value)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let formatted = try CheckService(workspace: context.workspace)
            .format(typeText, values: values, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: formatted.jsonLines)
        } else {
            for value in formatted { context.stdout.line(value.formatted.forTerminal) }
        }
        return .success
    }
}
