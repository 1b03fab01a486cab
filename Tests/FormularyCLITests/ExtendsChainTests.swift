import Foundation
import Testing

/// A plugin folder of 5,000 types chained by `extends` (t1 extends t0, …, t4999 extends
/// t4998), or looping round, given to the commands that resolve types. Before resolution
/// was linear, `types list` stalled for minutes, `check` crashed (stack overflow) and
/// `types add` of such a chain took minutes; here each must end (within the runner's
/// 30-second limit, far above what they need) with exit 2 and one clear error — the chain
/// is too deep below t64 — instead of thousands of copies of it. Speed itself is measured
/// by `FormularyBench resolve`, not here.
@Suite struct ExtendsChainTests {
    static let count = 5_000
    /// Types t65 … t4999 lie below the 64-level limit.
    static let unusable = count - 65
    /// The counts as the text output writes them (`4,935`).
    static func grouped(_ n: Int) -> String {
        n < 1000 ? String(n) : grouped(n / 1000) + "," + String(String(n % 1000).reversed()).padding(toLength: 3, withPad: "0", startingAt: 0).reversed()
    }

    /// Writes the chain into `folder` of the sandbox and returns the files' paths.
    @discardableResult
    static func writeChain(in sandbox: Sandbox, folder: String = "d",
                           base: (Int) -> String? = { $0 == 0 ? nil : "t\($0 - 1)" }) throws -> [String] {
        // One folder, then plain C file writes: Foundation's file writing takes about a
        // millisecond a file here, which for 5,000 files would be most of the test's time.
        try sandbox.mkdir(folder)
        return try (0..<count).map { index in
            let header = base(index).map { "field t\(index) extends \($0)" } ?? "field t\(index)"
            let path = "\(folder)/t\(index).field"
            guard let file = fopen(sandbox.path(path), "w") else { throw CocoaError(.fileWriteUnknown) }
            fputs(header + "\nlength 1...10\n", file)
            fclose(file)
            return path
        }
    }

    static let tooDeepHeader = "d/t65.field:1:19: error: 'extends' goes too deep: the chain that starts at 't0' reaches 65 levels here"

