import FormularyKit
import FormularyRules

/// `formulary forms add FILE... [--add-types]`
struct FormsAddCommand: Command {
    static let addTypes = Flag("add-types",
                               help: "Also stores the plugin-folder types the forms use, as 'types add' would.")
    static let file = Argument("FILE", help: "A .form file declaring one form.", isRepeating: true, completion: .files)
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
        options: [addTypes],
        arguments: [file],
        formats: [.text],
        examples: ["formulary forms add signup.form", "formulary --plugins my-types forms add orders.form --add-types"])

    let files: [String]
    let addTypes: Bool
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.values(Self.file)
        addTypes = arguments[Self.addTypes]
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let stderr = context.stderr
        let admission = try RegistryService(workspace: context.workspace)
            .addForms(files, addTypes: addTypes, today: try context.today()) { stderr.write(CommandContext.render($0)) }
        DefinitionFiles.report(admission.types, noun: "type", to: context.stdout)
        DefinitionFiles.report(admission.forms, noun: "form", to: context.stdout)
        return .success
    }
}
