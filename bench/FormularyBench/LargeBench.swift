import FormularyKit
import FormularyRules

/// Single large inputs that once took minutes because of quadratic work, release build,
/// fastest of three: a decimal range on a megabyte number (`DecimalTests`) and the grouping
/// of a report with one group of 50,000 failures (`ReportGroupingTests`). The tests check
/// the answers; this prints the times.
func runLargeBench() {
    print("Large inputs (fastest of 3)")
    let here = SourceLocation(file: "bench", line: 1, column: 1)
    let range = RangeSpec(lower: .value(DecimalLiteral("0")), upper: .value(DecimalLiteral("1")), upperInclusive: true)
    let definition = FieldTypeDefinition(
        name: "unit", checks: [CheckRule(kind: .range(range), options: RuleOptions(name: "range", location: here))],
        location: here)
    if let type = FieldCompiler.compile(definition, arguments: [:], today: CivilDate(year: 2026, month: 11, day: 29)).compiled {
        let big = "0." + String(repeating: "9", count: 1_000_000)
        let over = "1" + big.dropFirst()
        var answers = (false, true, false)
        let final = Timing.fastest { answers.0 = type.isValid(big); answers.1 = type.isValid(over) }
        let live = Timing.fastest { answers.2 = type.validate(big, stage: .live).verdict == .valid }
        let right = answers.0 && !answers.1 && answers.2
        print("  range 0...1 on a 1 MB number: final (in and out of range) \(Timing.milliseconds(final)), "
              + "live \(Timing.milliseconds(live))\(right ? "" : " — WRONG ANSWER")")
    }

    let failures = (1...50_000).map {
        RunReport.Failure(entry: .init(id: Int64($0)), form: "signup", field: "card", type: "credit-card",
                          rule: "luhn", severity: .error, message: "Card number is not valid")
    }
    let report = RunReport(
        facts: .init(runID: 1, startedAt: "2026-11-29T10:00:00.000Z", endedAt: "2026-11-29T10:00:01.000Z",
                     actor: "bench", today: "2026-11-29", status: "complete", entriesChecked: 50_000,
                     entriesFailing: 50_000, errors: 50_000, warnings: 0),
        forms: [], typeVersions: [], failures: failures, comparisons: [])
    var entries = 0, ordered = 0
    let grouping = Timing.fastest { entries = report.groups(by: .field).first?.entries ?? 0 }
    let ordering = Timing.fastest { ordered = report.failuresInGroupOrder(by: .rule).count }
    let right = entries == 50_000 && ordered == 50_000
    print("  report with one group of 50,000 failures: groups(by: .field) \(Timing.milliseconds(grouping)), "
          + "failuresInGroupOrder(by: .rule) \(Timing.milliseconds(ordering))\(right ? "" : " — WRONG ANSWER")")
}
