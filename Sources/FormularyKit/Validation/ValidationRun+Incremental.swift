import FormularyRules
import FormularyStore

/// A form whose unchanged entries keep the results of its last complete run (the base):
/// only the entries changed since are judged (see docs/storage.md, "Incremental runs").
struct CarryPlan: Sendable {
    /// The form's index among the run's judges.
    var judge: Int
    var formID: Int64
    /// The base run: the newest complete run that judged the form to its end.
    var base: Int64
    /// The base run's extent: it judged the form's entries with ids up to this one.
    var throughID: Int64
    /// The newest import when the base run started: entries an import changed after it are
    /// judged again.
    var sinceImport: Int64
    /// Entries of the form up to `throughID` changed since the base run, ascending.
    var changed: [Int64]
}

extension ValidationRun {
    /// Whether form `form` may carry its results forward, and from which run; nil when every
    /// entry of it is to be judged. Call inside the transaction that records the run.
    ///
    /// A base run's results stand for an unchanged entry only when they were reached the same
    /// way: the same form version, the same type version for every field, no field masked by
    /// an earlier `secure` version, the same locale and the same translations in it (the rows
    /// hold their messages: a catalog edited since must not be read in its old words), and the
    /// same "today" when the form or a type measures dates from it. Forms with `unique` rules are judged in full: a new duplicate makes an
    /// unchanged entry fail too.
    /// `messages` is this run's ``messagesDigest``.
    func carryPlan(_ form: PreparedForm, judge: FormJudge, index: Int, messages: String?, formVersionID: Int64,
                   typeVersionIDs: [String: Int64]) throws -> CarryPlan? {
        guard options.carryForward, judge.core.uniqueRules.isEmpty, !form.maskedByHistory else { return nil }
        guard let base = try store.latestCompleteRun(formID: judge.formID),
              let baseForm = base.forms.first(where: { $0.formID == judge.formID }),
              baseForm.formVersionID == formVersionID, base.locale == options.locale,
              base.messages == messages else { return nil }
        if base.today != options.today.description && Self.measuresFromToday(form) { return nil }
        var baseTypes: [String: Int64] = [:]
        for t in try store.fieldTypes(ofRun: base.id, formID: judge.formID) { baseTypes[t.field] = t.version.id }
        guard baseTypes == typeVersionIDs else { return nil }
        let changed = try store.changedEntryIDs(formID: judge.formID, throughID: baseForm.lastID,
                                                sinceImport: base.lastImport)
        // Changed entries are read one id range at a time; past an eighth of the form, one
        // scan of everything is the faster way to the same results.
        guard changed.count <= max(1_000, baseForm.counts.entriesChecked / 8) else { return nil }
        return CarryPlan(judge: index, formID: judge.formID, base: base.id, throughID: baseForm.lastID,
                         sinceImport: base.lastImport, changed: changed)
    }

    /// Whether the form or one of its fields' types may judge differently on another day: a
    /// `today` in a source (a date bound, or a parameter holding one). A word `today` in a
    /// message also counts, which only costs a full run.
    static func measuresFromToday(_ form: PreparedForm) -> Bool {
        form.definition.canonicalSource.contains("today") || form.typeVersions.contains { $0.source.contains("today") }
    }

    /// Writes each carried form's first batch: its changed entries judged (by `worker`, on
    /// this thread, before the scan starts) and its unchanged entries' results carried
    /// forward, with the progress marker at the base run's extent, in one transaction.
    /// Returns the entries checked (carried and judged).
    func recordCarries(_ carries: [CarryPlan], judges: [FormJudge], worker: ChunkJudge,
                       writer: RunResultWriter) throws -> Int {
        var checked = 0
        for carry in carries {
            let outcome = try worker.judge(Self.ranges(of: carry.changed), skipCarried: false)
            try store.transaction {
                var counts = try writer.carryForward(formID: carry.formID, fromRun: carry.base,
                                                     throughID: carry.throughID, sinceImport: carry.sinceImport)
                try write(outcome, judges: judges, writer: writer)
                counts += outcome.counts[carry.judge]
                try writer.progress(formID: carry.formID, judgedThrough: carry.throughID, counts: counts)
                checked += counts.entriesChecked
            }
        }
        return checked
    }

    /// Ascending ids as id ranges: consecutive ids make one range.
    static func ranges(of ids: [Int64]) -> [Chunk] {
        var out: [Chunk] = []
        for id in ids {
            if let last = out.last, last.throughID == id - 1 {
                out[out.count - 1].throughID = id
            } else {
                out.append(Chunk(afterID: id - 1, throughID: id, fraction: 0))
            }
        }
        return out
    }
}
