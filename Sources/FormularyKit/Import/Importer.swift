import FormularyJSON
import FormularyRules
import FormularyStore

/// Stores the records of an import file as entries of a form, in one transaction.
///
/// Either the whole file goes in or nothing does: the first malformed record stops the
/// import and the transaction rolls back, unless `skipBad` is set, in which case each bad
/// record is skipped and reported. Values are stored as read — validation is a separate
/// step — so columns the form does not declare are kept (validation reports them as
/// `unknown-field`). Secure values are stored like any other (they are the user's data)
/// and never appear in the audit record, which holds only counts.
public struct Importer {
    package struct Options: Sendable {
        package var form: String
        /// With a key column, a record whose key an entry of the form already has updates
        /// that entry (its previous values stay in its history) instead of adding one.
        package var keyField: String?
        package var skipBad: Bool
        package var actor: String
        /// The form's fields, when known: the columns are checked against them (see
        /// ``HeaderCheck``). Nil imports whatever columns the file has, unchecked.
        package var fields: [FieldInfo]?
        package init(form: String, keyField: String? = nil, skipBad: Bool = false, actor: String,
                    fields: [FieldInfo]? = nil) {
            self.form = form
            self.keyField = keyField
            self.skipBad = skipBad
            self.actor = actor
            self.fields = fields
        }
    }

    /// A field of the form, as far as the import's header check needs it.
    package struct FieldInfo: Sendable, Hashable {
        package var key: String
        package var required: Bool
        package init(key: String, required: Bool) {
            self.key = key
            self.required = required
        }
    }

    /// What an import did: counts, the records skipped, and what the header check found.
    public struct Summary: Sendable {
        /// Well-formed records read (the skipped ones are in ``skipped``).
        public var records = 0
        /// New entries stored.
        public var added = 0
        /// Entries (by key) stored as a new version because their values changed.
        public var updated = 0
        /// Entries (by key) whose values were already stored as they are.
        public var unchanged = 0
        /// The records skipped with `skipBad`, with their places and reasons.
        public var skipped: [RecordReadError] = []
        /// Columns (CSV) or keys (JSON Lines) the form does not declare, in file order: stored
        /// all the same (validation reports them as `unknown-field`), but most likely a typo.
        public var unknownColumns: [UnknownColumn] = []
        /// Required fields of the form that no column (no record's key) holds: every entry
        /// will fail `required`.
        public var missingRequired: [String] = []
    }

    /// A column the form does not declare, with the field it is nearest to.
    public struct UnknownColumn: Sendable, Hashable {
        /// The column's (or key's) name as the file has it.
        public var name: String
        /// The form field the name is one or two typos away from, if any.
        public var suggestion: String?
    }

    package let options: Options

    package init(options: Options) { self.options = options }

