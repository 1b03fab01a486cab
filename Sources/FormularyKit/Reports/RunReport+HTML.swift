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
    public func html(by grouping: ReportGrouping, entryLimit: Int = 1000) -> String {
        let esc = ReportEscaping.html
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
        fact("Entries checked", String(facts.entriesChecked))
        fact("Entries failing", String(facts.entriesFailing))
        fact("Entries with warnings only", String(facts.entriesWarned))
        fact("Errors", String(facts.errors))
        fact("Warnings", String(facts.warnings))
        if let error = facts.error { fact("Stopped because", error) }
        out += "</dl>\n"
        out += "<table class=\"versions\"><thead><tr><th>Form</th><th>Version</th><th>Checked</th><th>Failing</th></tr></thead><tbody>\n"
        for form in forms {
            out += "<tr><td>\(esc(form.name))</td><td class=\"hash\" title=\"\(esc(form.version))\">\(esc(String(form.version.prefix(12))))</td>"
                + "<td class=\"num\">\(form.entriesChecked)</td><td class=\"num\">\(form.entriesFailing)</td></tr>\n"
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

        out += "<section id=\"charts\"><h2>Failures</h2>\n"
        out += "<p class=\"legend\"><span class=\"key key-error\"></span>errors <span class=\"key key-warning\"></span>warnings</p>\n"
        out += "<h3>By rule</h3>\n" + BarChart(title: "Failures by rule", groups: groups(by: .rule)).svg() + "\n"
        out += "<h3>By field</h3>\n" + BarChart(title: "Failures by field", groups: groups(by: .field)).svg() + "\n"
        out += "</section>\n"

        out += groupsSection(grouping)
        out += comparisonSection(limit: entryLimit)
        out += entriesSection(limit: entryLimit)
        out += "<footer>Written by formulary. Values of secure fields are never shown (\(Self.secureMask)).</footer>\n"
        out += "</body>\n</html>\n"
        return out
    }

    private func groupsSection(_ grouping: ReportGrouping) -> String {
        let esc = ReportEscaping.html
        let groups = groups(by: grouping)
        var out = "<section id=\"groups\"><h2>By \(grouping.rawValue)</h2>\n"
        guard !groups.isEmpty else { return out + "<p>No failures.</p>\n</section>\n" }
        let last = grouping == .entry ? "Rules" : "Most common message"
        out += "<table><thead><tr><th>\(esc(grouping.rawValue.capitalizedFirst))</th><th>Failures</th><th>Entries</th>"
            + "<th>Errors</th><th>Warnings</th><th>\(last)</th></tr></thead><tbody>\n"
        for g in groups {
            let detail = grouping == .entry ? g.rules.joined(separator: ", ") : g.commonMessage
            out += "<tr><td>\(esc(g.displayKey))</td><td class=\"num\">\(g.failures)</td><td class=\"num\">\(g.entries)</td>"
                + "<td class=\"num\(g.errors > 0 ? " error" : "")\">\(g.errors)</td>"
                + "<td class=\"num\(g.warnings > 0 ? " warning" : "")\">\(g.warnings)</td><td>\(esc(detail))</td></tr>\n"
        }
        return out + "</tbody></table>\n</section>\n"
    }

    private func comparisonSection(limit: Int) -> String {
        let esc = ReportEscaping.html
        var out = "<section id=\"comparison\"><h2>Compared with the previous run</h2>\n"
        if comparisons.isEmpty { out += "<p>Nothing to compare.</p>\n" }
        for c in comparisons {
            guard let previous = c.previousRunID else {
                out += "<p>Form <strong>\(esc(c.form))</strong>: no earlier run judged this form.</p>\n"
                continue
            }
            out += "<h3>Form \(esc(c.form)), against run \(previous)</h3>\n"
            out += "<p><span class=\"error\">\(c.newlyFailing.count) newly failing</span>, "
                + "<span class=\"fixed\">\(c.fixed.count) fixed</span></p>\n"
            if !c.newlyFailing.isEmpty {
                out += "<h4>Newly failing</h4>\n<ul class=\"entries\">"
                for n in c.newlyFailing.prefix(limit) {
                    out += "<li>\(esc(entryName(n.entry)))\(n.before == .notJudged ? " <em>(not judged before)</em>" : "")</li>"
                }
                out += "</ul>\n" + more(c.newlyFailing.count, limit)
            }
            if !c.fixed.isEmpty {
                out += "<h4>Fixed</h4>\n<ul class=\"entries\">"
                for entry in c.fixed.prefix(limit) { out += "<li>\(esc(entryName(entry)))</li>" }
                out += "</ul>\n" + more(c.fixed.count, limit)
            }
        }
        return out + "</section>\n"
    }

    private func entriesSection(limit: Int) -> String {
        let esc = ReportEscaping.html
        let entries = failuresByEntry
        var out = "<section id=\"entries\"><h2>Failing entries (\(entries.count))</h2>\n"
        guard !entries.isEmpty else { return out + "<p>No failures.</p>\n</section>\n" }
        out += "<table class=\"failures\"><thead><tr><th>Entry</th><th>Key</th><th>Field</th><th>Type</th>"
            + "<th>Rule</th><th>Severity</th><th>Message</th></tr></thead><tbody>\n"
        for (entry, failures) in entries.prefix(limit) {
            for (i, f) in failures.enumerated() {
                out += "<tr>"
                if i == 0 {
                    let span = failures.count > 1 ? " rowspan=\"\(failures.count)\"" : ""
                    out += "<td\(span) class=\"num\">\(entry.id)</td><td\(span)>\(esc(entry.displayKey ?? ""))</td>"
                }
                out += "<td>\(esc(f.field ?? "(form)"))</td><td>\(esc(f.type ?? ""))</td><td>\(esc(f.rule))</td>"
                    + "<td class=\"\(f.severity.rawValue)\">\(f.severity.rawValue)</td><td>\(esc(f.message))</td></tr>\n"
            }
        }
        out += "</tbody></table>\n" + more(entries.count, limit)
        return out + "</section>\n"
    }

    private func entryName(_ entry: EntryRef) -> String {
        entry.displayKey.map { "#\(entry.id) \($0)" } ?? "#\(entry.id)"
    }

    private func more(_ count: Int, _ limit: Int) -> String {
        count > limit ? "<p class=\"more\">… and \(count - limit) more (the JSON and CSV reports list them all).</p>\n" : ""
    }

    /// System fonts only: a page that fetches nothing.
    static let css = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2228;background:#fff}
    header{display:flex;align-items:center;gap:1rem}h1{font-size:1.5rem;margin:0}h2{margin-top:2.2rem;border-bottom:1px solid #dde1e6;padding-bottom:.3rem}
    .status{padding:.15rem .6rem;border-radius:1rem;font-size:.85rem;background:#fff4d6;color:#7a5200}.status-complete{background:#e3f5e8;color:#1d6b34}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1.2rem}dt{color:#5b6570}dd{margin:0}
    table{border-collapse:collapse;margin:.8rem 0;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #e8ebee;vertical-align:top}
    th{background:#f5f7f9;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}.hash{font-family:ui-monospace,Menlo,Consolas,monospace}
    table.versions{width:auto}.error{color:#b3261e}.warning{color:#8a5a00}.fixed{color:#1d6b34}
    .chart{max-width:100%;height:auto}.chart text{font-size:12px;fill:#1d2228}.chart .count{fill:#5b6570}.bar-error{fill:#d9534f}.bar-warning{fill:#f0ad4e}
    .legend .key{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 .8rem;vertical-align:-.1rem}.key-error{background:#d9534f}.key-warning{background:#f0ad4e}
    ul.entries{columns:16rem;padding-left:1.2rem}.more{color:#5b6570}footer{margin-top:3rem;color:#5b6570;font-size:.85rem}
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
