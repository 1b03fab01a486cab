extension RunReport {
    /// The report as one self-contained HTML page: inline CSS, charts in inline SVG, no
    /// scripts, no fonts, images or links to anywhere, so it can be mailed or archived
    /// and still show the same thing. Every text from the run is escaped.
    ///
    /// The page shows the run's facts, bar charts of failures by rule and by field, the
    /// groups of `grouping`, the comparison with the previous run of each form, and a table
    /// of the failing entries with their messages.
    ///
    /// - Parameter entryLimit: at most this many failing entries (and newly failing / fixed
    ///   entries per form) are listed; the page says how many more there are. The JSON and
    ///   CSV reports list them all.
    package func html(by grouping: ReportGrouping, entryLimit: Int = 1000) -> String {
        String(decoding: ReportSink.collect { try renderHTML(by: grouping, entryLimit: entryLimit, to: $0) }, as: UTF8.self)
    }

    /// ``html(by:entryLimit:)`` written into `sink` as the rows arrive. The page links the
    /// recent runs' reports (`formulary-report-run-ID.html` beside it) and draws their
    /// failing share; at 390 px wide nothing overflows and chart labels stay at least 12 px.
    package func renderHTML(by grouping: ReportGrouping, entryLimit: Int = 1000, to sink: ReportSink) throws {
        let esc = ReportEscaping.html
        let n = ReportNumbers.grouped
        var title = "Formulary report: run \(facts.runID)"
        if let scope { title += ", form \(scope)" }

        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(esc(title))</title>
        <style>\(Self.css)</style>
        </head>
        <body>
        <header><h1>\(esc(title))</h1><span class="status status-\(esc(facts.status))">\(esc(facts.status))</span></header>

        """

        out += "<section id=\"facts\"><h2>The run</h2>\n<dl>\n"
        func fact(_ name: String, _ value: String) {
            out += "<dt>\(esc(name))</dt><dd>\(esc(value))</dd>\n"
        }
        fact("Run", String(facts.runID))
        fact("Started", facts.startedAt)
        fact("Ended", facts.endedAt ?? "not finished")
        fact("Actor", facts.actor)
        fact("Today", facts.today)
        if let locale = facts.locale { fact("Locale", locale) }
        fact("Entries checked", n(facts.entriesChecked))
        fact("Entries failing", "\(n(facts.entriesFailing)) (\(ReportNumbers.percent(facts.entriesFailing, of: facts.entriesChecked)))")
        fact("Entries with warnings only", n(facts.entriesWarned))
        fact("Errors", n(facts.errors))
        fact("Warnings", n(facts.warnings))
        if let error = facts.error { fact("Stopped because", error) }
        out += "</dl>\n"
        out += "<table class=\"versions\"><thead><tr><th>Form</th><th>Version</th><th>Checked</th><th>Failing</th></tr></thead><tbody>\n"
        for form in forms {
            out += "<tr><td>\(esc(form.name))</td><td class=\"hash\" title=\"\(esc(form.version))\">\(esc(String(form.version.prefix(12))))</td>"
                + "<td class=\"num\">\(n(form.entriesChecked))</td><td class=\"num\">\(n(form.entriesFailing))</td></tr>\n"
        }
        out += "</tbody></table>\n"
        if !typeVersions.isEmpty {
            out += "<details><summary>\(typeVersions.count) type version\(typeVersions.count == 1 ? "" : "s") used</summary>\n"
            out += "<table class=\"versions\"><thead><tr><th>Type</th><th>Version</th><th>Origin</th></tr></thead><tbody>\n"
            for type in typeVersions {
                out += "<tr><td>\(esc(type.name))</td><td class=\"hash\" title=\"\(esc(type.version))\">\(esc(String(type.version.prefix(12))))</td><td>\(esc(type.origin))</td></tr>\n"
            }
            out += "</tbody></table></details>\n"
        }
        out += "</section>\n"
        // The facts are known without a pass over the failures: they go out first.
        try sink.write(out)

        out = "<section id=\"charts\"><h2>Failures</h2>\n"
        out += "<p class=\"legend\"><span class=\"key key-error\"></span>errors <span class=\"key key-warning\"></span>warnings</p>\n"
        let byRule = try collectedGroups(by: .rule), byField = try collectedGroups(by: .field)
        out += "<h3>By rule</h3>\n" + BarChart(title: "Failures by rule", groups: byRule).svg() + "\n"
            + BarChart(title: "Failures by rule", groups: byRule).svg(narrow: true) + "\n"
        out += "<h3>By field</h3>\n" + BarChart(title: "Failures by field", groups: byField).svg() + "\n"
            + BarChart(title: "Failures by field", groups: byField).svg(narrow: true) + "\n"
        out += "</section>\n"
        out += runsSection()
        try sink.write(out)

        try groupsSection(grouping, limit: entryLimit, to: sink)
        try sink.write(topValuesSection(try topValuesPart.value()))
        try sink.write(comparisonSection(try comparisonsPart.value(), limit: entryLimit))
        try entriesSection(limit: entryLimit, to: sink)
        try sink.write("<footer>Written by formulary. Values of secure fields are never shown (\(Self.secureMask)).</footer>\n"
                       + "</body>\n</html>\n")
    }

    /// The recent runs: a line of their failing share (inline SVG) and links to their reports.
    private func runsSection() -> String {
        let esc = ReportEscaping.html
        guard !recentRuns.isEmpty else { return "" }
        var out = "<section id=\"runs\"><h2>Recent runs</h2>\n"
        out += ShareChart(runs: recentRuns, current: facts.runID).svg() + "\n"
        out += "<table class=\"runs\"><thead><tr><th>Run</th><th>Started</th><th>Checked</th><th>Failing</th></tr></thead><tbody>\n"
        for run in recentRuns.reversed() {
            let name = run.id == facts.runID ? "<strong>\(run.id)</strong>"
                : "<a href=\"\(esc(ReportFile.defaultHTMLName(run: run.id)))\">\(run.id)</a>"
            out += "<tr><td>\(name)</td><td>\(esc(run.startedAt))</td><td class=\"num\">\(ReportNumbers.grouped(run.entriesChecked))</td>"
                + "<td class=\"num\">\(ReportNumbers.grouped(run.entriesFailing)) (\(ReportNumbers.percent(run.entriesFailing, of: run.entriesChecked)))</td></tr>\n"
        }
        out += "</tbody></table>\n<p class=\"more\">Each run's page is written by <code>formulary report --run ID --format html</code>.</p>\n"
        return out + "</section>\n"
    }

    /// The most frequent failing values per rule and per field.
    private func topValuesSection(_ topValues: [ReportGrouping: [String: [ValueCount]]]) -> String {
        let esc = ReportEscaping.html
        var out = "<section id=\"values\"><h2>Most frequent failing values</h2>\n"
        var any = false
        for (g, heading) in [(ReportGrouping.rule, "Rule"), (.field, "Field")] {
            guard let values = topValues[g], !values.isEmpty else { continue }
            any = true
            out += "<table class=\"values\"><thead><tr><th>\(heading)</th><th>Value</th><th>Failures</th></tr></thead><tbody>\n"
            for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                for (i, v) in values[key]!.enumerated() {
                    out += "<tr>" + (i == 0 ? "<td rowspan=\"\(values[key]!.count)\">\(esc(key))</td>" : "")
                        + "<td class=\"value\">\(esc(v.value))</td><td class=\"num\">\(ReportNumbers.grouped(v.count))</td></tr>\n"
                }
            }
            out += "</tbody></table>\n"
        }
        if !any { out += "<p>No values to show (no failures, or only secure ones).</p>\n" }
        return out + "</section>\n"
    }

    private func groupsSection(_ grouping: ReportGrouping, limit: Int, to sink: ReportSink) throws {
        let esc = ReportEscaping.html
        let n = ReportNumbers.grouped
        let withChange = grouping != .entry && !previousRunIDs.isEmpty
        let before = withChange ? try previousCounts(by: grouping) : [:]
        try sink.write("<section id=\"groups\"><h2>By \(grouping.rawValue)</h2>\n")
        let last = grouping == .entry ? "Rules and values" : "Most common message"
        var any = false
        var count = 0
        try rows.forEachGroup(by: grouping) { g in
            count += 1
            // Counting on past the limit costs a row each, not memory.
            if count > limit { return true }
            if !any {
                try sink.write("<table class=\"groups cards\"><thead><tr><th>\(esc(grouping.rawValue.capitalizedFirst))</th><th>Failures</th>"
                    + (withChange ? "<th>Change</th>" : "") + "<th>Entries</th>"
                    + "<th class=\"wide\">Errors</th><th class=\"wide\">Warnings</th><th>\(last)</th></tr></thead><tbody>\n")
                any = true
            }
            let detail = grouping == .entry
                ? g.rulesWithValues.joined(separator: ", ") + (g.source.map { " (\($0))" } ?? "") : g.commonMessage
            let change = withChange
                ? "<td class=\"num\" data-label=\"Change\">\(esc(ReportNumbers.change(from: before[g.key] ?? 0, to: g.failures)))</td>" : ""
            try sink.write("<tr><td data-label=\"\(esc(grouping.rawValue.capitalizedFirst))\">\(esc(g.displayKey))</td>"
                + "<td class=\"num\" data-label=\"Failures\">\(n(g.failures))</td>\(change)<td class=\"num\" data-label=\"Entries\">\(n(g.entries))</td>"
                + "<td class=\"num wide\(g.errors > 0 ? " error" : "")\" data-label=\"Errors\">\(n(g.errors))</td>"
                + "<td class=\"num wide\(g.warnings > 0 ? " warning" : "")\" data-label=\"Warnings\">\(n(g.warnings))</td>"
                + "<td data-label=\"\(esc(last))\">\(esc(detail))</td></tr>\n")
            return true
        }
        try sink.write(any ? "</tbody></table>\n" + more(count, limit) + "</section>\n" : "<p>No failures.</p>\n</section>\n")
    }

    private func comparisonSection(_ comparisons: [Comparison], limit: Int) -> String {
        let esc = ReportEscaping.html
        var out = "<section id=\"comparison\"><h2>Compared with the previous run</h2>\n"
        if comparisons.isEmpty { out += "<p>Nothing to compare.</p>\n" }
        for c in comparisons {
            guard let previous = c.previousRunID else {
                out += "<p>Form <strong>\(esc(c.form))</strong>: no earlier run judged this form.</p>\n"
                continue
            }
            out += "<h3>Form \(esc(c.form)), against run \(previous)</h3>\n"
            out += "<p><span class=\"error\">\(ReportNumbers.grouped(c.newlyFailingCount)) newly failing</span>, "
                + "<span class=\"fixed\">\(ReportNumbers.grouped(c.fixedCount)) fixed</span></p>\n"
            if !c.newlyFailing.isEmpty {
                out += "<h4>Newly failing</h4>\n<ul class=\"entries\">"
                for n in c.newlyFailing.prefix(limit) {
                    out += "<li>\(esc(entryName(n.entry)))\(n.before == .notJudged ? " <em>(not judged before)</em>" : "")</li>"
                }
                out += "</ul>\n" + more(c.newlyFailingCount, limit)
            }
            if !c.fixed.isEmpty {
                out += "<h4>Fixed</h4>\n<ul class=\"entries\">"
                for entry in c.fixed.prefix(limit) { out += "<li>\(esc(entryName(entry)))</li>" }
                out += "</ul>\n" + more(c.fixedCount, limit)
            }
        }
        return out + "</section>\n"
    }

    private func entriesSection(limit: Int, to sink: ReportSink) throws {
        let esc = ReportEscaping.html
        let failing = facts.entriesFailing + facts.entriesWarned
        try sink.write("<section id=\"entries\"><h2>Failing entries (\(ReportNumbers.grouped(failing)))</h2>\n")
        var shown = 0
        var current: Int64?
        var any = false
        // Rows come in entry order; the entry's cells go on its first row only.
        try rows.forEachFailure(groupedBy: nil) { f in
            if !any {
                try sink.write("<table class=\"failures cards\"><thead><tr><th>Entry</th><th>Field</th><th>Value</th>"
                    + "<th>Rule</th><th class=\"wide\">Severity</th><th>Message</th><th class=\"wide\">Source</th></tr></thead><tbody>\n")
                any = true
            }
            if f.entry.id != current {
                if shown == limit { return false }
                shown += 1
                current = f.entry.id
            }
            let entry = f.entry.displayKey.map { "#\(f.entry.id) \($0)" } ?? "#\(f.entry.id)"
            try sink.write("<tr><td data-label=\"Entry\">\(esc(entry))</td><td data-label=\"Field\">\(esc(f.field ?? "(form)"))</td>"
                + "<td class=\"value\" data-label=\"Value\">\(f.value.map(esc) ?? "")</td><td data-label=\"Rule\">\(esc(f.rule))</td>"
                + "<td class=\"wide \(f.severity.rawValue)\" data-label=\"Severity\">\(f.severity.rawValue)</td>"
                + "<td data-label=\"Message\">\(esc(f.message))</td>"
                + "<td class=\"wide source\" data-label=\"Source\">\(Self.breakingAtSlashes(esc(f.source ?? "")))</td></tr>\n")
            return true
        }
        guard any else { return try sink.write("<p>No failures.</p>\n</section>\n") }
        try sink.write("</tbody></table>\n" + more(failing, limit) + "</section>\n")
    }

    private func entryName(_ entry: EntryRef) -> String {
        entry.displayKey.map { "#\(entry.id) \($0)" } ?? "#\(entry.id)"
    }

    private func more(_ count: Int, _ limit: Int) -> String {
        count > limit ? "<p class=\"more\">… and \(ReportNumbers.grouped(count - limit)) more (the JSON and CSV reports list them all).</p>\n" : ""
    }

    /// An escaped path with a line-break opportunity after each `/`, so that a narrow
    /// column wraps `imports/2026/signup.csv:12` between folders, not inside a name.
    static func breakingAtSlashes(_ escaped: String) -> String {
        escaped.replacingOccurrences(of: "/", with: "/<wbr>")
    }

    /// System fonts only: a page that fetches nothing.
    static let css = """
    *{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2228;background:#fff}
    header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}h1{font-size:1.5rem;margin:0;overflow-wrap:anywhere}h2{margin-top:2.2rem;border-bottom:1px solid #dde1e6;padding-bottom:.3rem}
    .status{padding:.15rem .6rem;border-radius:1rem;font-size:.85rem;background:#fff4d6;color:#7a5200}.status-complete{background:#e3f5e8;color:#1d6b34}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1.2rem}dt{color:#5b6570}dd{margin:0;overflow-wrap:anywhere}
    table{border-collapse:collapse;margin:.8rem 0;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #e8ebee;vertical-align:top;overflow-wrap:break-word}
    th{background:#f5f7f9;font-weight:600;overflow-wrap:normal}td.num{overflow-wrap:normal}td.num{text-align:right;font-variant-numeric:tabular-nums}.hash{font-family:ui-monospace,Menlo,Consolas,monospace}
    td.value,td.source{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}td.value{overflow-wrap:anywhere}
    table.versions{width:auto}.error{color:#b3261e}.warning{color:#8a5a00}.fixed{color:#1d6b34}
    .chart{max-width:100%;height:auto;display:block}.chart text{font-size:12px;fill:#1d2228}.chart .count{fill:#5b6570}.bar-error{fill:#d9534f}.bar-warning{fill:#f0ad4e}
    .chart .share{fill:none;stroke:#d9534f;stroke-width:2}.chart .dot{fill:#d9534f}.chart .axis{stroke:#c5cbd2}.chart-narrow{display:none}
    .legend .key{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 .8rem;vertical-align:-.1rem}.key-error{background:#d9534f}.key-warning{background:#f0ad4e}
    ul.entries{columns:16rem;padding-left:1.2rem}.more{color:#5b6570}footer{margin-top:3rem;color:#5b6570;font-size:.85rem}
    @media (max-width:600px){body{margin:1rem auto;padding:0 .5rem;font-size:14px}th,td{padding:.25rem .3rem}
    table.cards thead{display:none}table.cards tr{display:block;border-bottom:1px solid #e8ebee;padding:.35rem 0}
    table.cards td{display:grid;grid-template-columns:6.5rem minmax(0,1fr);gap:.6rem;border:0;padding:.1rem .3rem;text-align:left;overflow-wrap:anywhere}
    table.cards td::before{content:attr(data-label);color:#5b6570;font-weight:600;font-family:system-ui,sans-serif;font-size:.85rem}table.cards td:empty{display:none}
    .chart-wide{display:none}.chart-narrow{display:block}table.versions{width:100%}ul.entries{columns:auto}}
    @media (prefers-color-scheme:dark){body{background:#15181c;color:#e3e6ea}th{background:#1f2429}th,td{border-color:#2b3137}.chart text{fill:#e3e6ea}}
    """
}

extension String {
    /// The first letter upper-cased (`rule` → `Rule`).
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
