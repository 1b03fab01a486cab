import Testing
import FormularyJSON
@testable import FormularyKit

@Suite struct ReportEscapingTests {
    @Test(arguments: ["=1+2", "+1", "-5 is below 18", "@SUM(A1)", "\tx", "\rx"])
    func formulaLikeCellsArePrefixed(_ cell: String) {
        let escaped = ReportEscaping.csvCell(cell)
        let unquoted = escaped.hasPrefix("\"") ? String(escaped.dropFirst().dropLast()) : escaped
        #expect(unquoted == "'" + cell)
    }

    /// Spreadsheets trim leading whitespace (and drop invisible characters) before deciding
    /// that a cell is a formula, so what comes first after them counts.
    @Test(arguments: [" =1+2", "   +1", "\n=cmd|' /C calc'!A0", "\r\n=1", " \t@SUM(A1)", "\u{0B}=1",
                      "\u{1F}-2", "\u{A0}=HYPERLINK(\"x\")", "\u{3000}=1", "\u{2028}+1", "\u{200B}=1",
                      "\u{FEFF}@x", "\u{202E}=1", " \u{85}-1"])
    func formulasAfterLeadingInvisibleCharactersArePrefixed(_ cell: String) {
        let escaped = ReportEscaping.csvCell(cell)
        let unquoted = escaped.hasPrefix("\"") ? String(escaped.dropFirst().dropLast()).replacing("\"\"", with: "\"")
                                               : escaped
        #expect(unquoted == "'" + cell, "\(cell.debugDescription) → \(escaped.debugDescription)")
    }

    @Test func ordinaryCellsAreLeftAlone() {
        #expect(ReportEscaping.csvCell("abc") == "abc")
        #expect(ReportEscaping.csvCell("") == "")
        #expect(ReportEscaping.csvCell("a=b") == "a=b")
        #expect(ReportEscaping.csvCell("42") == "42")
        // Leading spaces before anything but a formula's first character change nothing.
        #expect(ReportEscaping.csvCell(" 42") == " 42")
        #expect(ReportEscaping.csvCell("  Ada = Grace") == "  Ada = Grace")
        #expect(ReportEscaping.csvCell("\u{A0}x-1") == "\u{A0}x-1")
        #expect(ReportEscaping.csvCell("   ") == "   ")
        #expect(ReportEscaping.csvCell("\nsecond line") == "\"\nsecond line\"")
    }

    @Test func cellsWithSeparatorsQuotesOrLineBreaksAreQuoted() {
        #expect(ReportEscaping.csvCell("a,b") == "\"a,b\"")
        #expect(ReportEscaping.csvCell("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ReportEscaping.csvCell("two\nlines") == "\"two\nlines\"")
        #expect(ReportEscaping.csvCell("cr\rhere") == "\"cr\rhere\"")
        #expect(ReportEscaping.csvCell("=a,b") == "\"'=a,b\"")
        // A quote followed by a combining mark is one Character, but still a quote in CSV.
        #expect(ReportEscaping.csvCell("x\"\u{301}y") == "\"x\"\"\u{301}y\"")
    }

    @Test func recordsEndWithCRLF() {
        #expect(ReportEscaping.csvRecord(["a", "b,c", "=d"]) == "a,\"b,c\",'=d\r\n")
    }

    @Test func htmlEscapesTheFiveSpecialCharacters() {
        #expect(ReportEscaping.html("<a href=\"x\">Tom & 'Jerry'</a>")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(ReportEscaping.html("plain é 🙂") == "plain é 🙂")
    }

    @Test func terminalTextShowsControlCharactersAsEscapes() {
        #expect(ReportEscaping.terminal("a\u{1B}[31mb\n\tc\u{7F}\u{85}") == "a\\u{1B}[31mb\\n\\tc\\u{7F}\\u{85}")
        #expect(ReportEscaping.terminal("fine") == "fine")
    }
}

/// Reads RFC 4180 CSV back (quoted cells, doubled quotes, CRLF records), so tests check
/// what a spreadsheet would see rather than the bytes.
func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var cell = ""
    var quoted = false
    var scalars = Array(text.unicodeScalars)[...]
    while let c = scalars.popFirst() {
        if quoted {
            if c == "\"" {
                if scalars.first == "\"" { scalars.removeFirst(); cell.unicodeScalars.append("\"") } else { quoted = false }
            } else {
                cell.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            record.append(cell); cell = ""
        } else if c == "\r" && scalars.first == "\n" {
            scalars.removeFirst()
            record.append(cell); cell = ""
            records.append(record); record = []
        } else {
            cell.unicodeScalars.append(c)
        }
    }
    if !cell.isEmpty || !record.isEmpty { record.append(cell); records.append(record) }
    return records
}

@Suite struct ReportRenderingTests {
    let report = ReportSample.report()

    // MARK: CSV

