import FormularyRules
import FormularyStore

/// Formulary's main job end to end, on a throw-away database: register the built-in types
/// and the sample sign-up form, import the bundled sample (320 sign-ups, about one in five
/// with a realistic mistake), validate, and write the report.
///
/// Everything goes through the same code as the commands (`types add`, `forms add`,
/// `import`, `validate`, `report`), so the demo is also a smoke test of the whole stack.
package struct Demo {
    /// What the demo did and where it left its files.
    package struct Outcome: Sendable {
        /// The throw-away database.
        package var databasePath: String
        /// The HTML report it wrote.
        package var htmlReportPath: String
        /// How many built-in types were added to the database.
        package var typesRegistered: Int
        /// How many of their accept/reject examples passed.
        package var selfTestsPassed: Int
        /// The sample form's name.
        package var form: String
        /// How many fields the sample form has.
        package var formFields: Int
        /// What importing the sample gave.
        package var imported: Importer.Summary
        /// The validation run.
        package var run: RunRecord
        /// The run's report.
        package var report: RunReport
    }

    /// A step of the demo, for progress output.
    package enum Step: Sendable {
        case registeredTypes(count: Int, selfTests: Int)
        case registeredForm(name: String, fields: Int)
        case imported(records: Int, file: String)
        case validated(RunRecord)
    }

    /// The name the sample sign-ups are written under in the demo's folder.
    package static let sampleFileName = "signup-sample.csv"

    /// Runs the demo in `folder` (which must exist and should be empty).
    package static func run(in folder: String, today: CivilDate, actor: String,
                           step: (Step) -> Void = { _ in }) throws -> Outcome {
        let databasePath = folder + "/demo.db"
        let store = try Store(path: databasePath)
        try store.migrate()

        // 1. The built-in types, each linted and self-tested as `types add` does.
        let builtins = try Registry.load(folders: [])
        var selfTests = 0
        for name in builtins.typeNames {
            let admitted = try builtins.admit(type: name, today: today).get()
            if case .success(let type) = builtins.compile(TypeReference(name: name, location: .unknown), today: today) {
                selfTests += SelfTests.run(type).count
            }
            _ = try store.addVersion(.type, name: name, source: admitted.source, actor: actor)
        }
        step(.registeredTypes(count: builtins.typeNames.count, selfTests: selfTests))

        // 2. The sample form, checked against the registry as `forms add` does.
        let formFile = PluginFile(path: "demo/signup.form", bytes: Array(file("signup.form").utf8),
                                  source: .folder(PluginFolder(path: "demo", origin: .option)))
        let withForm = try Registry.load(folders: [], store: store, extraFiles: [formFile])
        guard let formName = withForm.forms.values.first(where: { $0.file == formFile.path })?.name else {
            throw DemoError("the bundled sample form declares no form")
        }
        let admittedForm = try withForm.admit(form: formName).get()
        _ = try store.addVersion(.form, name: formName, source: admittedForm.source, actor: actor)
        let registry = try Registry.load(folders: [], store: store)
        let fields = registry.forms[formName]?.form?.fields.count ?? 0
        step(.registeredForm(name: formName, fields: fields))

        // 3. The sample entries.
        let reader = CSVReader(source: MemoryByteSource(file(sampleFileName)), fileName: sampleFileName)
        let imported = try Importer(options: .init(form: formName, actor: actor)).run(reader, into: store)
        step(.imported(records: imported.records, file: sampleFileName))

        // 4. Validation and its report.
        let run = RunRecord(try ValidationRun(store: store, registry: registry,
                                              options: ValidationOptions(forms: [formName], today: today, actor: actor)).run())
        step(.validated(run))
        let report = try RunReport.load(run: run.id, from: store)
        let htmlPath = folder + "/" + ReportFile.defaultHTMLName(run: run.id)
        try ReportFile.write(Array(report.html(by: .rule).utf8), to: htmlPath)
        return Outcome(databasePath: databasePath, htmlReportPath: htmlPath,
                       typesRegistered: builtins.typeNames.count, selfTestsPassed: selfTests,
                       form: formName, formFields: fields, imported: imported, run: run, report: report)
    }

    static func file(_ name: String) -> String {
        DemoFiles.files.first { $0.name == name }?.text ?? ""
    }
}

/// The demo's own data is broken (a build without the bundled files).
package struct DemoError: Error, CustomStringConvertible, Sendable {
    /// What is missing.
    package var description: String
    init(_ description: String) { self.description = description }
}

extension AdmissionProblems: CustomStringConvertible {
    /// The first error (or failing self-test) in one line.
    package var description: String {
        let first = diagnostics.first { $0.severity == .error }.map { "\($0)" } ?? failedSelfTests.first ?? "problems"
        return "a definition cannot be stored: \(first)"
    }
}
