import Testing
@testable import FormularyRules

/// `compare A OP B` and `unique A…`: parsing, the form checker, and `compare` judged by the
/// one form judge (through `FormValidator`).
@Suite struct FormCompareTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    /// A date written the German way, so that two date formats meet in one comparison.
    static let dotted = """
        field dotted-date
        normalize trim
        date "dd.MM.yyyy"
        accept "01.02.2024"
        reject "31.02.2024" date
        """

    static let trip = """
        form trip
        field starts     iso-date      required
        field ends       dotted-date
        field card-until exp-date(earliest: "today-12y")
        field adults     age
        field budget     decimal
        field from       name
        field to         name
        compare starts < ends          message "The end date must be after the start date"
        compare starts <= card-until   as card-valid warning
        compare adults >= budget
        compare from != to
        unique from, to
        """

    func trip() throws -> FormValidator {
        let catalog = try FieldCatalog.builtin(today: Self.today).adding(source: Self.dotted, file: "dotted-date.field")
        return try catalog.form(source: Self.trip, file: "trip.form")
    }

    @Test func compareAndUniqueParseAndPrintCanonically() throws {
        let form = try trip().form
        #expect(form.rules.map(\.kind) == [
            .compare("starts", .less, "ends"), .compare("starts", .lessOrEqual, "card-until"),
            .compare("adults", .greaterOrEqual, "budget"), .compare("from", .notEqual, "to"),
            .unique(["from", "to"]),
        ])
        #expect(form.rules[1].options.name == "card-valid" && form.rules[1].options.severity == .warning)
        #expect(form.rules[4].options.name == "unique")
        let canonical = form.canonicalSource
        #expect(canonical.contains("compare starts < ends message \"The end date must be after the start date\"\n"))
        #expect(canonical.contains("compare starts <= card-until as card-valid warning\n"))
        #expect(canonical.contains("compare from != to\nunique from, to\n"))
        // Every operator, `=` included, and the canonical text reads back the same.
        let ops = parseText("form f\nfield a age\nfield b age\ncompare a = b\ncompare a > b\ncompare a>=b\n", file: "f.form")
        guard case .form(let parsed) = ops.content else { Issue.record("not a form"); return }
        #expect(ops.diagnostics.isEmpty)
        #expect(parsed.rules.map(\.kind) == [.compare("a", .equal, "b"), .compare("a", .greater, "b"),
                                             .compare("a", .greaterOrEqual, "b")])
        let again = parseText(canonical, file: "trip.form")
        guard case .form(let reparsed) = again.content else { Issue.record("not a form"); return }
        #expect(reparsed.rules.map(\.kind) == form.rules.map(\.kind))
    }

    @Test func syntaxMistakesAreReported() {
        func ids(_ line: String) -> [String] {
            parseText("form f\nfield a age\nfield b age\n" + line, file: "f.form").diagnostics.map(\.id.rawValue)
        }
        #expect(ids("compare a b") == ["unexpected-token"])
        #expect(ids("compare a <") == ["missing-argument"])
        #expect(ids("compare a => b") != [])
        #expect(ids("unique") == ["missing-argument"])
        #expect(ids("unique a,") == ["missing-argument"])
        #expect(ids("compare a < b final") == ["unexpected-token"])
    }

    @Test func theCheckerRefusesUnknownRepeatedAndIncompatibleFields() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        func ids(_ rules: String) -> [String] {
            do {
                _ = try catalog.form(source: "form f\nfield d iso-date\nfield e exp-date\nfield n age\nfield t name\n" + rules,
                                     file: "f.form")
                return []
            } catch {
                return error.ids
            }
        }
        #expect(ids("compare d < e\ncompare n > n\n") == ["duplicate-rule-field"])
        #expect(ids("compare d < x\nunique t, y\n") == ["undeclared-field", "undeclared-field"])
        #expect(ids("unique t, n, t\n") == ["duplicate-rule-field"])
        #expect(ids("compare d < n\n") == ["incompatible-comparison"])
        #expect(ids("compare t = n\n") == ["incompatible-comparison"])
        let message = try #require(throws: FormularyError.self) {
            try catalog.form(source: "form f\nfield d iso-date\nfield t name\ncompare d < t\n", file: "f.form")
        }
        #expect(message.description.contains("'compare' compares 'd', read as a date (its type has a 'date' check), with 't', read as text"))
    }

    @Test func compareReadsDatesNumbersAndTextAsTheirTypesDo() throws {
        let trip = try trip()
        let good = ["starts": "2026-03-01", "ends": "02.03.2026", "card-until": "03/26", "adults": "30",
                    "budget": "29.50", "from": "Ada", "to": "Bob"]
        #expect(trip.judge(good).violations == [])

        func failed(_ changes: [String: String]) -> [String] {
            var values = good
            for (k, v) in changes { values[k] = v }
            return trip.judge(values).formViolations.map { "\($0.field ?? "-")|\($0.rule)|\($0.severity.rawValue)|\($0.message)" }
        }
        // Dates by the day they denote, whatever their format: equal is not before.
        #expect(failed(["ends": "01.03.2026"]) == ["ends|compare|error|The end date must be after the start date"])
        #expect(failed(["ends": "28.02.2026"]) == ["ends|compare|error|The end date must be after the start date"])
        // `20260301` is formatted by the mask first: the same day.
        #expect(failed(["starts": "20260302"]).first == "ends|compare|error|The end date must be after the start date")
        // A month-only date is its first day: 2026-03-01 <= 03/26 holds, 2026-03-02 does not.
        #expect(failed(["starts": "2026-03-02", "ends": "03.03.2026"])
                == ["card-until|card-valid|warning|'starts' must be on or before 'card-until'"])
        // Exact decimals: 30 >= 30.00 holds, 30 >= 30.01 does not (nor as text would "30" vs "4").
        #expect(failed(["budget": "30.00"]) == [])
        #expect(failed(["budget": "30.01"]) == ["budget|compare|error|'adults' must be at least 'budget'"])
        #expect(failed(["adults": "100", "budget": "99.99"]) == [])
        // Canonical text: the name type trims, so " Ada" equals "Ada".
        #expect(failed(["to": " Ada "]) == ["to|compare|error|'from' must differ from 'to'"])
        // Skipped when a side is absent or invalid (each reports its own problem).
        #expect(failed(["ends": ""]) == [])
        #expect(failed(["ends": "31.02.2026"]) == [])
        #expect(failed(["budget": "lots"]) == [])
        #expect(trip.judge(["ends": "01.01.2020"]).violations.map(\.rule) == ["required"])
        // `unique` has no meaning for one record: "Ada" twice is no violation of it.
        #expect(failed(["to": "Ada", "from": "Ada"]).allSatisfy { !$0.contains("|unique|") })
    }

    @Test func defaultMessagesNameTheRelation() {
        let cases: [(ComparisonOperator, ComparisonReading, String)] = [
            (.less, .date, "'a' must be before 'b'"), (.greaterOrEqual, .date, "'a' must be on or after 'b'"),
            (.less, .number, "'a' must be less than 'b'"), (.lessOrEqual, .text, "'a' must be at most 'b'"),
            (.greater, .number, "'a' must be greater than 'b'"), (.equal, .text, "'a' must equal 'b'"),
            (.notEqual, .date, "'a' must be another date than 'b'"),
        ]
        for (op, reading, message) in cases {
            let template = RuleTexts.englishText(RuleTexts.compareItem(op, reading)) ?? ""
            #expect(RuleTexts.fill(template, ["a": "'a'", "b": "'b'"]) == message)
        }
    }
}
