import FormularyJSON
import FormularyRules
import FormularyStore

/// Rewrites stored values into their canonical form (`canonicalize`): each value of a
/// form's field that its type finds valid (no error; warnings allowed) but that is not
/// written the way the type normalizes and formats it becomes a new entry version. Invalid
/// values are never touched, nor a value that is the entry's key (keyed imports find the
/// entry by the value as imported). Values only ever reach the output as counts, so secure
/// values are rewritten like the others and never shown.
public struct CanonicalizeService {
    let workspace: Workspace

    /// The service for `workspace`'s database and registry.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// What happened to one field's values.
    public struct FieldCounts: Sendable, Hashable {
        /// The field.
        public var field: String
        /// Its type's name.
        public var type: String
        /// Values rewritten (or, with a dry run, that would be).
        public var rewritten: Int = 0
        /// Valid values already in canonical form.
        public var canonical: Int = 0
        /// Invalid values, left as they are.
        public var invalid: Int = 0
        /// Valid values left as they are because they are the entry's key, or because their
        /// canonical form would not be valid or canonical in turn.
        public var kept: Int = 0
    }

    /// What `canonicalize` did (or, with a dry run, would do).
    public struct Outcome: JSONObjectRepresentable, Sendable {
        /// The form.
        public var form: String
        /// Whether nothing was written.
        public var dryRun: Bool
        /// Entries of the form read.
        public var entriesChecked: Int
        /// Entries that got (or would get) a new version.
        public var entriesRewritten: Int
        /// Per field of the form, in the form's order.
        public var fields: [FieldCounts]
        /// The audit record's sequence number; nil for a dry run or when nothing changed.
        public var auditSeq: Int64?

        /// `{"form", "dry_run", "entries_checked", "entries_rewritten", "fields": [{"field",
        /// "type", "rewritten", "canonical", "invalid", "kept"}]}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("form", form)
            o.field("dry_run", dryRun)
            o.field("entries_checked", entriesChecked)
            o.field("entries_rewritten", entriesRewritten)
            o.array("fields") { a in
                for f in fields {
                    a.object { fo in
                        fo.field("field", f.field)
                        fo.field("type", f.type)
                        fo.field("rewritten", f.rewritten)
                        fo.field("canonical", f.canonical)
                        fo.field("invalid", f.invalid)
                        fo.field("kept", f.kept)
                    }
                }
            }
        }
    }

    /// Rewrites the final-valid, non-canonical values of `form`'s entries as new entry
    /// versions, in one transaction with one audit record (action `canonicalize`, counts
    /// only) — or, with `dryRun`, only counts them, opening the database read-only.
    ///
    /// - Throws: a ``ServiceError`` (not found) when the form is unknown, (bad input) when it cannot be used.
    public func canonicalize(form name: String, dryRun: Bool, today: CivilDate) throws -> Outcome {
        let store = try workspace.store(dryRun ? .read : .write)
        let registry = try workspace.registry(store: store)
        guard let entry = registry.forms[name] else {
            let hint = Suggestion.nearest(to: name, in: registry.forms.keys.sorted()).map { "; did you mean '\($0)'?" }
                ?? "; see 'formulary forms list'"
            throw ServiceError(.notFound, "unknown form '\(name)'\(hint)")
        }
        let problems = registry.lint(form: name)
        guard let form = entry.form, !problems.containsErrors else {
            throw ServiceError(.badInput, "form '\(name)' cannot be used; nothing was rewritten",
                               details: .diagnostics(problems, lines: []))
        }
        var types: [String: (index: Int, type: CompiledFieldType)] = [:]
        var counts: [FieldCounts] = []
        for field in form.fields {
            switch registry.compile(field.type, today: today, source: entry.text) {
            case .failure(let problems):
                throw ServiceError(.badInput, "form '\(name)' cannot be used; nothing was rewritten",
                                   details: .diagnostics(problems.diagnostics, lines: []))
            case .success(let type):
                if types[field.key] == nil { types[field.key] = (counts.count, type) }
                counts.append(FieldCounts(field: field.key, type: field.type.name))
            }
        }
        let actor = workspace.settings.actor
        var outcome = Outcome(form: name, dryRun: dryRun, entriesChecked: 0, entriesRewritten: 0, fields: [])
        let body = {
            var writer: EntryWriter?
            try store.forEachEntry(form: name) { stored in
                outcome.entriesChecked += 1
                var values = stored.values
                var changed = false
                for (i, field) in stored.fields.enumerated() {
                    guard let (index, type) = types[field], let value = values[i], !value.isEmpty else { continue }
                    let result = type.validate(value, stage: .final)
                    if result.verdict == .invalid {
                        counts[index].invalid += 1
                        continue
                    }
                    let canonical = result.formatted
                    if canonical == value {
                        counts[index].canonical += 1
                        continue
                    }
                    // The rewritten value must stay valid and be its own canonical form, so
                    // that a second run changes nothing.
                    let again = type.validate(canonical, stage: .final)
                    guard value != stored.key, again.verdict != .invalid, again.formatted == canonical else {
                        counts[index].kept += 1
                        continue
                    }
                    counts[index].rewritten += 1
                    values[i] = canonical
                    changed = true
                }
                guard changed else { return }
                outcome.entriesRewritten += 1
                if dryRun { return }
                if writer == nil { writer = try store.entryWriter(form: name, actor: actor, source: "canonicalize") }
                try writer!.replace(id: stored.id, key: stored.key, version: stored.version,
                                    layoutID: try store.layoutID(for: stored.fields), values: values)
            }
            if let writer {
                var details = JSONObject()
                details["command"] = .string("canonicalize")
                var perField = JSONObject()
                for c in counts where c.rewritten > 0 { perField[c.field] = .integer(c.rewritten) }
                details["fields"] = .object(perField)
                outcome.auditSeq = try writer.recordAudit(details: details, canonicalize: true).seq
            }
        }
        if dryRun { try store.read(body) } else { try store.transaction(body) }
        outcome.fields = counts
        return outcome
    }
}
