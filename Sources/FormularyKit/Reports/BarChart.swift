/// A horizontal bar chart as inline SVG: one bar per group, errors and warnings stacked.
///
/// Written for an HTML page that must stand alone: no `xmlns` (inline SVG in HTML5 needs
/// none, and the page carries no outside URL at all), no scripts, no fonts; colours come
/// from the page's CSS classes `bar-error` and `bar-warning`. Every label is escaped.
struct BarChart {
    struct Bar {
        var label: String
        var errors: Int
        var warnings: Int
        var total: Int { errors + warnings }
    }

    var title: String
    var bars: [Bar]
    /// Bars beyond this many are summed into one "N more" bar, so a chart stays readable.
    var maxBars = 15

    static let width = 720
    static let labelWidth = 220
    static let barHeight = 20
    static let gap = 6
    static let countWidth = 70
    /// Labels longer than this are cut with "…" (the full text is in the bar's tooltip).
    static let labelCharacters = 32

    init(title: String, groups: [ReportGroup], maxBars: Int = 15) {
        self.title = title
        self.maxBars = maxBars
        var bars = groups.prefix(maxBars).map { Bar(label: $0.displayKey, errors: $0.errors, warnings: $0.warnings) }
        let rest = groups.dropFirst(maxBars)
        if !rest.isEmpty {
            bars.append(Bar(label: "\(ReportNumbers.grouped(rest.count)) more", errors: rest.reduce(0) { $0 + $1.errors },
                            warnings: rest.reduce(0) { $0 + $1.warnings }))
        }
        self.bars = bars
    }

    /// The chart; `narrow` draws it 340 units wide (shorter labels) for small screens, where
    /// the page shows it instead of the wide one, so that its 12-unit labels are not scaled
    /// below 11 px.
    func svg(narrow: Bool = false) -> String {
        let esc = ReportEscaping.html
        let width = narrow ? 340 : Self.width
        let labelWidth = narrow ? 120 : Self.labelWidth
        let countWidth = narrow ? 64 : Self.countWidth
        let labelCharacters = narrow ? 16 : Self.labelCharacters
        let rowHeight = Self.barHeight + Self.gap
        let height = max(bars.count, 1) * rowHeight + Self.gap
        let plotWidth = width - labelWidth - countWidth
        let largest = bars.map(\.total).max() ?? 0
        var out = "<svg class=\"chart \(narrow ? "chart-narrow" : "chart-wide")\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(esc(title))\">\n"
        out += "<title>\(esc(title))</title>\n"
        if bars.isEmpty {
            out += "<text x=\"\(labelWidth)\" y=\"\(Self.gap + Self.barHeight - 5)\" class=\"none\">No failures</text>\n"
        }
        for (i, bar) in bars.enumerated() {
            let y = Self.gap + i * rowHeight
            let textY = y + Self.barHeight - 5
            // Every bar that has failures gets at least a sliver, so small groups stay visible.
            let full = largest == 0 ? 0 : max(1, bar.total * plotWidth / largest)
            let errorWidth = bar.total == 0 ? 0 : full * bar.errors / bar.total
            let warningWidth = full - errorWidth
            let label = bar.label.count > labelCharacters
                ? String(bar.label.prefix(labelCharacters - 1)) + "…" : bar.label
            let tip = "\(bar.label): \(bar.errors) error\(bar.errors == 1 ? "" : "s"), \(bar.warnings) warning\(bar.warnings == 1 ? "" : "s")"
            out += "<g><title>\(esc(tip))</title>"
            out += "<text x=\"\(labelWidth - 8)\" y=\"\(textY)\" text-anchor=\"end\">\(esc(label))</text>"
            if errorWidth > 0 {
                out += "<rect class=\"bar-error\" x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(errorWidth)\" height=\"\(Self.barHeight)\"/>"
            }
            if warningWidth > 0 {
                out += "<rect class=\"bar-warning\" x=\"\(labelWidth + errorWidth)\" y=\"\(y)\" width=\"\(warningWidth)\" height=\"\(Self.barHeight)\"/>"
            }
            out += "<text x=\"\(labelWidth + full + 6)\" y=\"\(textY)\" class=\"count\">\(ReportNumbers.grouped(bar.total))</text></g>\n"
        }
        out += "</svg>"
        return out
    }
}

/// The failing share of the recent runs as a line over inline SVG, each point linked to
/// that run's report page: no scripts, no outside URLs.
struct ShareChart {
    var runs: [RunReport.RunSummary]
    var current: Int64

    func svg() -> String {
        let esc = ReportEscaping.html
        let width = 340, height = 150, left = 44, right = 12, top = 12, bottom = 30
        let plotW = width - left - right, plotH = height - top - bottom
        let top100 = max(5.0, (runs.map(\.failingPercent).max() ?? 0).rounded(.up))
        func x(_ i: Int) -> Int { runs.count == 1 ? left + plotW / 2 : left + i * plotW / (runs.count - 1) }
        func y(_ p: Double) -> Int { top + plotH - Int((p / top100 * Double(plotH)).rounded()) }
        var out = "<svg class=\"chart share-chart\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"Failing share of the last \(runs.count) runs\">\n"
        out += "<title>Failing share of the last \(runs.count) runs</title>\n"
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top + plotH)\" x2=\"\(width - right)\" y2=\"\(top + plotH)\"/>"
        out += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plotH)\"/>\n"
        let topLabel = top100 == top100.rounded() ? String(Int(top100)) : String(top100)
        out += "<text x=\"\(left - 6)\" y=\"\(top + 4)\" text-anchor=\"end\">\(topLabel)%</text>"
        out += "<text x=\"\(left - 6)\" y=\"\(top + plotH + 4)\" text-anchor=\"end\">0%</text>\n"
        let points = runs.enumerated().map { "\(x($0.offset)),\(y($0.element.failingPercent))" }.joined(separator: " ")
        if runs.count > 1 { out += "<polyline class=\"share\" points=\"\(points)\"/>\n" }
        for (i, run) in runs.enumerated() {
            let tip = "run \(run.id): \(ReportNumbers.percent(run.entriesFailing, of: run.entriesChecked)) failing "
                + "(\(ReportNumbers.grouped(run.entriesFailing)) of \(ReportNumbers.grouped(run.entriesChecked)))"
            let dot = "<circle class=\"dot\" cx=\"\(x(i))\" cy=\"\(y(run.failingPercent))\" r=\"\(run.id == current ? 5 : 3)\"><title>\(esc(tip))</title></circle>"
            out += run.id == current ? dot : "<a href=\"\(esc(ReportFile.defaultHTMLName(run: run.id)))\">\(dot)</a>"
            // Run ids under the first, the last and the current point only: room for 12-unit labels.
            if i == 0 || i == runs.count - 1 || run.id == current {
                out += "<text x=\"\(x(i))\" y=\"\(height - 10)\" text-anchor=\"middle\">#\(run.id)</text>"
            }
            out += "\n"
        }
        return out + "</svg>"
    }
}