    /// The one diagnostic, its line and caret, and the note counting the types it stops.
    static func expectOneTooDeepError(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.errorLines
        #expect(lines.filter { $0.contains("extends' goes too deep") }.count == 1, "\(result)", sourceLocation: sourceLocation)
        guard let at = lines.firstIndex(where: { $0.hasPrefix(tooDeepHeader) }), at + 3 < lines.count else {
            Issue.record("no extends-too-deep diagnostic at t65: \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(lines[at + 1] == "field t65 extends t64", sourceLocation: sourceLocation)
        #expect(lines[at + 2] == String(repeating: " ", count: 18) + "^~~", sourceLocation: sourceLocation)
        #expect(lines[at + 3].hasPrefix("note: \(Self.grouped(unusable)) types cannot be used because of this: "), "\(result)",
                sourceLocation: sourceLocation)
        #expect(lines.count <= 6, "\(result)", sourceLocation: sourceLocation)
    }

    @Test func typesListAndTestListEveryTypeThenSayOnceWhyMostAreBroken() throws {
        let sandbox = try Sandbox()
        try Self.writeChain(in: sandbox)
        let list = try sandbox.run("--plugins", "d", "types", "list")
        #expect(list.status == 2, "\(list)")
        #expect(list.errorLines.first?.hasPrefix("formulary: error: \(Self.grouped(Self.unusable)) of the ") == true, "\(list)")
        #expect(list.errorLines.first?.contains("listed with the version 'broken'") == true, "\(list)")
        Self.expectOneTooDeepError(list)
        // Every type is still listed: the first 65 with a version, the others broken.
        let rows = list.outputLines.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let chain = rows.filter { $0.first?.hasPrefix("t") == true && $0.first?.dropFirst().allSatisfy(\.isNumber) == true }
        #expect(chain.count == Self.count)
        #expect(chain.filter { $0[1] == "broken" }.count == Self.unusable)
        #expect(rows.first { $0.first == "t64" }?[1] != "broken")
        #expect(rows.first { $0.first == "t65" }?[1] == "broken")
        #expect(rows.first { $0.first == "email" }?[1] != "broken")

        let json = try sandbox.run("--plugins", "d", "--format", "json", "types", "list")
        #expect(json.status == 2)
        let types = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(types.filter { $0["version"] is NSNull }.count == Self.unusable)

        // `types test` counts each broken type but says the reason once.
        let test = try sandbox.run("--plugins", "d", "types", "test")
        #expect(test.status == 2, "\(test)")
        let summary = test.outputLines.suffix(2)
        #expect(summary.first == "\(Self.grouped(Self.unusable)) types could not be loaded", "\(test)")
        #expect(summary.last?.hasSuffix(" passed, \(Self.grouped(Self.unusable)) failed") == true, "\(test)")
        Self.expectOneTooDeepError(test)
    }

    @Test func checkOfATypeBelowTheLimitIsOneErrorAndTheOthersStillWork() throws {
        let sandbox = try Sandbox()
        try Self.writeChain(in: sandbox)
        let deepest = try sandbox.run("--plugins", "d", "check", "t4999", "abc")
        #expect(deepest.status == 2, "\(deepest)")
        #expect(deepest.errorLines.first == "formulary: error: type 't4999' cannot be used", "\(deepest)")
        #expect(deepest.errorLines.dropFirst().first?.hasPrefix(Self.tooDeepHeader) == true, "\(deepest)")
        #expect(deepest.errorLines.count == 4, "\(deepest)")
        #expect(try sandbox.run("--plugins", "d", "check", "t64", "abc").status == 0)
        #expect(try sandbox.run("--plugins", "d", "check", "t64", "abcdefghijk").status == 1)
        let email = try sandbox.run("--plugins", "d", "check", "email", "ada@example.com")
        #expect(email.status == 0 && email.stderr.isEmpty, "\(email)")

        // `export` leaves the broken types out, naming them together on one line.
        let export = try sandbox.run("--plugins", "d", "export")
        #expect(export.status == 0, "\(export)")
        #expect(export.errorLines.count == 1, "\(export)")
        #expect(export.errorLines.first?.hasPrefix("formulary: warning: \(Self.grouped(Self.unusable)) types have errors and are left out of the export ('t100', 't1000', 't1001' and ") == true, "\(export)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        #expect((document["unavailable"] as? [Any])?.count == Self.unusable)
    }

    @Test func typesAddAndLintOfTheWholeChainSayOnceWhy() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        let files = try Self.writeChain(in: sandbox)
        let added = try sandbox.run(["types", "add"] + files)
        #expect(added.status == 2, "\(added)")
        #expect(added.errorLines.first == "formulary: error: nothing was stored: the files have problems", "\(added)")
        Self.expectOneTooDeepError(added)
        #expect(added.stdout.isEmpty)
        let sql = try SQLiteShell(path: sandbox.databasePath)
        #expect(try sql.scalar("SELECT count(*) FROM type_versions WHERE origin = 'database'") == "0")
        // `types lint` of the same files says it once too.
        let lint = try sandbox.run(["types", "lint"] + files)
        #expect(lint.status == 2, "\(lint)")
        #expect(lint.outputLines.count == 65 && lint.outputLines.first == "ok  d/t0.field", "\(lint)")
        Self.expectOneTooDeepError(lint)
        // The part of the chain within the limit can be added.
        let within = try sandbox.run(["types", "add"] + files.prefix(65))
        #expect(within.status == 0, "\(within)")
        #expect(within.outputLines.count == 65)
    }

    /// A cycle through all 5,000 types: every member is broken, each with its own
    /// diagnostic, so `types list` shows the first ten and counts the rest.
    @Test func typesListOfALongCycleShowsTheFirstProblemsAndCountsTheRest() throws {
        let sandbox = try Sandbox()
        try Self.writeChain(in: sandbox) { $0 == 0 ? "t\(Self.count - 1)" : "t\($0 - 1)" }
        let list = try sandbox.run("--plugins", "d", "types", "list")
        #expect(list.status == 2, "\(list)")
        // 19: the built-in types, which the count includes.
        #expect(list.errorLines.first == "formulary: error: \(Self.grouped(Self.count)) of the \(Self.grouped(Self.count + 19)) types cannot be used (listed with the version 'broken')", "\(list)")
        #expect(list.errorLines.filter { $0.contains(": error: inheritance cycle: ") }.count == 10, "\(list)")
        #expect(list.errorLines.last?.hasPrefix("… and \(Self.grouped(Self.count - 10)) more problems") == true, "\(list)")
        #expect(list.errorLines.allSatisfy { $0.count < 300 }, "\(list)")
    }
}
