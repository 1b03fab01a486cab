import Testing
import FormularyRules
@testable import FormularyKit

/// A hand-made report of one run of a sign-up form, with the cases renderers must get
/// right: a secret entry key, a key and messages that look like spreadsheet formulas or
/// HTML, a form-level rule, a field the form does not declare, and warnings.
enum ReportSample {
    static let secretKey = "SECRET-737"

    static let card = RunReport.Failure(entry: .init(id: 3, key: "k-3"), form: "signup", field: "card",
                                        type: "credit-card", typeVersion: String(repeating: "c", count: 64),
                                        rule: "luhn", severity: .error, message: "Card number is not valid")

    static func report() -> RunReport {
        let e3 = RunReport.EntryRef(id: 3, key: "k-3")
        let e5 = RunReport.EntryRef(id: 5, key: "=SUM(A1:A9)")
        let e8 = RunReport.EntryRef(id: 8, key: secretKey, keyIsSecure: true)
        let e9 = RunReport.EntryRef(id: 9)
        let failures: [RunReport.Failure] = [
            card,
            .init(entry: e3, form: "signup", field: "cvv", type: "cvv", rule: "mask", severity: .error,
                  message: "The security code has 3 digits"),
            .init(entry: e5, form: "signup", field: "email", type: "email", rule: "pattern", severity: .error,
                  message: "Not an email: <b>x</b> & \"y\" 'z'"),
            .init(entry: e8, form: "signup", field: "card", type: "credit-card", rule: "luhn", severity: .error,
                  message: "Card number is not valid"),
            .init(entry: e8, form: "signup", field: "nickname", type: nil, rule: "unknown-field",
                  severity: .warning, message: "The form has no field 'nickname'"),
            .init(entry: e9, form: "signup", field: nil, type: nil, rule: "same", severity: .error,
                  message: "The two emails differ"),
            .init(entry: e9, form: "signup", field: "age", type: "age(min: 18)", rule: "range",
                  severity: .warning, message: "-5 is below 18,\r\nsee\u{1B}[31m help"),
        ]
        return RunReport(
            facts: .init(runID: 7, startedAt: "2026-11-29T10:00:00.000Z", endedAt: "2026-11-29T10:00:01.250Z",
                         actor: "alice", today: "2026-11-29", status: "complete", entriesChecked: 10,
                         entriesFailing: 4, errors: 5, warnings: 2),
            forms: [.init(name: "signup", version: String(repeating: "a", count: 64), entriesChecked: 10,
                          entriesFailing: 4)],
            typeVersions: [.init(name: "credit-card", version: String(repeating: "c", count: 64), origin: "builtin")],
            failures: failures,
            comparisons: [.init(form: "signup", previousRunID: 6,
                                newlyFailing: [.init(entry: e5, before: .passed), .init(entry: e8, before: .notJudged)],
                                fixed: [.init(id: 2, key: "k-2")])])
    }
}

@Suite struct ReportGroupingTests {
    let report = ReportSample.report()

    @Test func byRuleMostFailuresFirstThenErrorsThenName() {
        let groups = report.groups(by: .rule)
        #expect(groups.map(\.key) == ["luhn", "mask", "pattern", "same", "range", "unknown-field"])
        let luhn = groups[0]
        #expect(luhn.failures == 2)
        #expect(luhn.entries == 2)
        #expect(luhn.errors == 2 && luhn.warnings == 0)
        #expect(luhn.commonMessage == "Card number is not valid")
        #expect(groups.last?.warnings == 1)
    }

    @Test func byFieldPutsFormLevelRulesUnderTheirOwnKey() {
        let groups = report.groups(by: .field)
        #expect(groups.map(\.key) == ["card", "(form)", "cvv", "email", "age", "nickname"])
    }

    @Test func byTypeUsesBareTypeNamesAndMarksUndeclaredFields() {
        let groups = report.groups(by: .type)
        #expect(groups.map(\.key) == ["credit-card", "(form)", "cvv", "email", "(undeclared)", "age"])
        #expect(groups.first { $0.key == "age" }?.rules == ["range"])
    }

    @Test func byEntryOrdersByFailuresThenErrorsThenID() {
        let groups = report.groups(by: .entry)
        #expect(groups.map { $0.entry?.id } == [3, 8, 9, 5])
        #expect(groups[0].rules == ["card.luhn", "cvv.mask"])
        #expect(groups[2].rules == ["same", "age.range"])
        #expect(groups[1].displayKey == "#8 •••")
        #expect(!groups.contains { $0.displayKey.contains(ReportSample.secretKey) })
    }

    @Test func fieldKeysAreQualifiedWhenTheReportSpansSeveralForms() {
        var two = report
        two.forms.append(.init(name: "other", version: String(repeating: "b", count: 64), entriesChecked: 1,
                               entriesFailing: 1))
        two.failures.append(.init(entry: .init(id: 20), form: "other", field: "card", type: "credit-card",
                                  rule: "luhn", severity: .error, message: "x"))
        let keys = two.groups(by: .field).map(\.key)
        #expect(keys.contains("signup.card") && keys.contains("other.card"))
        #expect(!keys.contains("card"))
    }

