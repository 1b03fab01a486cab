import Foundation
import Testing
@testable import FormularyKit

/// The HTML report read in Debian's headless Chromium: at 390 px wide (a phone) nothing
/// overflows the page and chart labels are at least 11 px; at 1280 px likewise. The page is
/// loaded into an iframe of that width (headless windows are at least 500 px wide), and a
/// probe script in the outer page measures it; the report itself carries no script.
///
/// Chromium is installed by `scripts/browser-deps.sh` (`make browser-deps`) when missing;
/// where that cannot be done the test is skipped, and says why.
@Suite(.serialized) struct ReportLayoutTests {
    static let chromium: String? = HeadlessChromium.find()

    @Test(.enabled(if: chromium != nil, "headless Chromium is missing and scripts/browser-deps.sh could not install it"),
          arguments: [390, 1280])
    func theReportFitsTheWidth(_ width: Int) throws {
        let chromium = try #require(Self.chromium)
        let html = Self.wideReport().html(by: .rule)
        let layout = try HeadlessChromium.measure(html: html, width: width, chromium: chromium)
        #expect(layout.innerWidth == width)
        #expect(layout.scrollWidth <= width, "the page scrolls sideways: \(layout)")
        #expect(layout.overflowing.isEmpty, "\(layout.overflowing)")
        #expect(layout.smallestLabel >= 11, "chart labels are \(layout.smallestLabel) px")
        // On a phone the tables become one card per row: no column is dropped, and words
        // wrap between them, not inside (a long key or value may still break to fit).
        #expect(layout.hiddenCells.isEmpty, "cells not shown: \(layout.hiddenCells.prefix(5))")
        #expect(layout.brokenWords.isEmpty, "words broken across lines: \(Set(layout.brokenWords).sorted().prefix(10))")
    }

    /// Each of the entries section's cards says what its cells are (the header row is not
    /// shown on a phone).
    @Test func everyReportCellCarriesItsColumnsName() {
        let html = Self.wideReport().html(by: .rule)
        let cells = html.components(separatedBy: "<td").dropFirst()
        #expect(!cells.isEmpty)
        let unlabelled = cells.filter { !$0.prefix(80).contains("data-label=") && $0.contains("</td>") }
        let inCards = html.components(separatedBy: "<table class=\"").dropFirst().filter { $0.hasPrefix("groups") || $0.hasPrefix("failures") }
        #expect(inCards.allSatisfy { $0.contains(" cards\"") })
        let cardCells = inCards.flatMap { $0.components(separatedBy: "</table>")[0].components(separatedBy: "<td").dropFirst() }
        #expect(cardCells.allSatisfy { $0.prefix(120).contains("data-label=") }, "\(unlabelled.prefix(3))")
    }

    /// Long keys, values, messages and many groups: what could push a table wider.
    static func wideReport() -> RunReport {
        var report = ReportSample.report()
        var failures = report.failures
        for i in 0..<40 {
            failures.append(RunReport.Failure(
                entry: .init(id: Int64(100 + i), key: "customer-\(i)-with-a-rather-long-key@example.org"),
                form: "signup", field: "email-address-of-the-customer-\(i % 5)", type: "email", rule: "pattern-\(i % 7)",
                severity: i % 3 == 0 ? .warning : .error,
                message: "Enter an email address like name@example.com; this one has no at sign and is far too long",
                value: "someone.with.a.very.long.address.without.any.at.sign.\(i).example.org", source: "imports/2026/signup-\(i).csv:\(1000 + i)"))
        }
        report.failures = failures
        report.topValues = [.rule: ["pattern-1": [.init(value: String(repeating: "x", count: 120), count: 1_234_567)]]]
        report.previousCounts = [.rule: ["pattern-1": 51]]
        report.previousRunIDs = [6]
        report.recentRuns = (1...20).map {
            .init(id: Int64($0), startedAt: "2026-11-\(10 + $0 % 19)T10:00:00.000Z", status: "complete",
                  entriesChecked: 1_000_000, entriesFailing: 300_000 - $0 * 1_000)
        }
        return report
    }
}

