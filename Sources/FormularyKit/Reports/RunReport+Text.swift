extension RunReport {
    /// The report as aligned text tables for a terminal or a pager.
    ///
    /// - Parameters:
    ///   - grouping: what the table groups failures by; worst group first.
    ///   - colour: ANSI colours (the caller decides: a terminal, and `NO_COLOR` not set).
    ///     Colour is applied after padding, so the columns line up either way.
    ///   - listLimit: how many newly failing and fixed entries to name per form
    ///     (the JSON and HTML reports name them all).
    public func text(by grouping: ReportGrouping, colour: Bool = false, listLimit: Int = 10) -> String {
        let style = TextStyle(enabled: colour)
        var out = ""

        var title = "Run \(facts.runID)"
        if let scope { title += " · form \(scope)" }
        out += style.bold(ReportEscaping.terminal(title)) + "  " + style.status(facts.status) + "\n"

        var factRows: [[Cell]] = [
            [Cell("started"), Cell(facts.startedAt)],
            [Cell("ended"), Cell(facts.endedAt ?? "—")],
            [Cell("actor"), Cell(facts.actor)],
            [Cell("today"), Cell(facts.today)],
        ]
        for (i, form) in forms.enumerated() {
            factRows.append([Cell(i == 0 ? "forms" : ""),
                             Cell("\(form.name) @ \(form.version.prefix(12))")])
        }
        factRows.append([Cell("entries"), Cell("\(facts.entriesChecked) checked, \(facts.entriesFailing) failing"
                                                + (facts.entriesWarned > 0 ? ", \(facts.entriesWarned) with warnings only" : ""))])
        factRows.append([Cell("failures"), Cell(
            "\(facts.errors) error\(facts.errors == 1 ? "" : "s"), \(facts.warnings) warning\(facts.warnings == 1 ? "" : "s")",
            colour: facts.errors > 0 ? "31" : facts.warnings > 0 ? "33" : nil)])
        if let error = facts.error { factRows.append([Cell("stopped"), Cell(error, colour: "33")]) }
        out += TextColumns(rows: factRows).render(style: style)
        out += "\n"

        let groups = groups(by: grouping)
        if groups.isEmpty {
            out += style.paint("No failures.", "32") + "\n"
        } else {
            out += TextColumns(header: header(for: grouping), rows: groups.map { row(for: $0, grouping) })
                .render(style: style)
        }

        for comparison in comparisons {
            out += "\n" + comparisonText(comparison, style: style, listLimit: listLimit)
        }
        return out
    }

    private func header(for grouping: ReportGrouping) -> [String] {
        switch grouping {
        case .entry: ["ENTRY", "KEY", "FAILURES", "ERRORS", "WARNINGS", "RULES"]
        default: [grouping.heading, "FAILURES", "ENTRIES", "ERRORS", "WARNINGS", "MESSAGE"]
        }
    }

    private func row(for group: ReportGroup, _ grouping: ReportGrouping) -> [Cell] {
        let errors = Cell(String(group.errors), colour: group.errors > 0 ? "31" : nil)
        let warnings = Cell(String(group.warnings), colour: group.warnings > 0 ? "33" : nil)
        if grouping == .entry, let entry = group.entry {
            return [Cell("#\(entry.id)"), Cell(entry.displayKey ?? ""), Cell(String(group.failures)),
                    errors, warnings, Cell(group.rules.joined(separator: ", "))]
        }
        return [Cell(group.key), Cell(String(group.failures)), Cell(String(group.entries)),
                errors, warnings, Cell(group.commonMessage)]
    }

    private func comparisonText(_ c: Comparison, style: TextStyle, listLimit: Int) -> String {
        guard let previous = c.previousRunID else {
            return "No earlier run judged form \(ReportEscaping.terminal(c.form)): nothing to compare with.\n"
        }
        let out = "Compared with run \(previous) (form \(ReportEscaping.terminal(c.form))): "
            + style.paint("\(c.newlyFailing.count) newly failing", c.newlyFailing.isEmpty ? nil : "31") + ", "
            + style.paint("\(c.fixed.count) fixed", c.fixed.isEmpty ? nil : "32") + "\n"
        var rows: [[Cell]] = []
        if !c.newlyFailing.isEmpty {
            let names = c.newlyFailing.map { name($0.entry) + ($0.before == .notJudged ? " (new)" : "") }
            rows.append([Cell("  newly failing"), Cell(list(names, limit: listLimit))])
        }
        if !c.fixed.isEmpty {
            rows.append([Cell("  fixed"), Cell(list(c.fixed.map(name), limit: listLimit))])
        }
        return out + TextColumns(rows: rows).render(style: style)
    }

    private func name(_ entry: EntryRef) -> String {
        entry.displayKey.map { "#\(entry.id) \($0)" } ?? "#\(entry.id)"
    }

    private func list(_ names: [String], limit: Int) -> String {
        guard names.count > limit else { return names.joined(separator: ", ") }
        return names.prefix(limit).joined(separator: ", ") + ", … and \(names.count - limit) more"
    }
}

/// A table cell: its text (made safe for a terminal) and an optional SGR colour code.
private struct Cell {
    var text: String
    var colour: String?
    init(_ text: String, colour: String? = nil) {
        self.text = ReportEscaping.terminal(text)
        self.colour = colour
    }
}

/// Columns padded to their widest cell (in characters), the last column ragged. Unlike a
/// table of pre-coloured strings, the padding never counts escape sequences.
private struct TextColumns {
    var header: [String]?
    var rows: [[Cell]]

    func render(style: TextStyle) -> String {
        let all = (header.map { [$0.map { Cell($0) }] } ?? []) + rows
        guard let columns = all.map(\.count).max(), columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() where i < columns - 1 {
                widths[i] = max(widths[i], cell.text.count)
            }
        }
        var out = ""
        for (r, row) in all.enumerated() {
            var line = ""
            var pending = 0   // padding goes in only before a following cell: no trailing blanks
            for (i, cell) in row.enumerated() {
                line += String(repeating: " ", count: pending)
                let painted = header != nil && r == 0 ? style.bold(cell.text) : style.paint(cell.text, cell.colour)
                line += painted
                pending = i < columns - 1 ? widths[i] - cell.text.count + 2 : 0
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}

private struct TextStyle {
    var enabled: Bool
    func paint(_ s: String, _ code: String?) -> String {
        guard enabled, let code, !s.isEmpty else { return s }
        return "\u{1B}[\(code)m\(s)\u{1B}[0m"
    }
    func bold(_ s: String) -> String { paint(s, "1") }
    func status(_ status: String) -> String {
        paint(ReportEscaping.terminal(status), status == "complete" ? "32" : "33")
    }
}
