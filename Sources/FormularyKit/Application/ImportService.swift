import FormularyJSON
import FormularyRules
import FormularyStore

/// Storing entries of a form from a CSV or JSON Lines file (`import`), in one transaction.
public struct ImportService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// How far an import has come, for a progress line.
    public struct Progress: Sendable {
        /// Records read so far.
        public var records: Int
        /// Bytes of the file read so far.
        public var bytesRead: Int64
        /// The file's size, when it is a regular file (also on standard input); nil for a pipe.
        public var size: Int64?
    }

    /// What an import did, as `import` reports it.
    public struct Outcome: JSONObjectRepresentable, Sendable {
        /// The form the entries belong to.
        public var form: String
        /// The counts, the lines skipped, the columns the form does not declare, the
        /// required fields no column holds.
        public var summary: Importer.Summary

        /// `{"form", "records", "added", "updated", "unchanged", "skipped",
        /// "unknown_columns", "missing_required"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("form", form)
            o.field("records", summary.records)
            o.field("added", summary.added)
            o.field("updated", summary.updated)
            o.field("unchanged", summary.unchanged)
            o.array("skipped") { a in
                for bad in summary.skipped {
                    a.object { so in
                        so.field("line", bad.line)
                        so.field("message", bad.message)
                    }
                }
            }
            o.array("unknown_columns") { a in
                for column in summary.unknownColumns {
                    a.object { co in
                        co.field("column", column.name)
                        if let suggestion = column.suggestion { co.field("did_you_mean", suggestion) } else { co.nullField("did_you_mean") }
                    }
                }
            }
            o.array("missing_required") { a in for name in summary.missingRequired { a.value(name) } }
        }
    }

    /// Imports `file` (`-` for standard input, read from the descriptor `standardInput`) of
    /// `format` into entries of `form`; with `key`, a record whose key an entry already has
    /// updates that entry; with `skipBad`, malformed lines are skipped instead of stopping the
    /// import. `progress`, when given, is called every 10,000 records.
    ///
    /// - Throws: a ``ServiceError`` (not found, nothing imported) for an unknown form, (bad input) for a
    ///   file that cannot be read, a malformed line, or a file none of whose columns is a
    ///   field of the form.
    public func run(file: String, format: RecordFormat, form: String, key: String?, skipBad: Bool,
                    standardInput: Int32 = 0, progress: ((Progress) -> Void)? = nil) throws -> Outcome {
        let store = try workspace.store(.write)
        let registry = try workspace.registry(store: store)
        guard registry.forms[form] != nil else {
            throw ServiceError(.notFound, "unknown form '\(form)'"
                + Suggestion.hint(for: form, in: registry.forms.keys.sorted())
                + "; add it with 'formulary forms add FILE' or put it in a plugin folder")
        }
        let source: FileByteSource
        do {
            source = file == "-" ? FileByteSource(fileDescriptor: standardInput, closesOnDeinit: false, path: "-")
                : try FileByteSource(path: file)
        } catch {
            throw ServiceError(.badInput, error.description)
        }
        let reader = format.makeReader(source: source, fileName: file)
        let fields = registry.forms[form]?.form?.fields.map { Importer.FieldInfo(key: $0.key, required: $0.required) }
        let importer = Importer(options: .init(form: form, keyField: key, skipBad: skipBad, actor: workspace.settings.actor,
                                               fields: fields))
        // A share of the file when its size is known (a regular file, also on standard
        // input); a count of records for a pipe.
        let size = progress != nil ? source.regularFileSize : nil
        do {
            let summary = try importer.run(reader, into: store) { count in
                progress?(Progress(records: count, bytesRead: source.bytesRead, size: size))
            }
            return Outcome(form: form, summary: summary)
        } catch let error as RecordReadError {
            throw ServiceError(.badInput, "\(error.description); nothing was imported"
                + (error.isRecoverable ? " (use --skip-bad to skip such lines)" : ""))
        } catch let error as ImportError {
            var message = "\(error.description); nothing was imported"
            if case .noFormFields = error { message += ". Check that the file and --form \(form) go together" }
            throw ServiceError(.badInput, message)
        }
    }
}
