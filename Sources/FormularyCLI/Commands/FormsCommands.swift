import FormularyJSON
import FormularyKit
import FormularyRules
import FormularyStore

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
        let store = context.databaseExists ? try context.openStore() : nil
        let registry = try context.loadRegistry(store: store)
        var rows: [[String]] = []
        var w = JSONWriter()
        w.array { a in
            for name in registry.forms.keys.sorted() {
                let entry = registry.forms[name]!
                let version = entry.form.map { Registry.version(of: $0) }
                let count = (try? store?.entryCount(form: name)) ?? 0
                rows.append([name, version.map { String($0.prefix(12)) } ?? "broken", entry.source.description,
                             String(entry.form?.fields.count ?? 0), String(count)])
                a.object { o in
                    o.field("name", name)
                    if let version { o.field("version", version) } else { o.nullField("version") }
                    o.field("source", entry.source.kind)
                    o.field("location", entry.source.description)
                    o.field("fields", entry.form?.fields.count ?? 0)
                    o.field("entries", count)
                }
            }
        }
        if format == .json {
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            context.stdout.write(TextTable(header: ["NAME", "VERSION", "SOURCE", "FIELDS", "ENTRIES"], rows: rows).render())
        }
        return .success
    }
}

/// `formulary forms show NAME`
struct FormsShowCommand: Command {
    static let spec = CommandSpec(
        path: ["forms", "show"],
        abstract: "Shows a form's fields, types and rules, and its version.",
        arguments: [ArgumentSpec(name: "NAME", help: "The form's name, as 'forms list' shows it.")],
        examples: ["formulary forms show signup"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.positional("NAME")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = context.databaseExists ? try context.openStore() : nil
        let registry = try context.loadRegistry(store: store)
        guard let entry = registry.forms[name] else {
            throw CommandFailure(status: .badInput, message: "unknown form '\(name)'"
                + (Suggestion.nearest(to: name, in: registry.forms.keys.sorted())
                    .map { "; did you mean '\($0)'?" } ?? "; 'formulary forms list' shows the forms there are"))
        }
        guard let form = entry.form, !entry.diagnostics.containsErrors else {
            throw CommandFailure(status: .badInput, message: "form '\(name)' has errors",
                                 details: context.render(entry.diagnostics))
        }
        let version = Registry.version(of: form)
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("name", name)
                o.field("version", version)
                o.field("source", entry.source.kind)
                o.field("location", entry.source.description)
                o.fieldIfPresent("label", form.label)
                o.array("fields") { a in
                    for f in form.fields {
                        a.object { fo in
                            fo.field("key", f.key)
                            fo.field("type", f.type.description)
                            fo.field("required", f.required)
                            fo.fieldIfPresent("label", f.label)
                        }
                    }
                }
                o.field("definition", form.canonicalSource)
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
            return .success
        }
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
                }
            }
        }
        return .success
    }
}
