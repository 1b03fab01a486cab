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
            bars.append(Bar(label: "\(rest.count) more", errors: rest.reduce(0) { $0 + $1.errors },
                            warnings: rest.reduce(0) { $0 + $1.warnings }))
        }
        self.bars = bars
    }

    func svg() -> String {
        let esc = ReportEscaping.html
        let rowHeight = Self.barHeight + Self.gap
        let height = max(bars.count, 1) * rowHeight + Self.gap
        let plotWidth = Self.width - Self.labelWidth - Self.countWidth
        let largest = bars.map(\.total).max() ?? 0
        var out = "<svg class=\"chart\" width=\"\(Self.width)\" height=\"\(height)\" viewBox=\"0 0 \(Self.width) \(height)\" role=\"img\" aria-label=\"\(esc(title))\">\n"
        out += "<title>\(esc(title))</title>\n"
        if bars.isEmpty {
            out += "<text x=\"\(Self.labelWidth)\" y=\"\(Self.gap + Self.barHeight - 5)\" class=\"none\">No failures</text>\n"
        }
        for (i, bar) in bars.enumerated() {
            let y = Self.gap + i * rowHeight
            let textY = y + Self.barHeight - 5
            // Every bar that has failures gets at least a sliver, so small groups stay visible.
            let full = largest == 0 ? 0 : max(1, bar.total * plotWidth / largest)
            let errorWidth = bar.total == 0 ? 0 : full * bar.errors / bar.total
            let warningWidth = full - errorWidth
            let label = bar.label.count > Self.labelCharacters
                ? String(bar.label.prefix(Self.labelCharacters - 1)) + "…" : bar.label
            let tip = "\(bar.label): \(bar.errors) error\(bar.errors == 1 ? "" : "s"), \(bar.warnings) warning\(bar.warnings == 1 ? "" : "s")"
            out += "<g><title>\(esc(tip))</title>"
            out += "<text x=\"\(Self.labelWidth - 8)\" y=\"\(textY)\" text-anchor=\"end\">\(esc(label))</text>"
            if errorWidth > 0 {
                out += "<rect class=\"bar-error\" x=\"\(Self.labelWidth)\" y=\"\(y)\" width=\"\(errorWidth)\" height=\"\(Self.barHeight)\"/>"
            }
            if warningWidth > 0 {
                out += "<rect class=\"bar-warning\" x=\"\(Self.labelWidth + errorWidth)\" y=\"\(y)\" width=\"\(warningWidth)\" height=\"\(Self.barHeight)\"/>"
            }
            out += "<text x=\"\(Self.labelWidth + full + 6)\" y=\"\(textY)\" class=\"count\">\(bar.total)</text></g>\n"
        }
        out += "</svg>"
        return out
    }
}