/// Runs Debian's `chromium` headless on a page and reports its layout.
enum HeadlessChromium {
    struct Layout: Decodable, CustomStringConvertible {
        var innerWidth: Int
        var scrollWidth: Int
        var overflowing: [String]
        var smallestLabel: Double
        /// Table cells with content that are not shown (`display: none` or no width).
        var hiddenCells: [String]
        /// Words of table cells (at most 24 characters, no hyphen) drawn across two lines.
        var brokenWords: [String]
        var description: String { "width \(innerWidth), scroll width \(scrollWidth), smallest label \(smallestLabel) px" }
    }

    /// The browser, installing it with the project's script when missing; nil (with the
    /// reason printed) when it cannot be had.
    static func find() -> String? {
        func installed() -> String? {
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if let path = installed() { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/browser-deps.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            print("ReportLayoutTests: cannot run \(script): \(error); the layout test is skipped")
            return nil
        }
        if let path = installed() { return path }
        print("ReportLayoutTests: \(script) could not install chromium (exit \(process.terminationStatus)); the layout test is skipped")
        return nil
    }

    /// Loads `html` into an iframe `width` px wide and measures it: the document's scroll
    /// width, every table, chart, list or paragraph reaching past the right edge, and the
    /// smallest chart label as drawn (font size times the chart's scale).
    static func measure(html: String, width: Int, chromium: String) throws -> Layout {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let probe = """
            <!DOCTYPE html><html><body style="margin:0">
            <iframe id="f" style="width:\(width)px;height:6000px;border:0" srcdoc="\(ReportEscaping.html(html))"></iframe>
            <script>
            document.getElementById('f').addEventListener('load', () => {
              const win = document.getElementById('f').contentWindow, doc = win.document;
              const w = win.innerWidth;
              const out = {innerWidth: w, scrollWidth: doc.documentElement.scrollWidth, overflowing: [], smallestLabel: 1e9};
              for (const el of doc.querySelectorAll('table, svg, dl, ul, p, h1, h2, h3, header, details')) {
                const r = el.getBoundingClientRect();
                if (r.width > 0 && r.right > w + 0.5) out.overflowing.push(el.tagName + '.' + el.getAttribute('class') + ' ends at ' + Math.round(r.right));
              }
              for (const svg of doc.querySelectorAll('svg')) {
                const r = svg.getBoundingClientRect();
                if (r.width === 0) continue;
                const scale = r.width / svg.viewBox.baseVal.width;
                for (const t of svg.querySelectorAll('text'))
                  out.smallestLabel = Math.min(out.smallestLabel, parseFloat(win.getComputedStyle(t).fontSize) * scale);
              }
              out.hiddenCells = []; out.brokenWords = [];
              for (const td of doc.querySelectorAll('td')) {
                if (td.textContent.trim() === '') continue;
                const r = td.getBoundingClientRect();
                if (win.getComputedStyle(td).display === 'none' || r.width === 0) out.hiddenCells.push((td.dataset.label || td.className) + ': ' + td.textContent.slice(0, 40));
                const walker = doc.createTreeWalker(td, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  for (const m of node.data.matchAll(/[^\\s\\/-]+/g)) {
                    if (m[0].length > 24 || m[0].length < 2) continue;
                    const range = doc.createRange();
                    range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                    const lines = new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top)));
                    if (lines.size > 1) out.brokenWords.push(m[0]);
                  }
                }
              }
              const pre = document.createElement('pre');
              pre.id = 'layout';
              pre.textContent = JSON.stringify(out);
              document.body.appendChild(pre);
            });
            </script></body></html>
            """
        let page = folder.appendingPathComponent("probe.html")
        try probe.write(to: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--user-data-dir=\(folder.path)/profile", "--window-size=\(max(width, 500) + 20),3000",
                             "--virtual-time-budget=5000", "--dump-dom", page.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let start = dom.range(of: "<pre id=\"layout\">"),
              let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else {
            throw LayoutProbeError(dom: String(dom.prefix(500)))
        }
        let json = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    }

    struct LayoutProbeError: Error, CustomStringConvertible {
        var dom: String
        var description: String { "the probe wrote no layout; the page began: \(dom)" }
    }
}
