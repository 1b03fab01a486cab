import FormularyKit
import FormularyRules
import FormularyStore

/// `formulary forms add FILE... [--add-types]`
struct FormsAddCommand: Command {
    static let spec = CommandSpec(
        path: ["forms", "add"],
        abstract: "Checks forms and stores each as a new version (audited).",
        discussion: """
        Each file must declare one form. A form that names an unknown type or parameter, a
        field twice, or a rule over undeclared fields is refused with file:line:column. Forms
        are versioned like types: by the SHA-256 of their canonical definition, in one
        transaction for all the files.

        A form stored in the database must work without the plugin folders of the moment:
        one that uses a type found only in a folder (FORMULARY_PATH or --plugins), or a
        folder's version of a type, is refused, naming each such type and its file. Store
        them first with 'formulary types add FILE', or pass --add-types: then those types
        (and the folder types they extend) are linted, self-tested and stored as database
        types in the same transaction as the forms, each audited as 'types add' does.
        """,
        options: [
            .flag("add-types", help: "Also stores the plugin-folder types the forms use, as 'types add' would."),
        ],
        arguments: [ArgumentSpec(name: "FILE", help: "A .form file declaring one form.", isRepeating: true,
                                 completion: .files)],
        formats: [.text],
        examples: ["formulary forms add signup.form", "formulary --plugins my-types forms add orders.form --add-types"])

    let files: [String]
    let addTypes: Bool
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.positionals("FILE")
        addTypes = arguments.flag("add-types")
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore(.write)
        let (forms, registry) = try DefinitionFiles.check(files, kind: .form, context: context, store: store)
        let types = try folderTypes(of: forms, in: registry, store: store)
        let outcomes = try store.transaction {
            try types.map { try store.addVersion(.type, name: $0.name, source: $0.source, actor: context.actor) }
                + forms.map { try store.addVersion(.form, name: $0.name, source: $0.source, actor: context.actor) }
        }
        DefinitionFiles.report(Array(outcomes.prefix(types.count)), noun: "type", to: context.stdout)
        DefinitionFiles.report(Array(outcomes.dropFirst(types.count)), noun: "form", to: context.stdout)
        return .success
    }

    /// The plugin-folder types the forms need, admitted as `types add` admits them (with
    /// `--add-types`); without it, a refusal naming them.
    private func folderTypes(of forms: [Admitted], in registry: Registry, store: Store) throws -> [Admitted] {
        let stored = Dictionary(try store.currentVersions(.type).map { ($0.name, $0.source) }, uniquingKeysWith: { a, _ in a })
        var needed: [(form: String, entry: Registry.TypeEntry)] = []
        for form in forms {
            for entry in registry.folderTypes(usedBy: form.name, databaseSources: stored)
            where !needed.contains(where: { $0.entry.name == entry.name }) {
                needed.append((form.name, entry))
            }
        }
        guard !needed.isEmpty else { return [] }
        guard addTypes else {
            let rows = needed.map { item -> [String] in
                let origin = if case .folder(let f) = item.entry.source, f.origin == .environment { "FORMULARY_PATH" } else { "--plugins" }
                let hidden = item.entry.overrides.first.map { ", overriding the \($0) one" } ?? ""
                return ["  " + item.entry.name, item.entry.file, "(from \(origin)\(hidden); used by form \(item.form))"]
            }
            let files = needed.map(\.entry.file).joined(separator: " ")
            let one = needed.count == 1
            throw CommandFailure(
                status: .badInput,
                message: "nothing was stored: the form\(forms.count == 1 ? "" : "s") use\(forms.count == 1 ? "s" : "") "
                    + "\(one ? "a type" : "types") that only a plugin folder holds, so a later command without that folder "
                    + "could not use \(forms.count == 1 ? "it" : "them") the same way. Store \(one ? "it" : "them") first "
                    + "with 'formulary types add \(files)', or pass --add-types to store \(one ? "it" : "them") with the form\(forms.count == 1 ? "" : "s")",
                details: TextTable(rows: rows).render())
        }
        let today = try context.today()
        var problems: [Diagnostic] = []
        var failures: [String] = []
        var admitted: [Admitted] = []
        for (_, entry) in needed {
            switch registry.admit(type: entry.name, today: today) {
            case .success(let type):
                problems += type.warnings
                admitted.append(type)
            case .failure(let why):
                problems += why.diagnostics
                failures += why.failedSelfTests
            }
        }
        if problems.containsErrors || !failures.isEmpty {
            throw CommandFailure(status: .badInput,
                                 message: "nothing was stored: a type the form\(forms.count == 1 ? "" : "s") use\(forms.count == 1 ? "s" : "") (--add-types) has problems",
                                 details: context.render(problems) + failures.map { $0 + "\n" }.joined())
        }
        if !problems.isEmpty { context.stderr.write(context.render(problems)) }   // warnings
        return admitted
    }
}
