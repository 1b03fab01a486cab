/// Reports of validation runs, aggregated and streamed by the backend: nothing here holds
/// a run's failures, so a report's memory does not grow with them.
extension Store {
    /// Each failure of run `runID` (of form `formID` when given) with its rule, value (masked
    /// by `secrets`) and source, in entry order or in the order of the groups of `groupedBy`.
    /// Stops when `body` returns false.
    package func forEachReportFailure(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                                     groupedBy: ReportGroupKey? = nil,
                                     _ body: (ReportFailureRow) throws -> Bool) throws {
        var ruleByID: [Int64: RunRule] = [:]
        for rule in try backend.rules(ofRun: runID, form: nil) { ruleByID[rule.id] = rule }
        try backend.forEachReportFailure(runID: runID, formID: formID, multiForm: multiForm, secrets: secrets,
                                         groupedBy: groupedBy) { entryID, version, ruleID, key, value, secret, source in
            guard let rule = ruleByID[ruleID] else { return true }
            return try body(ReportFailureRow(entryID: entryID, entryVersion: version, key: key, rule: rule,
                                             value: value, valueIsSecret: secret, source: source))
        }
    }

    /// The groups of a run's failures by `key`, worst first; stops when `body` returns false.
    package func forEachReportGroup(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                                   by key: ReportGroupKey, _ body: (ReportGroupRow) throws -> Bool) throws {
        try backend.forEachReportGroup(runID: runID, formID: formID, multiForm: multiForm, secrets: secrets,
                                       by: key, body)
    }

    /// The `limit` most frequent non-secret failing values of each rule or field.
    package func reportTopValues(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                                by key: ReportGroupKey, limit: Int = 10) throws -> [ReportValueCount] {
        try backend.reportTopValues(runID: runID, formID: formID, multiForm: multiForm, secrets: secrets,
                                    by: key, limit: limit)
    }

    /// Failures of a run (of one form) counted by group key.
    package func reportGroupCounts(runID: Int64, formID: Int64?, multiForm: Bool,
                                  by key: ReportGroupKey) throws -> [String: Int] {
        try backend.reportGroupCounts(runID: runID, formID: formID, multiForm: multiForm, by: key)
    }

    /// Newly failing (`newly`) or fixed entries of a form between a run and the previous
    /// one, by id, at most `limit`; returns how many there are in all.
    @discardableResult
    package func forEachComparedEntry(runID: Int64, previousRunID: Int64, formID: Int64, newly: Bool,
                                     previousJudgedThrough: Int64, judgedThrough: Int64, secrets: ReportSecrets,
                                     limit: Int?, _ body: (ReportEntryRow) throws -> Void) throws -> Int {
        try backend.forEachComparedEntry(runID: runID, previousRunID: previousRunID, formID: formID, newly: newly,
                                         previousJudgedThrough: previousJudgedThrough, judgedThrough: judgedThrough,
                                         secrets: secrets, limit: limit, body)
    }
}