    @Test func csvHasAHeaderAndOneRecordPerFailureInGroupOrder() {
        let csv = report.csv(by: .rule)
        let records = parseCSV(csv)
        #expect(records.first == ["run", "form", "entry_id", "entry_key", "field", "type", "type_version",
                                  "rule", "severity", "message", "value", "source"])
        #expect(records.count == report.failures.count + 1)
        #expect(records.dropFirst().map { $0[7] } == ["luhn", "luhn", "mask", "pattern", "same", "range", "unknown-field"])
        #expect(records.allSatisfy { $0.count == 12 })
        #expect(records[1] == ["7", "signup", "3", "k-3", "card", "credit-card", String(repeating: "c", count: 64),
                               "luhn", "error", "Card number is not valid", "", ""])
    }

    @Test func csvDefusesFormulasAndKeepsLineBreaksInsideQuotes() {
        let csv = report.csv(by: .rule)
        let records = parseCSV(csv)
        let pattern = records.first { $0[7] == "pattern" }!
        #expect(pattern[3] == "'=SUM(A1:A9)")
        let range = records.first { $0[7] == "range" }!
        #expect(range[8] == "warning")
        #expect(range[9] == "'-5 is below 18,\r\nsee\u{1B}[31m help")
        // Every line break outside a quoted cell is CRLF.
        var quoted = false
        var previous: Unicode.Scalar = " "
        for c in csv.unicodeScalars {
            if c == "\"" { quoted.toggle() }
            if c == "\n" && !quoted { #expect(previous == "\r") }
            previous = c
        }
        #expect(csv.hasSuffix("\r\n"))
    }

    @Test func csvNeverShowsASecretKey() {
        let csv = report.csv(by: .entry)
        #expect(!csv.contains(ReportSample.secretKey))
        #expect(parseCSV(csv).contains { $0[2] == "8" && $0[3] == "•••" })
    }

    // MARK: JSON

    @Test func jsonIsOneDocumentWithTheRunGroupsFailuresAndComparison() throws {
        let bytes = report.json(by: .field)
        #expect(bytes.last == 0x0A)
        #expect(bytes.dropLast().contains(0x0A) == false)
        let doc = try JSONValue(parsing: bytes)
        #expect(doc["run"]?["id"]?.intValue == 7)
        #expect(doc["run"]?["status"]?.stringValue == "complete")
        #expect(doc["run"]?["errors"]?.intValue == 5)
        #expect(doc["form"]?.isNull == true)
        #expect(doc["by"]?.stringValue == "field")
        #expect(doc["groups"]?.arrayValue?.compactMap { $0["key"]?.stringValue }
                == ["card", "(form)", "cvv", "email", "age", "nickname"])
        #expect(doc["failures"]?.arrayValue?.count == 7)
        let same = doc["failures"]?.arrayValue?.first { $0["rule"]?.stringValue == "same" }
        #expect(same?["field"]?.isNull == true)
        #expect(same?["entry_key"]?.isNull == true)
        let comparison = doc["comparisons"]?[0]
        #expect(comparison?["previous_run"]?.intValue == 6)
        #expect(comparison?["newly_failing"]?.arrayValue?.compactMap { $0["before"]?.stringValue } == ["passed", "not-judged"])
        #expect(comparison?["fixed"]?[0]?["entry_id"]?.intValue == 2)
    }

    @Test func jsonByEntryNamesEntriesAndHidesSecretKeys() throws {
        let bytes = report.json(by: .entry)
        #expect(!String(decoding: bytes, as: UTF8.self).contains(ReportSample.secretKey))
        let doc = try JSONValue(parsing: bytes)
        let groups = doc["groups"]?.arrayValue ?? []
        #expect(groups.compactMap { $0["entry_id"]?.intValue } == [3, 8, 9, 5])
        #expect(groups[1]["entry_key"]?.stringValue == "•••")
        #expect(doc["comparisons"]?[0]?["newly_failing"]?[1]?["entry_key"]?.stringValue == "•••")
    }

    // MARK: Text

    @Test func textIsAnAlignedTableWorstFirst() {
        let text = report.text(by: .rule)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines.firstIndex { $0.hasPrefix("RULE") }!
        #expect(lines[header].hasPrefix("RULE           FAILURES  ENTRIES  ERRORS  WARNINGS  MESSAGE"))
        #expect(lines[header + 1].hasPrefix("luhn           2         2        2       0         Card number is not valid"))
        // Every row's FAILURES column starts where the heading does.
        let column = lines[header].range(of: "FAILURES")!.lowerBound.utf16Offset(in: lines[header])
        for row in lines[(header + 1)...(header + 6)] {
            let scalars = Array(row.utf16)
            #expect(scalars[column - 1] == 0x20 && scalars[column] != 0x20)
        }
        #expect(lines[0].hasPrefix("Run 7"))
        #expect(text.contains("5 errors, 2 warnings"))
        #expect(text.contains("Compared with run 6 (form signup): 2 newly failing, 1 fixed"))
        #expect(text.contains("#8 ••• (new)"))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains(ReportSample.secretKey))
    }

    @Test func textEscapesControlCharactersFromData() {
        let text = report.text(by: .field)
        #expect(text.contains("-5 is below 18,\\r\\nsee\\u{1B}[31m help"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func colourIsOnlyAddedWhenAskedAndKeepsTheColumnsAligned() {
        let plain = report.text(by: .rule, colour: false)
        let coloured = report.text(by: .rule, colour: true)
        #expect(coloured.contains("\u{1B}[31m"))
        let stripped = coloured.replacingOccurrencesOfSGR()
        #expect(stripped == plain)
    }

    @Test func textListsAtMostTheLimitOfComparedEntries() {
        var r = report
        r.comparisons[0].fixed = (1...30).map { RunReport.EntryRef(id: Int64($0)) }
        let text = r.text(by: .rule, listLimit: 3)
        #expect(text.contains("#1, #2, #3, … and 27 more"))
    }

    @Test func textSaysWhenThereIsNothingToReportOrCompare() {
        var r = report
        r.failures = []
        r.comparisons = [.init(form: "signup", previousRunID: nil, newlyFailing: [], fixed: [])]
        let text = r.text(by: .rule)
        #expect(text.contains("No failures."))
        #expect(text.contains("No earlier run judged form signup"))
        #expect(!text.contains("RULE"))
    }

    // MARK: HTML

    @Test func htmlIsOneSelfContainedPage() throws {
        var r = report
        r.recentRuns = (5...7).map { .init(id: Int64($0), startedAt: "2026-11-2\($0)T10:00:00.000Z", status: "complete",
                                            entriesChecked: 1_000, entriesFailing: 100 * $0) }
        let html = r.html(by: .rule)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        for outside in ["http://", "https://", "src=", "<script", "<link", "@import", "url(", "<img"] {
            #expect(!html.lowercased().contains(outside),
                    "the page refers outside: \(outside)")
        }
        // The only links are to the other runs' pages, beside this one.
        let links = html.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(Set(links) == ["formulary-report-run-5.html", "formulary-report-run-6.html"])
        #expect(html.contains("Failing share of the last 3 runs"))
        #expect(html.contains("<style>"))
    }

    @Test func htmlHasBarChartsByRuleAndByField() {
        let html = report.html(by: .entry)
        // Each chart is drawn wide and narrow (the page shows one by its width).
        #expect(html.components(separatedBy: "<svg ").count - 1 == 4)
        #expect(html.contains("<title>Failures by rule</title>"))
        #expect(html.contains("<title>Failures by field</title>"))
        // The worst rule's bar is the longest: full plot width.
        let plot = BarChart.width - BarChart.labelWidth - BarChart.countWidth
        #expect(html.contains("class=\"bar-error\" x=\"\(BarChart.labelWidth)\" y=\"6\" width=\"\(plot)\""))
        #expect(html.contains("class=\"bar-warning\""))
    }

    @Test func htmlEscapesEveryTextFromTheRun() {
        let html = report.html(by: .rule)
        #expect(html.contains("Not an email: &lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot; &#39;z&#39;"))
        #expect(!html.contains("<b>x</b>"))
        #expect(html.contains("=SUM(A1:A9)"))
    }

    @Test func htmlShowsFactsEntriesAndTheComparison() {
        let html = report.html(by: .rule)
        for fact in ["2026-11-29T10:00:00.000Z", "alice", "aaaaaaaaaaaa", "Entries failing"] {
            #expect(html.contains(fact))
        }
        #expect(html.contains("Failing entries (4)"))
        #expect(html.contains("Form signup, against run 6"))
        #expect(html.contains("2 newly failing"))
        #expect(html.contains("<li>#2 k-2</li>"))
        #expect(html.contains("<li>#8 ••• <em>(not judged before)</em></li>"))
        #expect(html.contains("•••"))
        #expect(!html.contains(ReportSample.secretKey))
    }

    @Test func htmlCapsLongListsAndSaysSo() {
        let html = report.html(by: .rule, entryLimit: 1)
        #expect(html.contains("… and 3 more"))
        #expect(html.contains("… and 1 more"))
    }

    @Test func chartsSumTheGroupsBeyondTheLimitIntoOneBar() {
        let groups = (1...20).map {
            ReportGroup(key: "rule-\($0)", entry: nil, failures: 1, entries: 1, errors: 1, warnings: 0,
                        commonMessage: "", rules: [])
        }
        let svg = BarChart(title: "t", groups: groups, maxBars: 15).svg()
        #expect(svg.contains(">5 more</text>"))
        #expect(svg.components(separatedBy: "<g>").count - 1 == 16)
        #expect(BarChart(title: "none", groups: []).svg().contains("No failures"))
    }
}

extension String {
    /// The text without SGR colour sequences (`ESC [ … m`).
    func replacingOccurrencesOfSGR() -> String {
        var out = ""
        var scalars = unicodeScalars[...]
        while let c = scalars.popFirst() {
            if c == "\u{1B}", scalars.first == "[" {
                while let d = scalars.popFirst(), d != "m" {}
                continue
            }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
