import FormularyKit
import FormularyRules

/// `formulary forms list`
struct FormsListCommand: Command {
    static let spec = CommandSpec(
        path: ["forms", "list"],
        abstract: "Lists every form: name, version, source, fields, entries.",
        discussion: "Forms come from the database ('forms add') and from plugin folders, which override it.",
        examples: ["formulary forms list"])

    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let forms = try RegistryService(workspace: context.workspace).forms()
        if format == .json {
            context.stdout.write(bytes: forms.jsonDocument)
        } else {
            let rows = forms.map { form in
                [form.name, form.version.map { String($0.prefix(12)) } ?? "broken", form.source.description,
                 String(form.fields), String(form.entries)]
            }
            context.stdout.write(TextTable(header: ["NAME", "VERSION", "SOURCE", "FIELDS", "ENTRIES"], rows: rows).render())
        }
        return .success
    }
}

/// `formulary forms show NAME`
struct FormsShowCommand: Command {
    static let name = Argument("NAME", help: "The form's name, as 'forms list' shows it.",
                               completion: .registry(.forms))
    static let spec = CommandSpec(
        path: ["forms", "show"],
        abstract: "Shows a form's fields, types and rules, and its version.",
        arguments: [name],
        examples: ["formulary forms show signup"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let description = try RegistryService(workspace: context.workspace).describe(form: name)
        if format == .json {
            context.stdout.write(bytes: description.jsonDocument)
            return .success
        }
        let (entry, form, version) = (description.entry, description.form, description.version)
        context.stdout.write(TextTable(rows: [
            ["name", name], ["version", version], ["source", "\(entry.source) (\(entry.file))"],
        ] + (form.label.map { [["label", $0]] } ?? [])).render())
        context.stdout.line()
        context.stdout.write(TextTable(header: ["FIELD", "TYPE", "REQUIRED", "LABEL"], rows: form.fields.map {
            [$0.key, $0.type.description, $0.required ? "yes" : "", $0.label ?? ""]
        }).render())
        if !form.rules.isEmpty {
            context.stdout.line()
            for rule in form.rules {
                switch rule.kind {
                case .same(let a, let b): context.stdout.line("rule \(rule.options.name): same \(a) \(b)".forTerminal)
                case .require(let xs, let y):
                    context.stdout.line("rule \(rule.options.name): require \(xs.joined(separator: " ")) when \(y)".forTerminal)
                case .compare(let a, let op, let b):
                    context.stdout.line("rule \(rule.options.name): compare \(a) \(op.rawValue) \(b)".forTerminal)
                case .unique(let xs):
                    context.stdout.line("rule \(rule.options.name): unique \(xs.joined(separator: ", "))".forTerminal)
                }
            }
        }
        return .success
    }
}
