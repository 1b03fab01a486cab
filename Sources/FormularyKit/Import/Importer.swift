import FormularyJSON
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
    public struct Options: Sendable {
        public var form: String
        /// With a key column, a record whose key an entry of the form already has updates
        /// that entry (its previous values stay in its history) instead of adding one.
        public var keyField: String?
        public var skipBad: Bool
        public var actor: String
        public init(form: String, keyField: String? = nil, skipBad: Bool = false, actor: String) {
            self.form = form
            self.keyField = keyField
            self.skipBad = skipBad
            self.actor = actor
        }
    }

    public struct Summary: Sendable {
        public var records = 0
        public var added = 0
        public var updated = 0
        public var unchanged = 0
        /// The records skipped with `skipBad`, with their places and reasons.
        public var skipped: [RecordReadError] = []
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// Reads every record of `reader` into `store`. `progress` is called every 10,000
    /// records with the count so far.
    public func run(_ reader: any RecordReader, into store: Store,
                    progress: ((Int) -> Void)? = nil) throws -> Summary {
        var summary = Summary()
        try store.transaction {
            let writer = try store.entryWriter(form: options.form, actor: options.actor, source: reader.fileName)
            var header: RecordHeader?
            var layoutID: Int64 = 0
            var keyIndex: Int?
            func skip(_ error: RecordReadError) throws {
                guard options.skipBad, error.isRecoverable else { throw error }
                summary.skipped.append(error)
            }
            try reader.forEachRecord(onBadRecord: options.skipBad ? { try skip($0) } : nil) { record in
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
                    switch try writer.upsert(key: value, layoutID: layoutID, values: record.values) {
                    case .inserted: summary.added += 1
                    case .updated: summary.updated += 1
                    case .unchanged: summary.unchanged += 1
                    }
                } else {
                    try writer.add(layoutID: layoutID, values: record.values)
                    summary.added += 1
                }
                if summary.records % 10_000 == 0 { progress?(summary.records) }
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

/// An import that cannot start or cannot go on.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    case noKeyColumn(file: String, key: String, columns: [String])

    public var description: String {
        switch self {
        case let .noKeyColumn(file, key, columns):
            "\(file): --key names '\(key)', but the file's columns are \(columns.joined(separator: ", "))"
        }
    }
}
