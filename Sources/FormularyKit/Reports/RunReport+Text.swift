extension RunReport {
    /// The report as aligned text tables for a terminal or a pager.
    ///
    /// - Parameters:
    ///   - grouping: what the table groups failures by; worst group first.
    ///   - colour: ANSI colours (the caller decides: a terminal, and `NO_COLOR` not set).
    ///     Colour is applied after padding, so the columns line up either way.
    ///   - listLimit: how many newly failing and fixed entries to name per form
    ///     (the JSON and HTML reports name them all).
    package func text(by grouping: ReportGrouping, colour: Bool = false, listLimit: Int = 10) -> String {
        String(decoding: ReportSink.collect { try renderText(by: grouping, colour: colour, listLimit: listLimit, to: $0) },
               as: UTF8.self)
    }

    /// ``text(by:colour:listLimit:)`` written into `sink` as the rows arrive.
    package func renderText(by grouping: ReportGrouping, colour: Bool = false, listLimit: Int = 10,
                           to sink: ReportSink) throws {
        let style = TextStyle(enabled: colour)
        let n = ReportNumbers.grouped
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
        // Only a run made in a locale says so: its messages below are in that language.
        if let locale = facts.locale { factRows.append([Cell("locale"), Cell(locale)]) }
        for (i, form) in forms.enumerated() {
            factRows.append([Cell(i == 0 ? "forms" : ""),
                             Cell("\(form.name) @ \(form.version.prefix(12))")])
        }
        factRows.append([Cell("entries"), Cell("\(n(facts.entriesChecked)) checked, \(n(facts.entriesFailing)) failing"
                                                + " (\(ReportNumbers.percent(facts.entriesFailing, of: facts.entriesChecked)))"
                                                + (facts.entriesWarned > 0 ? ", \(n(facts.entriesWarned)) with warnings only" : ""))])
        factRows.append([Cell("failures"), Cell(
            "\(n(facts.errors)) error\(facts.errors == 1 ? "" : "s"), \(n(facts.warnings)) warning\(facts.warnings == 1 ? "" : "s")",
            colour: facts.errors > 0 ? "31" : facts.warnings > 0 ? "33" : nil)])
        if let error = facts.error { factRows.append([Cell("stopped"), Cell(error, colour: "33")]) }
        out += TextColumns(rows: factRows).render(style: style)
        out += "\n"
        try sink.write(out)

        // Two passes over the groups: one for the column widths, one to print, so that
        // even one group per entry is never held (the few groups of the other groupings
        // are kept by the rows: the database makes one pass).
        let before = grouping != .entry && !previousRunIDs.isEmpty ? try previousCounts(by: grouping) : nil
        var header = header(for: grouping)
        if before != nil { header.insert("CHANGE", at: header.count - 1) }
        var widths = header.map(\.count)
        var any = false
        try rows.forEachGroup(by: grouping) { group in
            any = true
            for (i, cell) in row(for: group, grouping, before: before).enumerated() {
                widths[i] = max(widths[i], cell.text.count)
            }
            return true
        }
        if !any {
            try sink.write(style.paint("No failures.", "32") + "\n")
        } else {
            let columns = TextColumns(header: header, rows: [])
            try sink.write(columns.line(header.map { Cell($0) }, widths: widths, style: style, bold: true))
            try rows.forEachGroup(by: grouping) { group in
                try sink.write(columns.line(row(for: group, grouping, before: before), widths: widths,
                                            style: style, bold: false))
                return true
            }
        }

        let topValues = try topValuesPart.value()
        for (g, heading) in [(ReportGrouping.rule, "rule"), (.field, "field")] {
            guard let values = topValues[g], !values.isEmpty else { continue }
            try sink.write("\nMost frequent failing values by \(heading) (secure values left out):\n")
            let rows = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
                [Cell("  " + key), Cell(values[key]!.map { "\(Self.quoted($0.value)) ×\(n($0.count))" }.joined(separator: ", "))]
            }
            try sink.write(TextColumns(rows: rows).render(style: style))
        }

        for comparison in try comparisonsPart.value() {
            try sink.write("\n" + comparisonText(comparison, style: style, listLimit: listLimit))
        }
    }

    /// A value between double quotes, made safe for a terminal.
    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func header(for grouping: ReportGrouping) -> [String] {
        switch grouping {
        case .entry: ["ENTRY", "KEY", "FAILURES", "ERRORS", "WARNINGS", "SOURCE", "RULES AND VALUES"]
        default: [grouping.heading, "FAILURES", "ENTRIES", "ERRORS", "WARNINGS", "MESSAGE"]
        }
    }

    /// The cells of `group`'s row; with a CHANGE column when `before` (the previous run's
    /// counts of the grouping) is given.
    private func row(for group: ReportGroup, _ grouping: ReportGrouping, before: [String: Int]?) -> [Cell] {
        let n = ReportNumbers.grouped
        let errors = Cell(n(group.errors), colour: group.errors > 0 ? "31" : nil)
        let warnings = Cell(n(group.warnings), colour: group.warnings > 0 ? "33" : nil)
        if grouping == .entry, let entry = group.entry {
            return [Cell("#\(entry.id)"), Cell(entry.displayKey ?? ""), Cell(n(group.failures)),
                    errors, warnings, Cell(group.source ?? ""), Cell(group.rulesWithValues.joined(separator: ", "))]
        }
        var cells = [Cell(group.key), Cell(n(group.failures)), Cell(n(group.entries)), errors, warnings]
        if let before {
            cells.append(Cell(ReportNumbers.change(from: before[group.key] ?? 0, to: group.failures)))
        }
        cells.append(Cell(group.commonMessage))
        return cells
    }

    private func comparisonText(_ c: Comparison, style: TextStyle, listLimit: Int) -> String {
        guard let previous = c.previousRunID else {
            return "No earlier run judged form \(ReportEscaping.terminal(c.form)): nothing to compare with.\n"
        }
        let n = ReportNumbers.grouped
        let out = "Compared with run \(previous) (form \(ReportEscaping.terminal(c.form))): "
            + style.paint("\(n(c.newlyFailingCount)) newly failing", c.newlyFailingCount == 0 ? nil : "31") + ", "
            + style.paint("\(n(c.fixedCount)) fixed", c.fixedCount == 0 ? nil : "32") + "\n"
        var rows: [[Cell]] = []
        if c.newlyFailingCount > 0 {
            let names = c.newlyFailing.prefix(listLimit).map { name($0.entry) + ($0.before == .notJudged ? " (new)" : "") }
            rows.append([Cell("  newly failing"), Cell(list(names, total: c.newlyFailingCount, limit: listLimit))])
        }
        if c.fixedCount > 0 {
            rows.append([Cell("  fixed"), Cell(list(c.fixed.prefix(listLimit).map(name), total: c.fixedCount, limit: listLimit))])
        }
        return out + TextColumns(rows: rows).render(style: style)
    }

    private func name(_ entry: EntryRef) -> String {
        entry.displayKey.map { "#\(entry.id) \($0)" } ?? "#\(entry.id)"
    }

    private func list(_ names: [String], total: Int, limit: Int) -> String {
        guard total > limit else { return names.joined(separator: ", ") }
        return names.prefix(limit).joined(separator: ", ") + ", … and \(ReportNumbers.grouped(total - limit)) more"
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

    /// One line with the given column widths (the last column ragged, no trailing blanks).
    func line(_ row: [Cell], widths: [Int], style: TextStyle, bold: Bool) -> String {
        var line = ""
        var pending = 0
        for (i, cell) in row.enumerated() {
            line += String(repeating: " ", count: pending)
            line += bold ? style.bold(cell.text) : style.paint(cell.text, cell.colour)
            pending = i < widths.count - 1 ? widths[i] - cell.text.count + 2 : 0
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line + "\n"
    }

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
