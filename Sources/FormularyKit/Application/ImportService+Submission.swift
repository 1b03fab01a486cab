import FormularyJSON
import FormularyRules
import FormularyStore

extension ImportService {
    /// What became of one submitted entry (`POST /v1/forms/NAME/entries`).
    public enum Submission: Sendable, Equatable {
        /// Stored as entry `id`; `verdict` is the form's final-stage judgement of its values.
        case stored(id: Int64, verdict: EntryVerdict)
        /// Nothing stored: entry `id` of the form already has the key.
        case duplicateKey(id: Int64)
    }

    /// Stores one entry of `form` from the JSON object `fields` (key → value), exactly as
    /// an import of a JSON Lines file holding that one record would: the same conversion of
    /// values (numbers and `true`/`false` as their text, `null` absent, arrays and objects
    /// refused), the same checks of the keys against the form, one `imports` row with
    /// `source` and one audit record (action `import`) with the entry's digest, in one
    /// transaction. With `key`, the entry gets that key; a key another entry of the form
    /// has stores nothing (an import would update that entry; a submission never does).
    ///
    /// The verdict is the form's judgement in the final stage, as `validate` judges a
    /// stored entry, without `unique` (which needs the other entries); it is not a run
    /// and is not recorded: the next `validate` records it.
    ///
    /// - Throws: a ``ServiceError`` (not found, nothing stored) for an unknown form, (bad input) for a
    ///   value that is an array or an object, or fields none of which the form declares.
    public func submit(form: String, key: String?, fields: JSONValue, source: String, today: CivilDate) throws -> Submission {
        let prepared = try JudgeService.prepare(form: form, in: try workspace.registry(), today: today)
        return try submit(prepared, key: key, fields: fields, source: source)
    }

    /// ``submit(form:key:fields:source:today:)`` with the form already prepared (what
    /// `formulary serve` keeps per registry snapshot, so that a submission does not load
    /// the registry again).
    package func submit(_ prepared: JudgeService.PreparedForm, key: String?, fields: JSONValue,
                       source: String) throws -> Submission {
        let form = prepared.validator.name
        guard fields.objectValue != nil else {
            throw ServiceError(.badInput, "'fields' must be an object of field keys and values")
        }
        let store = try workspace.store(.write)
        // Named `fields` in messages: they speak of the request's object, not of a file.
        let reader = JSONLinesReader(source: MemoryByteSource(fields.serializedBytes() + [0x0A]), fileName: "fields")
        let record: Record
        do {
            guard let read = try reader.next() else { throw ServiceError(.badInput, "'fields' holds no record") }
            record = read
        } catch let error as RecordReadError {
            throw ServiceError(.badInput, "\(error.description); nothing was stored")
        }
        let importer = Importer(options: .init(
            form: form, keyField: nil, skipBad: false, actor: workspace.settings.actor,
            fields: prepared.validator.form.fields.map { Importer.FieldInfo(key: $0.key, required: $0.required) }))
        var summary = Importer.Summary()
        do {
            try importer.check(columns: record.header.names, of: reader, into: &summary)
        } catch {
            throw ServiceError(.badInput, "\(error.description); nothing was stored")
        }
        let outcome: Submission
        do {
            outcome = try store.transaction {
                let writer = try store.entryWriter(form: form, actor: workspace.settings.actor, source: source)
                let layoutID = try writer.layoutID(for: record.header.names)
                let id: Int64
                if let key {
                    switch try writer.upsert(key: key, layoutID: layoutID, values: record.values) {
                    case .inserted(let new): id = new
                    case .updated(let existing, _), .unchanged(let existing): throw DuplicateKey(id: existing)
                    }
                } else {
                    id = try writer.add(layoutID: layoutID, values: record.values)
                }
                try writer.recordAudit(details: [
                    "file": .string(source),
                    "records": .integer(1),
                    "unchanged": .integer(0),
                    "skipped": .array([]),
                    "key": .null,
                ])
                var values: [String: String] = [:]
                for (name, value) in zip(record.header.names, record.values) { values[name] = value }
                return .stored(id: id, verdict: JudgeService.judge(prepared, values: values, stage: .final).result.verdict)
            }
        } catch let duplicate as DuplicateKey {
            return .duplicateKey(id: duplicate.id)
        }
        return outcome
    }

    /// Rolls the submission back when its key is taken.
    private struct DuplicateKey: Error {
        var id: Int64
    }
}
