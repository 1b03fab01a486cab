import FormularyJSON
import FormularyKit
import FormularyRules
import FormularyStore

/// `formulary types add FILE...`
struct TypesAddCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "add"],
        abstract: "Lints and self-tests types, then stores each as a new version (audited).",
        discussion: """
        Each file must declare one field type. It is linted (as 'types lint' does), its
        accept/reject examples are run, and only when every file passes are the types stored,
        all in one transaction: each as a new version keyed by the SHA-256 of its resolved
        definition. Adding a definition that is already current changes nothing and says so.
        Database types override built-in ones of the same name and are overridden by plugin
        folders.

        Exit status: 0 when stored (or unchanged), 2 when a file has errors or failing examples.
        """,
        arguments: [ArgumentSpec(name: "FILE", help: "A .field file declaring one type.", isRepeating: true,
                                 completion: .files)],
        formats: [.text],
        examples: ["formulary types add my-types/visa.field"])

    let files: [String]
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.positionals("FILE")
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore(.write)
        let checked = try DefinitionFiles.check(files, kind: .type, context: context, store: store).admitted
        let outcomes = try store.transaction {
            try checked.map { try store.addVersion(.type, name: $0.name, source: $0.source, actor: context.actor) }
        }
        DefinitionFiles.report(outcomes, noun: "type", to: context.stdout)
        return .success
    }
}

/// What `types add` and `forms add` share: reading, linting and self-testing the files.
enum DefinitionFiles {
    /// The definitions of `files`, admitted, and the registry they were checked in (the
    /// command's, with the files added).
    static func check(_ files: [String], kind: DefinitionKind, context: CommandContext,
                      store: Store) throws -> (admitted: [Admitted], registry: Registry) {
        let pluginFiles = try context.readPluginFiles(files)
        let registry = try context.loadRegistry(extraFiles: pluginFiles, store: store)
        let today = try context.today()
        // Files often share a problem (every type below a too-deep chain has the same one):
        // each is said once, with how many types it stops.
        var problems = DiagnosticDigest()
        var failures: [String] = []
        var checked: [Admitted] = []
        for path in files {
            let typeEntries = registry.types(inFile: path)
            let formEntries = registry.forms(inFile: path)
            let outcome: Result<Admitted, AdmissionProblems>
            let name: String
            switch kind {
            case .type:
                guard let entry = typeEntries.first else {
                    let what = formEntries.isEmpty ? "declares no field type" : "is a form; use 'formulary forms add'"
                    failures.append("\(path) \(what)")
                    continue
                }
                name = entry.name
                outcome = registry.admit(type: entry.name, today: today)
            case .form:
                guard let entry = formEntries.first else {
                    let what = typeEntries.isEmpty ? "declares no form" : "is a field type; use 'formulary types add'"
                    failures.append("\(path) \(what)")
                    continue
                }
                name = entry.name
                outcome = registry.admit(form: entry.name)
            }
            switch outcome {
            case .success(let admitted):
                problems.add(admitted.warnings, of: name)
                checked.append(admitted)
            case .failure(let why):
                problems.add(why.diagnostics, of: name)
                failures += why.failedSelfTests
            }
        }
        if problems.containsErrors || !failures.isEmpty {
            let details = problems.render() + failures.map { $0 + "\n" }.joined()
            let count = files.count
            throw CommandFailure(status: .badInput,
                                 message: "nothing was stored: \(count == 1 ? "the file has" : "the files have") problems",
                                 details: details)
        }
        if !problems.isEmpty { context.stderr.write(problems.render()) }   // warnings
        return (checked, registry)
    }

    static func report(_ outcomes: [AddOutcome], noun: String, to out: OutputStream) {
        for outcome in outcomes {
            let v = outcome.version
            switch outcome {
            case .unchanged:
                out.line("\(v.name.forTerminal): unchanged; version \(v.shortHash) is already the current \(noun)")
            case .added(_, let isNew, let previous):
                let was = previous.map { " (was \($0.shortHash))" } ?? ""
                out.line("\(v.name.forTerminal): added \(isNew ? "new " : "earlier ")version \(v.shortHash)\(was)")
            }
        }
    }
}
