import FormularyKit
import FormularyRules

/// `formulary check TYPE[(PARAMS)] VALUE... [--live]`
struct CheckCommand: Command {
    static let live = Flag("live", help: "Judges the values as prefixes typed so far.")
    static let type = Argument("TYPE", spelling: "TYPE[(PARAMS)]",
                               help: "A field type, with parameters in parentheses if any: age, 'age(min: 18)'.",
                               completion: .registry(.types))
    static let value = Argument("VALUE", help: "A value to check; each is judged on its own.", isRepeating: true)
    static let spec = CommandSpec(
        path: ["check"],
        abstract: "Validates values with a field type, one result per value.",
        discussion: """
        Each value is normalized, formatted with the type's mask and checked. The final stage
        (the default) judges a complete value: valid or invalid. With --live, each value is
        judged as a prefix still being typed: valid, incomplete (some completion would pass)
        or invalid (none would). Values of secure types are shown as •••.

        Exit status: 0 when no value has an error, 1 when some value is invalid, 2 when the
        type cannot be used. Put '--' before values that start with '-'.
        """,
        options: [live],
        arguments: [type, value],
        examples: [
            "formulary check credit-card \"4111 1111 1111 1111\"",
            "formulary check 'age(min: 18)' 17 42",
            "formulary check --live exp-date 1",
            "formulary --format json check email ada@example.com",
        ])

    let typeText: String
    let values: [String]
    let stage: Stage
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        typeText = try arguments.value(Self.type)
        values = arguments.values(Self.value)
        stage = arguments[Self.live] ? .live : .final
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let report = try CheckService(workspace: context.workspace)
            .check(typeText, values: values, stage: stage, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: report.jsonLines)
        } else {
            let style = context.style
            let rows = report.values.map { checked -> [TextTable.Cell] in
                let result = checked.result
                let verdict: TextTable.Cell
                switch result.verdict {
                case .valid: verdict = TextTable.Cell("valid", paint: style.green)
                case .incomplete: verdict = TextTable.Cell("incomplete", paint: style.yellow)
                case .invalid: verdict = TextTable.Cell("invalid", paint: style.red)
                }
                let problems = result.violations.map {
                    ($0.severity == .warning ? "warning " : "") + "\($0.rule): \($0.message)"
                }.joined(separator: "; ")
                let display = result.isAbsent ? "(empty: no check runs)" : Self.quoted(result.formatted)
                return [verdict, TextTable.Cell(display), TextTable.Cell(problems)]
            }
            context.stdout.write(TextTable(cells: rows).render())
        }
        return report.anyInvalid ? .violations : .success
    }

    /// The value in quotes, with control characters escaped, so that white space and
    /// invisible characters can be seen.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
