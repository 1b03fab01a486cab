import Foundation
import FormularyRules
import Testing

/// The page `formulary serve` answers at `/`, in headless Chromium through chromedriver:
/// a card number and an expiry date typed key by key show, after every key, the text, caret,
/// verdict and message the library's `FieldEditor` gives for the same keys (the page runs
/// them with formulary.js, no request per keystroke); the playground judges a form in the
/// page and the server agrees; a run's report opens; at 390 px no page scrolls sideways.
///
/// Screenshots at 1280 and 390 px go to `.build/screenshots/` to be looked at.
@Suite(.serialized, .enabled(if: WebDriver.available,
                             "chromium or chromedriver is missing and scripts/browser-deps.sh could not install them"))
struct WebPageBrowserTests {
    /// A sandbox with the sign-up form, its sample entries validated once, and a server.
    final class Site {
        let sandbox: Sandbox
        let server: ServeCommandTests.Server
        var base: String { "http://127.0.0.1:\(server.port)/" }

        init() throws {
            sandbox = try Sandbox()
            try sandbox.mustRun("init")
            let form = try sandbox.write("signup.form", try Self.demoFile("signup.form"))
            let csv = try sandbox.write("signup.csv", try Self.demoFile("signup-sample.csv"))
            try sandbox.mustRun("forms", "add", form)
            try sandbox.mustRun("import", "--form", "signup", csv)
            _ = try sandbox.run("validate")
            server = try ServeCommandTests.Server(sandbox)
        }

