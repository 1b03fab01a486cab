import FormularyRules

/// What `report --by` groups failures by.
public enum ReportGrouping: String, Sendable, Hashable, CaseIterable {
    case rule, field, type, entry

    /// The column heading of the group key in tables.
    public var heading: String {
        switch self {
        case .rule: "RULE"
        case .field: "FIELD"
        case .type: "TYPE"
        case .entry: "ENTRY"
        }
    }
}

/// The failures that share a rule, a field, a type or an entry.
package struct ReportGroup: Sendable, Hashable {
    /// The rule, field, type name, or `#ID` of the entry. By field, rules of the whole entry
    /// group under ``ReportGroup/formLevel``; by type, cross-field rules group under
    /// ``ReportGroup/formLevel`` and fields the form does not declare under ``ReportGroup/noType``.
    package var key: String
    /// For `--by entry`: the entry.
    package var entry: RunReport.EntryRef?
    /// Failed rules in the group (one entry failing two rules counts twice).
    package var failures: Int
    /// Distinct entries in the group.
    package var entries: Int
    /// Failed rules with error severity in the group.
    package var errors: Int
    /// Failed rules with warning severity in the group.
    package var warnings: Int
    /// The message seen most often in the group (the first seen among equals).
    package var commonMessage: String
    /// Distinct rules in the group, in the order first seen (`field.rule` for `--by entry`).
    package var rules: [String]
    /// For `--by entry`: the value each of ``rules`` judged (nil when absent or the rule has
    /// no field; ``RunReport/secureMask`` when secret).
    package var values: [String?] = []
    /// For `--by entry`: where the entry's judged version came from (`FILE:LINE`).
    package var source: String? = nil

    /// For `--by entry`: each rule with the value it judged (`card.luhn "4111…"`).
    package var rulesWithValues: [String] {
        rules.enumerated().map { i, rule in
            guard i < values.count, let value = values[i] else { return rule }
            return "\(rule) \(RunReport.quoted(value))"
        }
    }

    /// The key of rules of the whole form (no field; by type: no type) when grouping by field or type.
    package static let formLevel = "(form)"
    /// The key of fields the form does not declare (`unknown-field`) when grouping by type.
    package static let noType = "(undeclared)"

    /// The key as it may be shown (an entry's secret key is never part of it).
    package var displayKey: String {
        guard let entry else { return key }
        if let k = entry.displayKey { return "#\(entry.id) \(k)" }
        return "#\(entry.id)"
    }
}

extension RunReport {
    /// The groups of `grouping`, worst first (the most errors first, then the most failures,
    /// then by key, entries by id), collected from ``rows``: for tests and summaries
    /// (renderers stream instead).
    package func groups(by grouping: ReportGrouping) -> [ReportGroup] {
        (try? collectedGroups(by: grouping)) ?? []
    }

    /// ``groups(by:)`` that throws what the database throws: for renderers of groupings
    /// with few groups (by rule, by field).
    func collectedGroups(by grouping: ReportGrouping) throws -> [ReportGroup] {
        var out: [ReportGroup] = []
        try rows.forEachGroup(by: grouping) { out.append($0); return true }
        return out
    }

    /// The failures in the order of their groups (worst group first), then by entry id:
    /// the row order of the CSV report.
    package func failuresInGroupOrder(by grouping: ReportGrouping) -> [Failure] {
        var out: [Failure] = []
        try? rows.forEachFailure(groupedBy: grouping) { out.append($0); return true }
        return out
    }
}

/// A report's failures held in memory: a report built by hand (tests, small runs). Groups
/// are computed the way the database computes them for loaded reports.
final class InMemoryReportRows: RunReportRows {
    let failures: [RunReport.Failure]
    let multiForm: Bool

    init(failures: [RunReport.Failure], multiForm: Bool) {
        self.failures = failures
        self.multiForm = multiForm
    }

    /// The group key of one failure. Field keys are qualified with the form when the
    /// report spans several forms, since two forms may use the same field name differently.
    func groupKey(of failure: RunReport.Failure, by grouping: ReportGrouping) -> String {
        switch grouping {
        case .rule:
            return failure.rule
        case .field:
            guard let field = failure.field else { return ReportGroup.formLevel }
            return multiForm ? "\(failure.form).\(field)" : field
        case .type:
            if let name = failure.typeName { return name }
            return failure.rule == "unknown-field" ? ReportGroup.noType : ReportGroup.formLevel
        case .entry:
            return "#\(failure.entry.id)"
        }
    }

    func forEachGroup(by grouping: ReportGrouping, _ body: (ReportGroup) throws -> Bool) throws {
        for group in groups(by: grouping) where try !body(group) { break }
    }

    func forEachFailure(groupedBy grouping: ReportGrouping?, _ body: (RunReport.Failure) throws -> Bool) throws {
        let ordered = grouping.map(inGroupOrder) ?? failures
        for failure in ordered where try !body(failure) { break }
    }

