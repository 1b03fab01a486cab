import FormularyKit
import FormularyRules

/// `formulary forms judge NAME KEY=VALUE... [--live]`
struct FormsJudgeCommand: Command {
    static let live = Flag("live", help: "Judges the values as typed so far.")
    static let name = Argument("NAME", help: "The form's name, as 'forms list' shows it.",
                               completion: .registry(.forms))
    static let field = Argument("FIELD", spelling: "KEY=VALUE", help: "A field's key and value.", isOptional: true,
                                isRepeating: true)
    static let spec = CommandSpec(
        path: ["forms", "judge"],
        abstract: "Judges one filled-in form: each field's verdict, the form's rules, unknown keys.",
        discussion: """
        Each KEY=VALUE gives the value of one field (split at the first '='); a field not
        given is absent, as is an empty value. The final stage (the default) judges a
        submitted form: every field's type, 'required', the cross-field rules (except
        'unique', which needs the stored entries) and unknown keys, as 'validate' judges a
        stored entry. With --live, each value is judged as typed so far and 'required' and
        the cross-field rules wait. --format json prints the document that
        POST /v1/forms/NAME/judge answers, byte for byte. A value of a secure type is never
        printed: its formatted value is shown as •••.

        Exit status: 0 when no rule of error severity failed, 1 when one did, 2 for an
        unknown form or an argument that is not KEY=VALUE. Put '--' before arguments that
        start with '-'.
        """,
        options: [live],
        arguments: [name, field],
        examples: [
            "formulary forms judge signup name=Ada email=ada@example.com age=17",
            "formulary --format json forms judge signup email=ada@example",
        ])

    let name: String
    let values: [String: String]
    let stage: Stage
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        var values: [String: String] = [:]
        for argument in arguments.values(Self.field) {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw UsageError(message: "'\(argument)' is not KEY=VALUE (e.g. email=ada@example.com)",
                                 helpCommand: "forms judge")
            }
            let key = String(argument[..<equals])
            guard values[key] == nil else {
                throw UsageError(message: "the field '\(key)' is given twice; give each field once", helpCommand: "forms judge")
            }
            values[key] = String(argument[argument.index(after: equals)...])
        }
        self.values = values
        stage = arguments[Self.live] ? .live : .final
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let judgement = try JudgeService(workspace: context.workspace)
            .judge(form: name, values: values, stage: stage, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: judgement.jsonDocument)
        } else {
            text(judgement)
        }
        return judgement.isInvalid ? .violations : .success
    }

    /// One row per field (verdict, formatted value, problems), then the form's own rules,
    /// the unknown keys and the verdict.
    private func text(_ judgement: JudgeService.Judgement) {
        let style = context.style
        let result = judgement.result
        var rows: [[TextTable.Cell]] = []
        for key in judgement.fieldKeys {
            guard let field = result.fields[key] else { continue }
            let verdict: TextTable.Cell = switch field.verdict {
            case .valid: TextTable.Cell("valid", paint: style.green)
            case .incomplete: TextTable.Cell("incomplete", paint: style.yellow)
            case .invalid: TextTable.Cell("invalid", paint: style.red)
            }
            let shown = field.isAbsent ? "(empty)"
                : judgement.secureFields.contains(key) ? RunReport.secureMask : CheckCommand.quoted(field.formatted)
            let problems = field.violations.map {
                ($0.severity == .warning ? "warning " : "") + "\($0.rule): \($0.message)"
            }.joined(separator: "; ")
            rows.append([TextTable.Cell(key.forTerminal), verdict, TextTable.Cell(shown.forTerminal), TextTable.Cell(problems.forTerminal)])
        }
        context.stdout.write(TextTable(cells: rows).render())
        for v in result.formViolations {
            let severity = v.severity == .warning ? "warning" : "error"
            context.stdout.line("\(severity): \(v.field.map { "\($0): " }?.forTerminal ?? "")\(v.rule): \(v.message.forTerminal)")
        }
        if !result.unknownFields.isEmpty {
            context.stdout.line("unknown fields: \(result.unknownFields.map(\.forTerminal).joined(separator: ", "))")
        }
        context.stdout.line("verdict: \(result.verdict.rawValue)")
    }
}
