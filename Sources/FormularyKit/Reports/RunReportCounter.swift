import FormularyStore

/// The runs a form's failures are compared with: the previous run that judged it (0 when
/// none did), how far each run judged, and the form's id.
struct ReportComparedRuns {
    var previous: Int64
    var previousThrough: Int64
    var through: Int64
    var formID: Int64
}

/// Counts the parts of a loaded report that take a pass over the run's failures of their
/// own, each when a renderer first reads it (``ReportPart``): the comparison with the
/// previous run, the previous run's counts per group, the most frequent failing values.
/// Each pass is announced to ``ReportPasses`` first.
struct RunReportCounter {
    let store: Store
    let runID: Int64
    /// The forms of the report (its scope, or every form of the run), by name and id.
    let forms: [(name: String, id: Int64)]
    let scopeFormID: Int64?
    let multiForm: Bool
    let secrets: ReportSecrets
    /// Form name → the runs compared.
    let compared: [String: ReportComparedRuns]
    let passes: ReportPasses

    /// How many newly failing and fixed entries the model keeps per form (the JSON report
    /// streams the rest from the database).
    static let comparisonPreview = 1000

    /// Newly failing and fixed entries of each form, counted and listed (the first ones) by
    /// the database.
    func comparisons() throws -> [RunReport.Comparison] {
        var out: [RunReport.Comparison] = []
        for form in forms {
            guard let c = compared[form.name] else { continue }
            try passes.begin(.comparing(run: runID, form: form.name, previousRun: c.previous == 0 ? nil : c.previous))
            var newly: [RunReport.Comparison.NewlyFailing] = []
            let newlyCount = try entries(form.name, c, newly: true, limit: Self.comparisonPreview) { newly.append($0) }
            guard c.previous != 0 else {
                out.append(RunReport.Comparison(form: form.name, previousRunID: nil, newlyFailing: newly, fixed: [],
                                                newlyFailingCount: newlyCount, fixedCount: 0))
                continue
            }
            var fixed: [RunReport.EntryRef] = []
            let fixedCount = try entries(form.name, c, newly: false, limit: Self.comparisonPreview) { fixed.append($0.entry) }
            out.append(RunReport.Comparison(form: form.name, previousRunID: c.previous, newlyFailing: newly,
                                            fixed: fixed, newlyFailingCount: newlyCount, fixedCount: fixedCount))
        }
        return out
    }

    /// The newly failing (`newly`) or fixed entries of `form`, at most `limit` (nil: all);
    /// returns how many there are in all.
    @discardableResult
    func entries(_ form: String, _ c: ReportComparedRuns, newly: Bool, limit: Int?,
                 _ body: (RunReport.Comparison.NewlyFailing) throws -> Void) throws -> Int {
        try store.forEachComparedEntry(
            runID: runID, previousRunID: c.previous, formID: c.formID, newly: newly,
            previousJudgedThrough: c.previousThrough, judgedThrough: c.through, secrets: secrets, limit: limit) { row in
            try body(.init(entry: RunReport.EntryRef(id: row.entryID, key: row.key,
                                                     keyIsSecure: row.key != nil && row.key == secrets.mask),
                           before: row.judgedBefore ? .passed : .notJudged))
        }
    }

    /// The previous runs' failures per group of `grouping` (rule or field), summed over the
    /// forms that have an earlier run.
    func previousCounts(by grouping: ReportGrouping) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for form in forms {
            guard let c = compared[form.name], c.previous != 0 else { continue }
            try passes.begin(.comparing(run: runID, form: form.name, previousRun: c.previous))
            let before = try store.reportGroupCounts(runID: c.previous, formID: c.formID, multiForm: multiForm,
                                                     by: StoreReportRows.key(grouping))
            out.merge(before, uniquingKeysWith: +)
        }
        return out
    }

    /// The most frequent failing values of each rule and field, counted by the database.
    func topValues() throws -> [ReportGrouping: [String: [RunReport.ValueCount]]] {
        try passes.begin(.countingValues(run: runID))
        var out: [ReportGrouping: [String: [RunReport.ValueCount]]] = [:]
        for grouping in [ReportGrouping.rule, .field] {
            for v in try store.reportTopValues(runID: runID, formID: scopeFormID, multiForm: multiForm,
                                               secrets: secrets, by: StoreReportRows.key(grouping)) {
                out[grouping, default: [:]][v.key, default: []].append(.init(value: v.value, count: v.count))
            }
        }
        return out
    }
}