    func forEachComparedEntry(form: String, newly: Bool,
                              _ body: (RunReport.Comparison.NewlyFailing) throws -> Void) throws {}

    func groups(by grouping: ReportGrouping) -> [ReportGroup] {
        struct Accumulator {
            var group: ReportGroup
            var entryIDs: Set<Int64> = []
            var messageCounts: [String: Int] = [:]
            var messageOrder: [String] = []
            var seenRules: Set<String> = []
        }
        // Accumulators live in an array and are changed in place: copying one out of a
        // dictionary and back would copy its sets for every failure (quadratic on big runs).
        var index: [String: Int] = [:]
        var accumulators: [Accumulator] = []
        for failure in failures {
            let key = groupKey(of: failure, by: grouping)
            let i: Int
            if let known = index[key] {
                i = known
            } else {
                i = accumulators.count
                index[key] = i
                accumulators.append(Accumulator(group: ReportGroup(
                    key: key, entry: grouping == .entry ? failure.entry : nil, failures: 0, entries: 0,
                    errors: 0, warnings: 0, commonMessage: "", rules: [])))
            }
            accumulators[i].group.failures += 1
            if failure.severity == .error { accumulators[i].group.errors += 1 } else { accumulators[i].group.warnings += 1 }
            accumulators[i].entryIDs.insert(failure.entry.id)
            if accumulators[i].messageCounts[failure.message] == nil { accumulators[i].messageOrder.append(failure.message) }
            accumulators[i].messageCounts[failure.message, default: 0] += 1
            let rule = grouping == .entry ? (failure.field.map { "\($0).\(failure.rule)" } ?? failure.rule)
                                          : failure.rule
            if accumulators[i].seenRules.insert(rule).inserted {
                accumulators[i].group.rules.append(rule)
                if grouping == .entry { accumulators[i].group.values.append(failure.value) }
            }
            if grouping == .entry && accumulators[i].group.source == nil { accumulators[i].group.source = failure.source }
        }
        let groups = accumulators.map { a -> ReportGroup in
            var group = a.group
            group.entries = a.entryIDs.count
            // max(by:) returns the last of equals; walking the messages in first-seen order
            // and keeping a strictly greater count keeps the first.
            var best = ""
            var bestCount = 0
            for message in a.messageOrder where a.messageCounts[message]! > bestCount {
                best = message
                bestCount = a.messageCounts[message]!
            }
            group.commonMessage = best
            return group
        }
        // Worst first: errors make an entry invalid, warnings do not, so errors rank first.
        return groups.sorted { a, b in
            if a.errors != b.errors { return a.errors > b.errors }
            if a.failures != b.failures { return a.failures > b.failures }
            if let ea = a.entry, let eb = b.entry { return ea.id < eb.id }
            return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
    }

    func inGroupOrder(_ grouping: ReportGrouping) -> [RunReport.Failure] {
        let rank = Dictionary(uniqueKeysWithValues: groups(by: grouping).enumerated().map { ($1.key, $0) })
        let ranks = failures.map { rank[groupKey(of: $0, by: grouping)]! }
        return failures.indices.sorted { x, y in
            if ranks[x] != ranks[y] { return ranks[x] < ranks[y] }
            if failures[x].entry.id != failures[y].entry.id { return failures[x].entry.id < failures[y].entry.id }
            return x < y
        }.map { failures[$0] }
    }
}

extension RunReport.Comparison {
    /// Compares the entries that failed (had an error) in two runs of one form.
    ///
    /// - Parameters:
    ///   - failingNow: entries with an error in this run.
    ///   - failingBefore: entries with an error in the previous run (empty when there is none).
    ///   - previousJudgedThrough: the highest entry id the previous run judged for the form,
    ///     or nil when there is no previous run. Entries above it were not judged then.
    ///   - judgedThrough: the highest entry id this run judged for the form. An entry that
    ///     failed before but lies above it was not judged now, so it is not "fixed".
    package static func compare(form: String, previousRunID: Int64?,
                               failingNow: [RunReport.EntryRef], failingBefore: [RunReport.EntryRef],
                               previousJudgedThrough: Int64?, judgedThrough: Int64) -> RunReport.Comparison {
        let before = Set(failingBefore.map(\.id))
        let now = Set(failingNow.map(\.id))
        var newly: [NewlyFailing] = []
        var seen: Set<Int64> = []
        for entry in failingNow.sorted() where !before.contains(entry.id) && seen.insert(entry.id).inserted {
            let judgedBefore = previousJudgedThrough.map { entry.id <= $0 } ?? false
            newly.append(NewlyFailing(entry: entry, before: judgedBefore ? .passed : .notJudged))
        }
        seen = []
        let fixed = failingBefore.sorted().filter {
            !now.contains($0.id) && $0.id <= judgedThrough && seen.insert($0.id).inserted
        }
        return RunReport.Comparison(form: form, previousRunID: previousRunID, newlyFailing: newly, fixed: fixed)
    }
}