    @Test func commonMessageIsTheMostFrequentAndTheFirstAmongEquals() {
        var r = report
        r.failures = [
            .init(entry: .init(id: 1), form: "f", field: "a", type: "t", rule: "r", severity: .error, message: "one"),
            .init(entry: .init(id: 2), form: "f", field: "a", type: "t", rule: "r", severity: .error, message: "two"),
            .init(entry: .init(id: 3), form: "f", field: "a", type: "t", rule: "r", severity: .error, message: "two"),
            .init(entry: .init(id: 4), form: "f", field: "b", type: "t", rule: "s", severity: .error, message: "x"),
            .init(entry: .init(id: 5), form: "f", field: "b", type: "t", rule: "s", severity: .error, message: "y"),
        ]
        let groups = r.groups(by: .rule)
        #expect(groups[0].commonMessage == "two")
        #expect(groups[1].commonMessage == "x")
    }

    @Test func failuresInGroupOrderFollowTheGroupsThenEntryIDs() {
        let ordered = report.failuresInGroupOrder(by: .rule)
        #expect(ordered.map(\.rule) == ["luhn", "luhn", "mask", "pattern", "same", "range", "unknown-field"])
        #expect(ordered.prefix(2).map(\.entry.id) == [3, 8])
        #expect(ordered.count == report.failures.count)
    }

    @Test func failuresByEntryAreInIDOrder() {
        var r = report
        r.failures.reverse()
        let byEntry = r.failuresByEntry
        #expect(byEntry.map(\.entry.id) == [3, 5, 8, 9])
        #expect(byEntry[0].failures.count == 2)
    }

    /// One group of 50,000 failures (a big run's common case) is counted right. Grouping
    /// once copied the group's set of entries per failure, which took minutes; its speed is
    /// now a printed figure of `FormularyBench large`, not a timed assertion here.
    @Test func aLargeGroupIsCountedInOnePass() {
        var r = report
        r.failures = (1...50_000).map {
            .init(entry: .init(id: Int64($0)), form: "signup", field: "card", type: "credit-card", rule: "luhn",
                  severity: .error, message: "Card number is not valid")
        }
        let groups = r.groups(by: .field)
        #expect(groups.count == 1)
        #expect(groups.first?.entries == 50_000)
        #expect(groups.first?.failures == 50_000)
        #expect(r.failuresInGroupOrder(by: .rule).count == 50_000)
    }

    @Test func noFailuresGiveNoGroups() {
        var r = report
        r.failures = []
        for grouping in ReportGrouping.allCases { #expect(r.groups(by: grouping).isEmpty) }
    }
}

@Suite struct ReportComparisonTests {
    typealias E = RunReport.EntryRef

    @Test func newlyFailingAndFixed() {
        let c = RunReport.Comparison.compare(
            form: "signup", previousRunID: 6,
            failingNow: [E(id: 3), E(id: 5), E(id: 12)], failingBefore: [E(id: 2), E(id: 3), E(id: 4)],
            previousJudgedThrough: 10, judgedThrough: 12)
        #expect(c.newlyFailing.map(\.entry.id) == [5, 12])
        #expect(c.newlyFailing.map(\.before) == [.passed, .notJudged])
        #expect(c.fixed.map(\.id) == [2, 4])
        #expect(c.previousRunID == 6)
    }

    @Test func entriesThePreviousRunDidNotJudgeAreMarkedSo() {
        let c = RunReport.Comparison.compare(
            form: "f", previousRunID: 1, failingNow: [E(id: 12), E(id: 4)], failingBefore: [],
            previousJudgedThrough: 10, judgedThrough: 20)
        #expect(c.newlyFailing.map(\.entry.id) == [4, 12])
        #expect(c.newlyFailing.map(\.before) == [.passed, .notJudged])
    }

    @Test func anEntryThisRunDidNotReachIsNotFixed() {
        // An interrupted run judged entries through 5 only: entry 8 failed before and was
        // not judged now, so nothing is known about it.
        let c = RunReport.Comparison.compare(
            form: "f", previousRunID: 1, failingNow: [], failingBefore: [E(id: 4), E(id: 8)],
            previousJudgedThrough: 10, judgedThrough: 5)
        #expect(c.fixed.map(\.id) == [4])
    }

    @Test func withoutAPreviousRunEverythingFailingIsNewAndNothingIsFixed() {
        let c = RunReport.Comparison.compare(
            form: "f", previousRunID: nil, failingNow: [E(id: 2), E(id: 1), E(id: 2)], failingBefore: [],
            previousJudgedThrough: nil, judgedThrough: 5)
        #expect(c.newlyFailing.map(\.entry.id) == [1, 2])
        #expect(c.newlyFailing.allSatisfy { $0.before == .notJudged })
        #expect(c.fixed.isEmpty)
        #expect(c.previousRunID == nil)
    }

    @Test func unchangedFailuresAreNeitherNewNorFixed() {
        let c = RunReport.Comparison.compare(
            form: "f", previousRunID: 1, failingNow: [E(id: 1), E(id: 2)], failingBefore: [E(id: 1), E(id: 2)],
            previousJudgedThrough: 2, judgedThrough: 2)
        #expect(c.newlyFailing.isEmpty)
        #expect(c.fixed.isEmpty)
    }
}
