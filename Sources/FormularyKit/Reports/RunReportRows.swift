import FormularyRules
import FormularyStore

/// Where a report's failures, groups and compared entries come from, one at a time, so that
/// renderers never need them all at once.
package protocol RunReportRows: AnyObject {
    /// The groups of `grouping`, worst first; stops when `body` returns false.
    func forEachGroup(by grouping: ReportGrouping, _ body: (ReportGroup) throws -> Bool) throws
    /// Every failure, in entry order (nil) or in the order of the groups of `groupedBy`
    /// (worst group first, then entry id); stops when `body` returns false.
    func forEachFailure(groupedBy: ReportGrouping?, _ body: (RunReport.Failure) throws -> Bool) throws
    /// Every newly failing (`newly`) or fixed entry of `form`, by id, for comparisons whose
    /// lists the model holds only in part.
    func forEachComparedEntry(form: String, newly: Bool,
                              _ body: (RunReport.Comparison.NewlyFailing) throws -> Void) throws
}

/// A loaded report's rows: statements on the database, which groups, counts and sorts.
///
/// The groups of a grouping other than by entry are few (one per rule, field or type), so
/// the first pass over them keeps them: a renderer that reads them again (the text table's
/// widths, then its rows; the HTML page's charts) costs the database one pass, not two.
final class StoreReportRows: RunReportRows {
    let counter: RunReportCounter
    /// (form id, field) → hash of the type version that judged it.
    let typeVersions: [String: String]
    private var keptGroups: [ReportGrouping: [ReportGroup]] = [:]
    /// At most this many groups are kept per grouping; more are read again.
    static let keptGroupLimit = 10_000

    init(counter: RunReportCounter, typeVersions: [String: String]) {
        self.counter = counter
        self.typeVersions = typeVersions
    }

    static func key(_ grouping: ReportGrouping) -> ReportGroupKey {
        switch grouping {
        case .rule: .rule
        case .field: .field
        case .type: .type
        case .entry: .entry
        }
    }

    func forEachGroup(by grouping: ReportGrouping, _ body: (ReportGroup) throws -> Bool) throws {
        if let kept = keptGroups[grouping] {
            for group in kept where try !body(group) { break }
            return
        }
        let c = counter
        var kept: [ReportGroup]? = grouping == .entry ? nil : []
        var whole = true
        try c.passes.begin(.writing(run: c.runID))
        try c.store.forEachReportGroup(runID: c.runID, formID: c.scopeFormID, multiForm: c.multiForm, secrets: c.secrets,
                                       by: Self.key(grouping)) { row in
            var entry: RunReport.EntryRef?
            var key = row.key
            if let id = row.entryID {
                entry = RunReport.EntryRef(id: id, key: row.entryKey, keyIsSecure: row.entryKey == c.secrets.mask)
                key = "#\(id)"
            }
            let group = ReportGroup(key: key, entry: entry, failures: row.failures, entries: row.entries,
                                    errors: row.errors, warnings: row.warnings, commonMessage: row.message,
                                    rules: row.rules, values: row.values, source: row.source)
            kept?.append(group)
            if (kept?.count ?? 0) > Self.keptGroupLimit { kept = nil }
            whole = try body(group)
            return whole
        }
        if whole, let kept { keptGroups[grouping] = kept }
    }

    func forEachFailure(groupedBy grouping: ReportGrouping?, _ body: (RunReport.Failure) throws -> Bool) throws {
        let c = counter
        try c.passes.begin(.writing(run: c.runID))
        try c.store.forEachReportFailure(runID: c.runID, formID: c.scopeFormID, multiForm: c.multiForm, secrets: c.secrets,
                                         groupedBy: grouping.map(Self.key)) { row in
            let rule = row.rule
            let version = rule.type != nil ? rule.field.flatMap { typeVersions["\(rule.formID)\u{1F}\($0)"] } : nil
            return try body(RunReport.Failure(
                entry: RunReport.EntryRef(id: row.entryID, key: row.key,
                                          keyIsSecure: row.key != nil && row.key == c.secrets.mask),
                form: rule.form, field: rule.field, type: rule.type, typeVersion: version, rule: rule.rule,
                severity: rule.severity, message: rule.message, value: row.value, source: row.source))
        }
    }

    func forEachComparedEntry(form: String, newly: Bool,
                              _ body: (RunReport.Comparison.NewlyFailing) throws -> Void) throws {
        guard let compared = counter.compared[form] else { return }
        try counter.passes.begin(.comparing(run: counter.runID, form: form,
                                            previousRun: compared.previous == 0 ? nil : compared.previous))
        try counter.entries(form, compared, newly: newly, limit: nil, body)
    }
}
