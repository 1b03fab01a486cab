import FormularyJSON
import FormularyKit
import FormularyRules

/// `formulary types lint FILE...`
struct TypesLintCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "lint"],
        abstract: "Parses and type-checks plugin files and prints every diagnostic.",
        discussion: """
        Checks .field and .form files without a database: syntax, inheritance (a base may
        come from the registry or from another file given here), parameters, and the
        load-time checks (contradictory ranges, masks, regexes that do not compile or that
        backtrack badly). Diagnostics go to standard error as file:line:column with the line
        and a caret; files without problems are listed as 'ok'.

        Exit status: 0 when no file has an error (warnings allowed), 2 otherwise.
        """,
        arguments: [ArgumentSpec(name: "FILE", help: "A .field or .form file.", isRepeating: true, completion: .files)],
        examples: ["formulary types lint my-types/*.field", "formulary types lint signup.form"])

    let files: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.positionals("FILE")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let pluginFiles = try context.readPluginFiles(files)
        let registry = try context.loadRegistry(extraFiles: pluginFiles)
        let today = try context.today()
        var all: [(file: String, diagnostics: [Diagnostic])] = []
        // In text, a diagnostic that several files share (every type below an `extends`
        // chain that goes too deep has the same one) is printed once, with a count.
        var digest = DiagnosticDigest()
        for file in files {
            var diagnostics: [Diagnostic] = []
            var names: [String] = []
            for entry in registry.types(inFile: file) {
                diagnostics += registry.lint(type: entry.name, today: today)
                names.append(entry.name)
            }
            for entry in registry.forms(inFile: file) {
                diagnostics += registry.lint(form: entry.name)
                names.append(entry.name)
            }
            let sorted = Self.sorted(diagnostics)
            all.append((file, sorted))
            digest.add(sorted, of: names.first ?? file)
        }
        let hasErrors = all.contains { $0.diagnostics.contains { $0.severity == .error } }
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("ok", !hasErrors)
                o.array("files") { a in
                    for (file, diagnostics) in all {
                        a.object { f in
                            f.field("file", file)
                            f.array("diagnostics") { da in
                                for d in diagnostics { da.object { Self.write(d, to: &$0) } }
                            }
                        }
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            for (file, diagnostics) in all {
                if diagnostics.isEmpty { context.stdout.line("ok  \(file.forTerminal)") }
            }
            context.stderr.write(digest.render())
        }
        return hasErrors ? .badInput : .success
    }

    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.filter { seen.insert($0).inserted }.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column)
        }
    }

    /// One diagnostic as JSON. `message` is the text as printed (suggestions included, as
    /// it always was); `fix_its` and `notes` give the suggestions and hints apart, a fix-it
    /// with the range it replaces (`line`, `column`, `length` in characters) and its
    /// `replacement`.
    static func write(_ d: Diagnostic, to o: inout JSONObjectWriter) {
        o.field("id", d.id.rawValue)
        o.field("domain", d.id.domain.rawValue)
        o.field("severity", d.severity.rawValue)
        o.field("message", d.text)
        o.field("file", d.location.file)
        o.field("line", d.location.line)
        o.field("column", d.location.column)
        o.array("fix_its") { a in
            for fixIt in d.fixIts {
                a.object { f in
                    f.field("message", fixIt.message)
                    f.field("file", fixIt.range.file)
                    f.field("line", fixIt.range.line)
                    f.field("column", fixIt.range.column)
                    f.field("length", fixIt.range.length)
                    f.field("replacement", fixIt.replacement)
                }
            }
        }
        o.array("notes") { a in
            for note in d.notes {
                a.object { n in
                    n.field("message", note.message)
                    if let location = note.location {
                        n.field("file", location.file)
                        n.field("line", location.line)
                        n.field("column", location.column)
                    }
                }
            }
        }
    }
}