    /// Reads every record of `reader` into `store`. `progress` is called every 10,000
    /// records with the count so far.
    package func run(_ reader: any RecordReader, into store: Store,
                    progress: ((Int) -> Void)? = nil) throws -> Summary {
        var summary = Summary()
        // A CSV file's columns are known before any record: a header that has none of the
        // form's fields is refused before anything is written.
        if let csv = reader as? CSVReader {
            try check(columns: try csv.readHeader().names, of: reader, into: &summary)
        }
        try store.transaction {
            let writer = try store.entryWriter(form: options.form, actor: options.actor, source: reader.fileName)
            var header: RecordHeader?
            var layoutID: Int64 = 0
            var keyIndex: Int?
            func skip(_ error: RecordReadError) throws {
                guard options.skipBad, error.isRecoverable else { throw error }
                summary.skipped.append(error)
            }
            func save(_ record: Record, encoded: [UInt8]?) throws {
                if record.header !== header {
                    header = record.header
                    layoutID = try writer.layoutID(for: record.header.names)
                    if let key = options.keyField {
                        keyIndex = record.header.index(of: key)
                        if keyIndex == nil && summary.records == 0 && !(reader is JSONLinesReader) {
                            throw ImportError.noKeyColumn(file: reader.fileName, key: key,
                                                          columns: record.header.names)
                        }
                    }
                }
                summary.records += 1
                if let key = options.keyField {
                    guard let index = keyIndex, let value = record.values[index],
                          !value.allSatisfy({ $0.isWhitespace }) else {
                        try skip(RecordReadError(kind: .emptyKey(field: key), file: reader.fileName,
                                                 line: record.line, isRecoverable: true))
                        return
                    }
                    let outcome = if let encoded {
                        try encoded.withUnsafeBytes { try writer.upsert(key: value, layoutID: layoutID, encoded: $0, line: record.line) }
                    } else {
                        try writer.upsert(key: value, layoutID: layoutID, values: record.values, line: record.line)
                    }
                    switch outcome {
                    case .inserted: summary.added += 1
                    case .updated: summary.updated += 1
                    case .unchanged: summary.unchanged += 1
                    }
                } else {
                    if let encoded {
                        try encoded.withUnsafeBytes { _ = try writer.add(layoutID: layoutID, encoded: $0, line: record.line) }
                    } else {
                        try writer.add(layoutID: layoutID, values: record.values, line: record.line)
                    }
                    summary.added += 1
                }
                if summary.records % 10_000 == 0 { progress?(summary.records) }
            }
            if reader.fileName == "-" {
                // Standard input may be a terminal: read it here, so that nothing is left
                // waiting on it when the import stops early.
                try reader.forEachRecord(onBadRecord: options.skipBad ? { try skip($0) } : nil) { try save($0, encoded: nil) }
            } else {
                // A file: parsed and encoded on another thread, ahead of the storing.
                try RecordPrefetch(reader, collectsBadRecords: options.skipBad).forEach { event in
                    switch event {
                    case let .record(record, encoded): try save(record, encoded: encoded)
                    case let .bad(error): try skip(error)
                    }
                }
            }
            // A JSON Lines file's keys are known once it is read (a later header holds every
            // earlier one's names); refusing it here rolls back what was written.
            if !(reader is CSVReader), let header {
                try check(columns: header.names, of: reader, into: &summary)
            }
            try writer.recordAudit(details: [
                "file": .string(reader.fileName),
                "records": .integer(summary.records),
                "unchanged": .integer(summary.unchanged),
                "skipped": .array(summary.skipped.map { .string("\($0.file):\($0.line)") }),
                "key": options.keyField.map { .string($0) } ?? .null,
            ])
        }
        return summary
    }
}

extension Importer {
    /// Compares the file's columns with the form's fields: unknown columns (with the nearest
    /// field) and missing required fields go into `summary`; a file none of whose columns is
    /// a field of the form is refused.
    func check(columns: [String], of reader: any RecordReader, into summary: inout Summary) throws(ImportError) {
        let file = reader.fileName
        guard let fields = options.fields else { return }
        let keys = fields.map(\.key)
        let known = Set(keys)
        if !columns.contains(where: known.contains) {
            let typos = columns.compactMap { column in
                Suggestion.nearest(to: column, in: keys).map { "'\($0)' for '\(column)'" }
            }
            throw ImportError.noFormFields(file: file, form: options.form, columns: columns, fields: keys,
                                           noun: reader is CSVReader ? "columns" : "keys", didYouMean: typos)
        }
        summary.unknownColumns = columns.filter { !known.contains($0) }.map {
            UnknownColumn(name: $0, suggestion: Suggestion.nearest(to: $0, in: keys.filter { !columns.contains($0) }))
        }
        let present = Set(columns)
        summary.missingRequired = fields.filter { $0.required && !present.contains($0.key) }.map(\.key)
    }
}

/// An import that cannot start or cannot go on.
package enum ImportError: Error, Sendable, CustomStringConvertible {
    case noKeyColumn(file: String, key: String, columns: [String])
    /// Not one column of the file is a field of the form: the wrong file or the wrong form.
    /// `noun` is what the file calls them: `columns` (CSV) or `keys` (JSON Lines).
    /// `didYouMean` pairs a field with a column one or two typos away: `'name' for 'nme'`.
    case noFormFields(file: String, form: String, columns: [String], fields: [String], noun: String,
                      didYouMean: [String])

    /// What is wrong and what to do, in one message.
    package var description: String {
        switch self {
        case let .noKeyColumn(file, key, columns):
            "\(file): --key names '\(key)', but the file's columns are \(columns.joined(separator: ", "))"
        case let .noFormFields(file, form, columns, fields, noun, didYouMean):
            "\(file): none of its \(noun) (\(columns.joined(separator: ", "))) is a field of form \(form), "
                + "whose fields are \(fields.joined(separator: ", "))"
                + (didYouMean.isEmpty ? "" : " (did you mean \(didYouMean.joined(separator: ", "))?)")
        }
    }
}