        static func demoFile(_ name: String) throws -> String {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("demo/\(name)"), encoding: .utf8)
        }
    }

    /// What the field shows after a key.
    struct FieldState: Equatable, CustomStringConvertible {
        var text: String
        var caret: Int
        var verdict: String
        var message: String
        var description: String { "\"\(text)\" caret \(caret) \(verdict) \"\(message)\"" }
    }

    /// The library's answer to each key, as the page asks for it: a new editor on the field's
    /// text and caret, the key replacing the empty selection at the caret.
    static func expectedStates(type reference: String, keys: [String]) throws -> [FieldState] {
        let catalog = try FieldCatalog.builtin(today: CivilDate(year: 2026, month: 11, day: 29))
        let type = try catalog.fieldType(reference)
        var text = "", caret = 0
        return keys.map { key in
            var editor = FieldEditor(type: type, text: text, caret: caret)
            let outcome = editor.replace(caret..<caret, with: key)
            text = editor.text
            caret = editor.caret
            return FieldState(text: text, caret: caret, verdict: outcome.result.verdict.rawValue,
                              message: outcome.refusal?.message ?? outcome.result.message ?? "")
        }
    }

    /// Types `keys` one at a time into the page's field `css`, reading its state after each
    /// (formulary.js answers in the key's own event: nothing to wait for).
    /// Clicks the field first unless it already has the focus (and perhaps a selection).
    static func type(_ keys: [String], into css: String, status: String, with browser: WebDriver) throws -> [FieldState] {
        let field = try browser.element(css)
        if try browser.execute("return document.activeElement !== document.querySelector(arguments[0])", [css]) as? Bool == true {
            try browser.click(field)
        }
        var states: [FieldState] = []
        for key in keys {
            try browser.type(key, into: field)
            let read = try browser.execute("""
                const f = document.querySelector(arguments[0]), s = document.querySelector(arguments[1]);
                const units = f.value.slice(0, f.selectionStart);
                const caret = Array.from(new Intl.Segmenter(undefined, {granularity: 'grapheme'}).segment(units)).length;
                return [f.value, caret, s.dataset.verdict || '', s.dataset.message || ''];
                """, [css, status]) as? [Any] ?? []
            states.append(FieldState(text: read[0] as? String ?? "?", caret: (read[1] as? Int) ?? -1,
                                     verdict: read[2] as? String ?? "?", message: read[3] as? String ?? "?"))
        }
        return states
    }

    static func screenshot(_ browser: WebDriver, _ name: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try browser.screenshot(to: folder.appendingPathComponent(name + ".png").path)
    }

    /// The page's width, and how wide its content is (wider: it scrolls sideways).
    static func widths(_ browser: WebDriver) throws -> (inner: Int, scroll: Int) {
        let pair = try browser.execute("return [window.innerWidth, document.documentElement.scrollWidth]") as? [Int] ?? []
        return (pair.first ?? -1, pair.last ?? -1)
    }

    @Test func aCardNumberTypedKeyByKeyShowsWhatTheLibrarySays() throws {
        let site = try Site()
        let browser = try WebDriver(width: 1280, height: 900)
        try browser.open(site.base + "#/types/credit-card")
        // A letter among the digits: refused, the text stays as it was.
        let keys = "4111x111111111111".map(String.init)
        let shown = try Self.type(keys, into: "#live-field", status: "#live-status", with: browser)
        let expected = try Self.expectedStates(type: "credit-card", keys: keys)
        for (index, pair) in zip(shown, expected).enumerated() {
            #expect(pair.0 == pair.1, "after key \(index + 1) '\(keys[index])'")
        }
        #expect(shown.last?.text == "4111 1111 1111 1111")
        #expect(shown[4].text == shown[3].text, "the letter was refused")
        // Refused, the field keeps its verdict (not red) and says why.
        #expect(shown[4].verdict == "incomplete" && shown[4].message == "Credit Card Number takes digits only")
        #expect(shown.last?.verdict == "valid")

        try browser.execute("document.activeElement.blur()")
        #expect(try browser.execute("return document.querySelector('#live-status').textContent") as? String == "Final: Valid")
        // No keystroke went to the server: the page asked for the registry, and nothing else.
        let asked = try browser.execute("""
            return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname).filter(p => p.startsWith('/v1/'))
            """) as? [String] ?? []
        #expect(!asked.contains("/v1/edit") && !asked.contains("/v1/check") && asked.contains("/v1/export")
                && asked.contains("/v1/runtime/formulary.js"), "\(asked)")
        try Self.screenshot(browser, "type-credit-card-1280")
    }

    @Test func anExpiryDateTypedKeyByKeyShowsWhatTheLibrarySays() throws {
        let site = try Site()
        let browser = try WebDriver(width: 390, height: 844)
        try browser.open(site.base + "#/types/exp-date")
        let keys = ["1", "2", "2", "8"]
        let shown = try Self.type(keys, into: "#live-field", status: "#live-status", with: browser)
        let expected = try Self.expectedStates(type: "exp-date", keys: keys)
        #expect(shown == expected)
        #expect(shown.last?.text == "12/28")
        #expect(shown.last?.caret == 5)
        #expect(shown.first?.verdict == "incomplete")

        // Half a date: incomplete while typing; leaving the field makes it invalid, with the
        // message the CLI's final check gives.
        try browser.execute("const f = document.querySelector('#live-field'); f.focus(); f.setSelectionRange(0, f.value.length)")
        let half = try Self.type(["1"], into: "#live-field", status: "#live-status", with: browser)
        #expect(half.last?.text == "1" && half.last?.verdict == "incomplete", "\(half)")
        try browser.execute("document.activeElement.blur()")
        let final = try browser.execute("""
            const s = document.querySelector('#live-status'); return [s.textContent, s.dataset.message]
            """) as? [String] ?? []
        let cli = try site.sandbox.run("--format", "json", "check", "exp-date", "1")
        let message = try #require((try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])?["violations"] as? [[String: Any]])
            .first?["message"] as? String
        #expect(final.first == "Final: Invalid — \(message ?? "?")", "\(final)")
        let widths = try Self.widths(browser)
        #expect(widths.inner == 390 && widths.scroll <= 390, "\(widths)")
        try Self.screenshot(browser, "type-exp-date-390")
    }

    @Test(arguments: [1280, 390])
    func everyPageFitsTheWidthAndIsLabelled(_ width: Int) throws {
        let site = try Site()
        let browser = try WebDriver(width: width, height: 900)
        for (hash, name) in [("#/", "types"), ("#/types/credit-card", "type"), ("#/forms/signup", "playground"),
                             ("#/runs", "runs"), ("#/runs/1", "report"), ("#/audit", "audit")] {
            try browser.open(site.base + hash)
            let error = try browser.execute("return document.querySelector('main .error')?.textContent || ''") as? String
            #expect(error == "", "\(hash): \(error ?? "")")
            let widths = try Self.widths(browser)
            #expect(widths.inner == width && widths.scroll <= width, "\(hash) at \(width) px: \(widths)")
            // Every field has a label a screen reader announces.
            let unlabelled = try browser.execute("""
                return Array.from(document.querySelectorAll('main input, main select'))
                  .filter(i => !i.labels || i.labels.length === 0).map(i => i.id || i.name)
                """) as? [String]
            #expect(unlabelled == [], "\(hash): inputs without a label")
            try Self.screenshot(browser, "\(name)-\(width)")
        }
    }

    @Test func theTypeListIsSearchable() throws {
        let site = try Site()
        let browser = try WebDriver(width: 1280, height: 900)
        try browser.open(site.base)
        let all = try browser.execute("return document.querySelectorAll('#type-list li').length") as? Int ?? 0
        #expect(all > 10)
        try browser.type("card", into: try browser.element("#type-search"))
        let names = try browser.execute("return Array.from(document.querySelectorAll('#type-list .name')).map(a => a.textContent)") as? [String]
        #expect(names?.contains("credit-card") == true)
        #expect((names?.count ?? 0) < all)
        #expect(try browser.execute("return document.querySelector('#type-count').textContent") as? String
                == "\(names?.count ?? -1) of \(all) types match")
    }

    /// A type that says what its value is lets the browser autofill the field; others stay
    /// `off`, on a type's page and in the playground alike.
    @Test func fieldsTakeTheirTypesAutocomplete() throws {
        let site = try Site()
        let browser = try WebDriver(width: 1280, height: 900)
        for (type, expected) in [("email", "email"), ("credit-card", "cc-number"), ("age", "off")] {
            try browser.open(site.base + "#/types/" + type)
            try browser.waitUntil("return document.querySelector('#live-field') !== null", "the \(type) page")
            let value = try browser.execute("return document.querySelector('#live-field').getAttribute('autocomplete')")
            #expect(value as? String == expected, "\(type)")
        }
        try browser.open(site.base + "#/forms/signup")
        try browser.waitUntil("return document.querySelector('#field-cvv') !== null", "the playground")
        let values = try browser.execute("""
            return ['name', 'email', 'age', 'card', 'expires', 'cvv']
                .map(k => document.querySelector('#field-' + k).getAttribute('autocomplete'));
            """) as? [String]
        #expect(values == ["name", "email", "off", "cc-number", "cc-exp", "cc-csc"])
    }

    @Test func thePlaygroundJudgesAFormAndARunsReportOpens() throws {
        let site = try Site()
        let browser = try WebDriver(width: 1280, height: 900)
        try browser.open(site.base + "#/forms/signup")
        let values = ["name": "Ada Lovelace", "email": "ada@example.com", "email-again": "ada@example.org",
                      "age": "36", "card": "4111111111111111", "expires": "1228", "cvv": "123"]
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let field = try browser.element("#field-\(key)")
            try browser.type(value, into: field)
        }
        try browser.click(try browser.element("#playground button[type=submit]"))
        try browser.waitUntil("return document.querySelector('#form-verdict') !== null", "the form's verdict")
        // The two emails differ: the form-level rule fails it.
        #expect(try browser.execute("return document.querySelector('#form-verdict').textContent") as? String == "Invalid")
        // Judged in the page, then by the server: the same judgement.
        try browser.waitUntil("return document.querySelector('#server-agreement').dataset.agreed !== 'pending'", "the server's judgement")
        #expect(try browser.execute("return document.querySelector('#server-agreement').dataset.agreed") as? String == "true")
        let page = try browser.execute("return document.querySelector('#judgement').textContent") as? String ?? ""
        #expect(!page.contains("123"), "the secure cvv is not echoed")
        try Self.screenshot(browser, "playground-judged-1280")

        try browser.open(site.base + "#/runs")
        try browser.click(try browser.element("main a[href='#/runs/1']"))
        try browser.waitUntil("return document.body.dataset.view === 'runs/1'", "the run's page")
        try browser.waitUntil("""
            const f = document.querySelector('iframe.report');
            return !!(f && f.contentDocument && f.contentDocument.body && f.contentDocument.body.textContent.includes('signup'))
            """, "the report in its frame")
    }

    /// What a keyboard or screen-reader user meets: a navigation moves focus to the new
    /// view's heading (and the view is not one big live region), required fields say so,
    /// Enter submits the playground, an unchanged verdict is not announced again, a final
    /// `invalid` sets `aria-invalid`, the runs table's caption says its order, and a
    /// report's links to other runs open their views instead of a 404 in the frame.
    @Test func thePageServesKeyboardAndScreenReaderUsers() throws {
        let site = try Site()
        _ = try site.sandbox.run("validate")   // a second run: the report links to the first
        let browser = try WebDriver(width: 1280, height: 900)
        try browser.open(site.base)
        #expect(try browser.execute("return document.getElementById('main').getAttribute('aria-live')") is NSNull)
        try browser.click(try browser.element("nav a[href='#/forms']"))
        try browser.waitUntil("return document.body.dataset.view === 'forms'", "the forms view")
        #expect(try browser.execute("return document.activeElement.tagName + ' ' + document.activeElement.textContent") as? String == "H1 Forms")

        try browser.open(site.base + "#/forms/signup")
        try browser.waitUntil("return document.body.dataset.view === 'forms/signup'", "the playground")
        let marks = try browser.execute("""
            return ['name', 'phone'].map(k => [document.querySelector('label[for=field-' + k + ']').textContent,
                                               document.querySelector('#field-' + k).getAttribute('aria-required')])
            """) as? [[Any]] ?? []
        #expect((marks.first?[0] as? String)?.hasSuffix("(required)") == true && marks.first?[1] as? String == "true", "\(marks)")
        #expect((marks.last?[0] as? String)?.hasSuffix("(optional)") == true && marks.last?[1] is NSNull, "\(marks)")

        // Typing digits of a card: the verdict stays `incomplete` with one message, and the
        // status line (a live region) is written only when that changes.
        try browser.execute("""
            window.statusWrites = 0;
            new MutationObserver(records => { window.statusWrites += records.length })
              .observe(document.querySelector('#field-card-status'), {childList: true, subtree: true, characterData: true});
            """)
        _ = try Self.type("41111111".map(String.init), into: "#field-card", status: "#field-card-status", with: browser)
        let writes = try browser.execute("return window.statusWrites") as? Int ?? -1
        #expect(writes >= 1 && writes <= 2, "the status line was rewritten \(writes) times for 8 keys of one verdict")

        // A final `invalid` is announced as such to assistive technology.
        _ = try Self.type(["1", "7"], into: "#field-age", status: "#field-age-status", with: browser)
        try browser.execute("document.activeElement.blur()")
        #expect(try browser.execute("return document.querySelector('#field-age').getAttribute('aria-invalid')") as? String == "true")

        // Enter in a field submits the form.
        _ = try Self.type(["\u{E007}"], into: "#field-name", status: "#field-name-status", with: browser)
        try browser.waitUntil("return document.querySelector('#form-verdict') !== null", "the form's verdict after Enter")

        try browser.open(site.base + "#/runs")
        try browser.waitUntil("return document.body.dataset.view === 'runs'", "the runs view")
        let runs = try browser.execute("""
            return [document.querySelector('main caption').textContent,
                    Array.from(document.querySelectorAll('main tbody tr td:first-child')).map(td => td.textContent)]
            """) as? [Any] ?? []
        #expect(runs.first as? String == "Newest first" && runs.last as? [String] == ["#2", "#1"], "\(runs)")

        try browser.open(site.base + "#/runs/2")
        try browser.waitUntil("""
            const f = document.querySelector('iframe.report');
            return !!(f && f.contentDocument && f.contentDocument.querySelector('#runs table a'))
            """, "the report with its runs section")
        let link = try browser.execute("""
            const a = document.querySelector('iframe.report').contentDocument.querySelector('#runs table a');
            return [a.getAttribute('href'), a.getAttribute('target')]
            """) as? [String] ?? []
        #expect(link.first == site.base + "#/runs/1" && link.last == "_top", "\(link)")
        try browser.execute("document.querySelector('iframe.report').contentDocument.querySelector('#runs table a').click()")
        try browser.waitUntil("return document.body.dataset.view === 'runs/1'", "run 1's view, from the report's link")
    }
}
