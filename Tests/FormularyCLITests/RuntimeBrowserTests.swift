#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FormularyRules
import Testing

/// formulary.js in headless Chromium (through chromedriver, as WebPageBrowserTests):
/// - the conformance vectors of runtime/conformance, run in the browser, all agree;
/// - fields driven by `attach`, typed into through real input events — WebDriver keys,
///   Chrome DevTools `Input.insertText` (paste-like) and `Input.imeSetComposition`
///   (composition), a scripted `insertReplacementText` (autofill), deleting by word, a
///   selection replaced — show after every step the value, caret and `aria-invalid` the
///   Swift `FieldEditor` gives for the same edits;
/// - the page of docs/javascript.md works as written.
///
/// Pages are served by `runtime/conformance/browser/serve.mjs` (Node). Screenshots at 1280
/// and 390 px go to `.build/screenshots/`.
@Suite(.serialized, .enabled(if: WebDriver.available && NodeJS.path != nil,
                             "chromium, chromedriver or node is missing (scripts/browser-deps.sh; make deps installs nodejs)"))
struct RuntimeBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    /// `node serve.mjs DATA`: the repository at `/`, `data` at `/data/`.
    final class StaticServer {
        let process = Process()
        let port: Int

        init(data: URL) throws {
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: NodeJS.path!)
            process.arguments = [RuntimeBrowserTests.root.appendingPathComponent("runtime/conformance/browser/serve.mjs").path, data.path]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line += chunk
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let found = text.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
                process.terminate()
                throw WebDriver.Failure(description: "serve.mjs said \(text)")
            }
            port = found
        }

        var base: String { "http://127.0.0.1:\(port)/" }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }
    }

    static func screenshot(_ browser: WebDriver, _ name: String) throws {
        let folder = root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try browser.screenshot(to: folder.appendingPathComponent(name + ".png").path)
    }

    // MARK: Conformance in Chromium

    /// The vectors `make test` wrote (FORMULARY_CONFORMANCE), or a smaller set written now by
    /// the generator built beside the `formulary` executable.
    static func vectors() throws -> URL {
        if let folder = ProcessInfo.processInfo.environment["FORMULARY_CONFORMANCE"], !folder.isEmpty,
           FileManager.default.fileExists(atPath: folder + "/summary.json") {
            return URL(fileURLWithPath: folder)
        }
        let binary = URL(fileURLWithPath: try FormularyProcess.executable.get()).deletingLastPathComponent()
            .appendingPathComponent("FormularyConformance")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-conformance-\(UUID().uuidString)")
        let generator = Process()
        generator.executableURL = binary
        generator.arguments = ["--out", folder.path, "--scale", "0.2"]
        generator.standardOutput = FileHandle.nullDevice
        try generator.run()
        generator.waitUntilExit()
        guard generator.terminationStatus == 0 else { throw WebDriver.Failure(description: "FormularyConformance exited \(generator.terminationStatus)") }
        return folder
    }

    @Test func theConformanceVectorsAgreeInChromium() throws {
        let folder = try Self.vectors()
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("summary.json"))) as? [String: Any]
        let expected = summary?["cases"] as? Int ?? 0
        let server = try StaticServer(data: folder)
        let browser = try WebDriver(width: 1280, height: 900)
        try browser.open(server.base + "runtime/conformance/browser/conformance.html")
        try browser.waitUntil("return document.body.dataset.view === 'done'", "the vectors to run", seconds: 900)
        let text = try browser.execute("return document.body.dataset.result") as? String ?? "{}"
        let result = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        let cases = result["cases"] as? Int ?? 0, failed = result["failed"] as? Int ?? -1
        print("RuntimeBrowserTests: Chromium ran \(cases) conformance cases (\(result["parts"] ?? "")), \(failed) disagreed; \(result["userAgent"] ?? "")")
        #expect(failed == 0, "\(result["failures"] ?? "")")
        // Every case of the vectors ran (each value and form is several comparisons; the
        // Unicode checks come on top).
        #expect(cases >= expected, "\(cases) cases ran, the vectors hold \(expected)")
    }

    // MARK: Attached fields, typed into

    /// Two types of a form of one's own, with `timing typing` (so `aria-invalid` follows the
    /// live verdict while typing), and two built-in ones.
    static let clock = """
        field clock
        label "Clock"
        timing typing
        keyboard number-pad
        normalize strip-spaces
        mask "{00-23}:{00-59}"   message "Use HH:MM, e.g. 09:30"
        accept "09:30"
        """
    static let note = """
        field note
        label "Note"
        timing typing
        autocapitalize sentences
        normalize trim collapse-spaces
        length ...12
        charset letters marks spaces digits   message "Letters, digits and spaces only"
        accept "Hello there"
        """

    /// What the field shows after a step.
    struct State: Equatable, CustomStringConvertible {
        var value: String
        var start: Int
        var end: Int
        var invalid: String
        var message: String
        var description: String { "\"\(value)\" [\(start), \(end)] aria-invalid=\(invalid) message \"\(message)\"" }
    }

    /// The Swift editor of one field, fed the same edits as the page, with what `attach`
    /// shows for them: the text, the selection in UTF-16 units, `aria-invalid` (while typing:
    /// the live verdict for timing `typing`; after leaving: the final verdict unless the timing
    /// is `submit`), and the message (a refused keystroke's reason, else the visible message).
    struct Model {
        var editor: FieldEditor
        var left = false
        var refusal: String?

        init(_ type: CompiledFieldType) { editor = FieldEditor(type: type) }

        var state: State {
            let bounds = editor.text.characterBounds
            let invalid: Bool
            if !left { invalid = editor.timing == .typing && editor.result.verdict == .invalid }
            else { invalid = editor.timing != .submit && editor.type.validate(editor.text).verdict == .invalid }
            let message = refusal ?? editor.visibleMessage(after: left ? .leaving : .typing) ?? ""
            return State(value: editor.text, start: bounds[editor.selection.lowerBound], end: bounds[editor.selection.upperBound],
                         invalid: invalid ? "true" : "false", message: message)
        }

        mutating func edit(_ body: (inout FieldEditor) -> EditOutcome?) {
            let outcome = body(&editor)
            refusal = outcome.flatMap { !$0.accepted ? $0.refusal?.message : nil }
        }

        mutating func type(_ text: String) { edit { $0.insert(text) } }

        /// Ctrl+Backspace: back over white space and punctuation, then over letters, marks and digits.
        mutating func deleteWordBackward() {
            edit { editor in
                guard editor.selection.isEmpty else { return editor.replace(editor.selection, with: "") }
                let scalars = Array(editor.text.unicodeScalars)
                let caretScalars = editor.text.prefix(editor.caret).unicodeScalars.count
                func word(_ s: Unicode.Scalar) -> Bool {
                    if s.value >= 0x30 && s.value <= 0x39 { return true }
                    switch s.properties.generalCategory {
                    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                         .nonspacingMark, .spacingMark, .enclosingMark: return true
                    default: return false
                    }
                }
                var j = caretScalars
                while j > 0 && !word(scalars[j - 1]) { j -= 1 }
                while j > 0 && word(scalars[j - 1]) { j -= 1 }
                let start = String(String.UnicodeScalarView(scalars[..<j])).count
                return start == editor.caret ? nil : editor.replace(start..<editor.caret, with: "")
            }
        }
    }

    /// Reads the field `css` of the attach page.
    static func read(_ browser: WebDriver, _ css: String) throws -> State {
        let values = try browser.execute("""
            const f = document.querySelector(arguments[0]), m = document.querySelector(arguments[0] + '-message');
            return [f.value, f.selectionStart, f.selectionEnd, f.getAttribute('aria-invalid') || '', m.textContent];
            """, [css]) as? [Any] ?? []
        return State(value: values[safe: 0] as? String ?? "?", start: values[safe: 1] as? Int ?? -1,
                     end: values[safe: 2] as? Int ?? -1, invalid: values[safe: 3] as? String ?? "?", message: values[safe: 4] as? String ?? "?")
    }

    /// A sandbox's export of the built-in types and `clock` and `note`, in a data folder.
    static func exportFolder() throws -> (URL, FieldCatalog) {
        let sandbox = try Sandbox()
        try sandbox.write("types/clock.field", clock)
        try sandbox.write("types/note.field", note)
        let export = try sandbox.mustRun("--plugins", "types", "export")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(export.stdout.utf8).write(to: folder.appendingPathComponent("export.json"))
        let catalog = try FieldCatalog.builtin(today: today).adding(source: clock, file: "clock.field").adding(source: note, file: "note.field")
        return (folder, catalog)
    }

    @Test(arguments: [1280, 390])
    func attachedFieldsShowWhatTheSwiftEditorGivesAfterEveryStep(_ width: Int) throws {
        let (folder, catalog) = try Self.exportFolder()
        let server = try StaticServer(data: folder)
        let browser = try WebDriver(width: width, height: 900)
        try browser.open(server.base + "runtime/conformance/browser/attach.html?types=note;clock;exp-date;phone&today=2026-11-29")
        var steps = 0

        func check(_ css: String, _ model: Model, _ what: String) throws {
            let shown = try Self.read(browser, css)
            #expect(shown == model.state, "\(css) after \(what)")
            steps += 1
        }

        // A note: keys one by one (letters with accents too), a word deleted, a paste, a
        // composition, a selection replaced (and one refused), Home and Delete, autofill.
        var note = Model(try catalog.fieldType("note"))
        let noteField = try browser.element("#f-note")
        try browser.click(noteField)
        for key in "héllo wörld".map(String.init) {
            try browser.type(key, into: noteField)
            note.type(key)
            try check("#f-note", note, "key \(key)")
        }
        try browser.type("\u{E009}\u{E003}", into: noteField)   // Ctrl+Backspace: deleteWordBackward
        note.deleteWordBackward()
        try check("#f-note", note, "Ctrl+Backspace")
        try browser.cdp("Input.insertText", ["text": "🇳🇿 ok"])
        note.type("🇳🇿 ok")
        try check("#f-note", note, "a paste-like insertText")
        try browser.cdp("Input.imeSetComposition", ["text": "に", "selectionStart": 1, "selectionEnd": 1])
        try browser.cdp("Input.imeSetComposition", ["text": "にほ", "selectionStart": 2, "selectionEnd": 2])
        try browser.cdp("Input.insertText", ["text": "日本"])   // commits the composition
        note.type("日本")
        try check("#f-note", note, "a composition committed")
        try browser.type("\u{E008}\u{E012}\u{E012}", into: noteField)   // Shift+Left, twice
        note.editor.select(note.editor.caret - 2..<note.editor.caret)
        try check("#f-note", note, "Shift+Left twice")
        try browser.type("!", into: noteField)                  // refused: not a letter
        note.type("!")
        try check("#f-note", note, "a refused key over a selection")
        #expect(note.refusal == "Letters, digits and spaces only")
        try browser.type("x", into: noteField)                  // replaces the selection
        note.type("x")
        try check("#f-note", note, "a key replacing the selection")
        try browser.type("\u{E003}", into: noteField)           // Backspace
        note.edit { $0.deleteBackward() }
        try check("#f-note", note, "Backspace")
        try browser.type("\u{E011}\u{E017}", into: noteField)   // Home, Delete
        note.editor.moveCaret(to: 0)
        note.edit { editor in editor.replace(0..<1, with: "") }
        try check("#f-note", note, "Home, Delete")
        try browser.execute("""
            const f = document.querySelector('#f-note');
            f.setSelectionRange(f.value.length, f.value.length);
            const data = new DataTransfer();
            data.setData('text/plain', 'Ada  Lovelace 1815');
            f.dispatchEvent(new InputEvent('beforeinput', {inputType: 'insertReplacementText', dataTransfer: data, cancelable: true, bubbles: true}));
            """)
        note.editor.moveCaret(to: note.editor.text.count)
        note.edit { $0.setText("Ada  Lovelace 1815") }           // autofill: the whole text, what fits is kept
        try check("#f-note", note, "an autofill-like insertReplacementText")
        #expect(note.editor.text.hasPrefix("Ada Lovelace"), "\(note.editor.text)")

        // A clock: number groups pad as the user types; a letter is refused.
        var clock = Model(try catalog.fieldType("clock"))
        let clockField = try browser.element("#f-clock")
        try browser.click(clockField)
        for key in ["7", "x", "9", "\u{E003}", "\u{E003}", "2", "5", "4"] {
            try browser.type(key, into: clockField)
            if key == "\u{E003}" { clock.edit { $0.deleteBackward() } } else { clock.type(key) }
            try check("#f-clock", clock, "clock key \(key.unicodeScalars.first!.value)")
        }
        #expect(clock.editor.text == "07:25", "\(clock.editor.text)")

        // An expiry date (timing leaving): no message while typing; leaving shows the final one.
        var expiry = Model(try catalog.fieldType("exp-date"))
        let expiryField = try browser.element("#f-exp-date")
        try browser.click(expiryField)
        for key in ["1", "3", "2", "/", "3"] {
            try browser.type(key, into: expiryField)
            expiry.type(key)
            try check("#f-exp-date", expiry, "expiry key \(key)")
        }
        try browser.type("\u{E004}", into: expiryField)         // Tab: the field is left
        expiry.edit { editor in editor.commit(); return nil }
        expiry.left = true
        try check("#f-exp-date", expiry, "leaving")
        #expect(try Self.read(browser, "#f-exp-date").invalid == "true")
        #expect(try Self.read(browser, "#f-exp-date").message == "Use MM/YY, e.g. 09/28")

        // A phone number pasted with letters in it: the characters that fit are kept.
        var phone = Model(try catalog.fieldType("phone"))
        let phoneField = try browser.element("#f-phone")
        try browser.click(phoneField)
        try browser.cdp("Input.insertText", ["text": "555 x12 3456 78"])
        phone.type("555 x12 3456 78")
        try check("#f-phone", phone, "a paste with letters")
        #expect(phone.editor.text == "(555) 123-4567")
        #expect(steps >= 30)

        try Self.screenshot(browser, "runtime-attach-\(width)")
        let widths = try browser.execute("return [window.innerWidth, document.documentElement.scrollWidth]") as? [Int] ?? []
        #expect(widths.first == width && (widths.last ?? .max) <= width, "\(widths)")
    }

    // MARK: The page of docs/javascript.md

    /// The fenced block of docs/javascript.md whose info string is `info`.
    static func block(_ info: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("docs/javascript.md"), encoding: .utf8)
        var lines: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if lines == nil, line == "```" + info { lines = []; continue }
            if lines != nil, line == "```" { return lines!.joined(separator: "\n") + "\n" }
            lines?.append(line)
        }
        throw WebDriver.Failure(description: "no ```\(info) block in docs/javascript.md")
    }

    @Test func thePageOfTheJavaScriptGuideWorksAsWritten() throws {
        // As the guide says: the form in a folder, `formulary --plugins . export`, the runtime
        // and the page beside them, served by any static server.
        let sandbox = try Sandbox()
        try sandbox.write("payment/payment.form", try Self.block("form"))
        let export = try sandbox.mustRun("--plugins", "payment", "export")
        let folder = sandbox.root.appendingPathComponent("payment")
        try Data(export.stdout.utf8).write(to: folder.appendingPathComponent("registry.json"))
        try Data(try Self.block("html").utf8).write(to: folder.appendingPathComponent("payment.html"))
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("runtime/js/formulary.js"),
                                         to: folder.appendingPathComponent("formulary.js"))
        let server = try StaticServer(data: folder)
        let browser = try WebDriver(width: 390, height: 844)
        try browser.navigate(server.base + "data/payment.html")   // the guide's page sets no view: wait for its fields
        try browser.waitUntil("return !!document.querySelector('#expires') && document.querySelector('#expires').getAttribute('autocomplete') === 'cc-exp'", "the page's fields to be attached")

        // Submitting it empty says which field needs attention first.
        try browser.click(try browser.element("button"))
        #expect(try browser.execute("return document.querySelector('#verdict').textContent") as? String
                == "Please check the form: Amount (EUR) is required")
        let expires = try browser.element("#expires")
        try browser.click(expires)
        try browser.type("2", into: expires)
        #expect(try browser.execute("return document.querySelector('#expires').value") as? String == "02/")
        try browser.type("x", into: expires)
        #expect(try browser.execute("return document.querySelector('#expires-message').textContent") as? String
                == "Expiry Date takes digits only")
        try browser.type("\u{E004}", into: expires)              // leave it half filled
        #expect(try browser.execute("return [document.querySelector('#expires').getAttribute('aria-invalid'), document.querySelector('#expires-message').textContent]") as? [String]
                == ["true", "Use MM/YY, e.g. 09/28"])
        for (css, keys) in [("#amount", "12.5"), ("#expires", "30"), ("#cvv", "123")] {
            let field = try browser.element(css)
            try browser.click(field)
            try browser.type(keys, into: field)
        }
        try browser.click(try browser.element("button"))
        let verdict = try browser.execute("return document.querySelector('#verdict').textContent") as? String ?? ""
        #expect(verdict == "Sending… (Give a phone number, in case we need to call you)", "\(verdict)")
        #expect(try browser.execute("return document.querySelector('#expires').value") as? String == "02/30")
        try Self.screenshot(browser, "javascript-guide-page-390")
    }
}

/// Node, which serves the browser tests' pages (`make deps` installs it).
enum NodeJS {
    static let path: String? = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

private extension String {
    /// The UTF-16 offset at which each character starts, then the length.
    var characterBounds: [Int] {
        var bounds = [0]
        for character in self { bounds.append(bounds.last! + character.utf16.count) }
        return bounds
    }
}
