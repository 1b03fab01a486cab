import Foundation
import Testing

/// Every ```` ```console ```` example of the user documentation is run with the built
/// `formulary` binary and must print what the page shows: verdicts, counts, version hashes,
/// tables, error messages and exit statuses. A doc whose example drifted from the code fails
/// here instead of misleading its reader.
///
/// A page is replayed top to bottom in one empty folder, as a reader following along would:
/// its first ```` ```sh ```` block of `export` lines (and any `<!-- docs-env: K=V -->`
/// comment) sets the environment; a block preceded by `<!-- file: PATH -->`, or whose first
/// line is a comment `# PATH` naming a `.field`, `.form`, `.csv` or `.jsonl` file, is saved
/// to PATH when the replay reaches it; each `$ command` line runs in `bash` (so pipes, `&&`
/// and `echo $?` work as on the page), and the lines under it are its expected output
/// (standard output and standard error, in whatever interleaving the page shows them).
///
/// Only what cannot repeat is masked, on both sides: times (`2026-11-29T16:22:23.264Z`), a
/// run's duration and rate, the audit chain's head hash (it covers those times), data
/// digests (keyed by each database's random key) and the demo's random folder name. A line `…` stands for any number of lines.
struct DocsExamplesTests {
    /// README.md and every page of docs/ that has console examples.
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return (["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }).filter { document in
            let text = (try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)) ?? ""
            return text.contains("```console")
        }
    }()

    /// The repository root, found from this file's path (Tests/FormularyCLITests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    // MARK: Reading a page

    /// One thing a page asks the replay to do, in page order.
    enum Step: Equatable {
        case file(path: String, text: String)
        case command(line: Int, command: String, expected: [String])
    }

    struct Page: Equatable {
        var environment: [String: String] = [:]
        var steps: [Step] = []
    }

    /// The environment settings, files and commands of `markdown`.
    static func parse(_ markdown: String) -> Page {
        var page = Page()
        var pendingFile: String?
        var sawSetup = false
        var block: (kind: String, line: Int, lines: [String], file: String?)?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = block {
                guard trimmed == "```" else {
                    block?.lines.append(line)
                    continue
                }
                block = nil
                if open.kind == "console" {
                    page.steps += commands(in: open.lines, firstLine: open.line + 1)
                } else if open.kind == "sh", !sawSetup,
                          open.lines.allSatisfy({ $0.isEmpty || $0.hasPrefix("export ") }) {
                    sawSetup = true
                    for line in open.lines { page.environment.merge(exports(line)) { $1 } }
                } else if let path = open.file ?? savedPath(firstLine: open.lines.first) {
                    page.steps.append(.file(path: path, text: open.lines.joined(separator: "\n") + "\n"))
                }
                continue
            }
            if trimmed.hasPrefix("```") {
                block = (String(trimmed.dropFirst(3)), index + 1, [], pendingFile)
                pendingFile = nil
            } else if let value = comment(trimmed, "file:") {
                pendingFile = value
            } else if let value = comment(trimmed, "docs-env:") {
                page.environment.merge(exports("export " + value)) { $1 }
            } else if !trimmed.isEmpty {
                pendingFile = nil
            }
        }
        return page
    }

    /// The value of an HTML comment `<!-- KEY VALUE -->`.
    static func comment(_ line: String, _ key: String) -> String? {
        guard line.hasPrefix("<!-- " + key), line.hasSuffix("-->") else { return nil }
        return String(line.dropFirst(5 + key.count).dropLast(3)).trimmingCharacters(in: .whitespaces)
    }

    /// `K=V` pairs of an `export` line, without a trailing `# comment`.
    static func exports(_ line: String) -> [String: String] {
        let body = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
        var result: [String: String] = [:]
        for word in body.split(separator: " ").dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }

    /// The file a block is saved to when its first line is `# PATH` (PATH with a folder and
    /// a data or plugin extension).
    static func savedPath(firstLine: String?) -> String? {
        guard let first = firstLine, first.hasPrefix("# ") else { return nil }
        let path = String(first.dropFirst(2)).trimmingCharacters(in: .whitespaces)
        guard !path.contains(" "), path.contains("/"),
              [".field", ".form", ".csv", ".jsonl"].contains(where: path.hasSuffix) else { return nil }
        return path
    }

    /// The `$ command` lines of a console block, each with the lines up to the next.
    static func commands(in lines: [String], firstLine: Int) -> [Step] {
        var steps: [Step] = []
        for (offset, line) in lines.enumerated() {
            if line.hasPrefix("$ ") {
                steps.append(.command(line: firstLine + offset, command: String(line.dropFirst(2)), expected: []))
            } else if case .command(let at, let command, let expected)? = steps.last {
                steps[steps.count - 1] = .command(line: at, command: command, expected: expected + [line])
            }
        }
        return steps
    }

    // MARK: Comparing

    /// What may differ from run to run, replaced by a placeholder on both sides.
    static let masks: [(pattern: String, placeholder: String)] = [
        (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"#, "<time>"),
        (#"in \d+(\.\d+)? s \([\d,]+ entries/s\)"#, "in <duration>"),
        // An incremental run: `in 0.01 s (2 judged at 310 entries/s, 3 carried forward…`.
        (#"in \d+(\.\d+)? s \((\d+) judged at [\d,]+ entries/s"#, "in <duration> ($2 judged at <rate>"),
        (#"in \d+(\.\d+)? s \(0 judged, "#, "in <duration> (0 judged, "),
        (#"head [0-9a-f]{64}"#, "head <hash>"),
        // `audit verify` names the head as `head SEQ HASH`, `audit head` prints `SEQ HASH`; data
        // digests are keyed by a random key each database draws.
        (#"head (\d+) [0-9a-f]{64}"#, "head $1 <hash>"),
        (#"^(\d+) [0-9a-f]{64}$"#, "$1 <hash>"),
        (#""digest":"[0-9a-f]{64}""#, #""digest":"<digest>""#),
        (#"\S*formulary-demo-[A-Za-z0-9]+"#, "<demo-folder>"),
    ]

    static func normalized(_ line: String) -> String {
        var line = line
        for mask in masks {
            line = line.replacingOccurrences(of: mask.pattern, with: mask.placeholder, options: .regularExpression)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    /// Whether `expected` is `out` and `err` interleaved (each in its own order), a line `…`
    /// standing for any number of lines of either.
    static func matches(_ expected: [String], out: [String], err: [String]) -> Bool {
        let expected = expected.map(normalized), out = out.map(normalized), err = err.map(normalized)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int, _ k: Int) -> Bool {
            let key = (i * (out.count + 1) + j) * (err.count + 1) + k
            if let known = memo[key] { return known }
            let result: Bool
            if i == expected.count {
                result = j == out.count && k == err.count
            } else if expected[i].trimmingCharacters(in: .whitespaces) == "…" {
                result = match(i + 1, j, k) || (j < out.count && match(i, j + 1, k)) || (k < err.count && match(i, j, k + 1))
            } else {
                result = (j < out.count && out[j] == expected[i] && match(i + 1, j + 1, k))
                    || (k < err.count && err[k] == expected[i] && match(i + 1, j, k + 1))
            }
            memo[key] = result
            return result
        }
        return match(0, 0, 0)
    }

    // MARK: Replaying

    @Test(arguments: DocsExamplesTests.documents)
    func consoleExamplesPrintWhatThePageShows(_ document: String) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let page = Self.parse(markdown)

        let sandbox = try Sandbox()
        let binary = try FormularyProcess.executable.get()
        let tmp = sandbox.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        var environment = [
            "PATH": URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": sandbox.root.path, "TMPDIR": tmp.path, "LANG": "C.UTF-8", "USER": "reader",
        ]
        environment.merge(page.environment) { $1 }

        var status: Int32 = 0
        for step in page.steps {
            switch step {
            case .file(let path, let text):
                try sandbox.write(path, text)
            case .command(let line, let command, let expected):
                // `(exit N)` first, so that `echo $?` sees the previous command's status.
                let result = try Self.bash("(exit \(status)); " + command, environment: environment, in: sandbox.root)
                status = result.status
                #expect(Self.matches(expected, out: result.stdout, err: result.stderr), """
                    \(document):\(line): `\(command)` printed something else than the page shows
                    --- the page
                    \(expected.joined(separator: "\n"))
                    --- standard output
                    \(result.stdout.joined(separator: "\n"))
                    --- standard error
                    \(result.stderr.joined(separator: "\n"))
                    """)
            }
        }
    }

    /// Runs `script` in bash with exactly `environment`; output through files, as
    /// `FormularyProcess` does, so nothing can dead-lock.
    static func bash(_ script: String, environment: [String: String], in directory: URL) throws
        -> (status: Int32, stdout: [String], stderr: [String]) {
        let capture = directory.appendingPathComponent(".capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: capture) }
        let outURL = capture.appendingPathComponent("out"), errURL = capture.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        func lines(_ url: URL) throws -> [String] {
            // Split on the byte: "\r\n" (CSV output) is one Character to Swift.
            var lines = String(decoding: try Data(contentsOf: url), as: UTF8.self)
                .unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        }
        return (process.terminationStatus, try lines(outURL), try lines(errURL))
    }

    // MARK: The checker can fail

    /// The pages with the most examples are found (a moved or renamed page must not drop
    /// out of the check silently).
    @Test func thePagesWithExamplesAreChecked() {
        #expect(Self.documents.contains("docs/cli.md"))
        #expect(Self.documents.contains("docs/rule-language.md"))
    }

    @Test func parsingFindsSetupFilesAndCommands() {
        let page = Self.parse("""
            <!-- docs-env: FORMULARY_PATH=my-types -->
            ```sh
            export FORMULARY_TODAY=2026-11-29   # a comment
            ```
            <!-- file: a/x.field -->
            ```field
            field x
            ```
            ```field
            # my-types/y.field
            field y
            ```
            ```field
            field z
            ```
            ```console
            $ formulary check x 1
            valid    "1"
            $ echo $?
            0
            ```
            """)
        #expect(page.environment == ["FORMULARY_PATH": "my-types", "FORMULARY_TODAY": "2026-11-29"])
        #expect(page.steps == [
            .file(path: "a/x.field", text: "field x\n"),
            .file(path: "my-types/y.field", text: "# my-types/y.field\nfield y\n"),
            .command(line: 17, command: "formulary check x 1", expected: ["valid    \"1\""]),
            .command(line: 19, command: "echo $?", expected: ["0"]),
        ])
    }

    @Test func comparisonCatchesADriftedFigure() {
        let page = ["visa: added new version 3982baefd95e", "formulary: error: oops"]
        #expect(Self.matches(page, out: ["visa: added new version 3982baefd95e"], err: ["formulary: error: oops"]))
        #expect(!Self.matches(page, out: ["visa: added new version 3982baefd95f"], err: ["formulary: error: oops"]))
        #expect(!Self.matches(page, out: ["visa: added new version 3982baefd95e"], err: []))
        #expect(!Self.matches(["3 entries"], out: ["3 entries", "extra line"], err: []))
        // Times, durations and the head hash are masked; counts around them are not.
        #expect(Self.matches(["Run 1 complete: 3 entries in 0.02 s (152 entries/s), today 2026-11-29."],
                             out: ["Run 1 complete: 3 entries in 1.5 s (2 entries/s), today 2026-11-29."], err: []))
        #expect(!Self.matches(["Run 1 complete: 3 entries in 0.02 s (152 entries/s), today 2026-11-29."],
                              out: ["Run 1 complete: 4 entries in 0.02 s (152 entries/s), today 2026-11-29."], err: []))
        #expect(Self.matches(["Run 2 complete: 5 entries in 0.01 s (2 judged at 310 entries/s, 3 carried forward from run 1), today 2026-11-29."],
                             out: ["Run 2 complete: 5 entries in 0.50 s (2 judged at 4 entries/s, 3 carried forward from run 1), today 2026-11-29."], err: []))
        #expect(!Self.matches(["Run 2 complete: 5 entries in 0.01 s (2 judged at 310 entries/s, 3 carried forward from run 1), today 2026-11-29."],
                              out: ["Run 2 complete: 5 entries in 0.01 s (1 judged at 310 entries/s, 4 carried forward from run 1), today 2026-11-29."], err: []))
        #expect(Self.matches(["a", "…", "z"], out: ["a", "b", "c", "z"], err: []))
        #expect(!Self.matches(["a", "…", "z"], out: ["a", "b"], err: []))
        #expect(Self.matches(["a", "  …"], out: ["a", "  b", "  c"], err: []))
    }
}
