import Foundation
import Testing

/// Truncated, binary, invalid-UTF-8, huge-line and wrong-encoding files given to `import`,
/// `types add` and `forms add`: each is a clear error (exit 2, naming the file, and the
/// line where there is one) and the database is exactly as it was — no entry, type or form
/// version, import or audit record written. (`ImportCommandTests` covers malformed CSV and
/// JSON Lines records and a Latin-1 CSV line.)
@Suite struct BadFilesTests {
    /// Deterministic "random" bytes (a linear congruential generator), NULs included.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func utf16(_ text: String, bigEndian: Bool = false) -> [UInt8] {
        (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + text.utf16.flatMap { unit -> [UInt8] in
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            return bigEndian ? [high, low] : [low, high]
        }
    }

    /// A bad input: the file's bytes and what the error must say (`file:line` included
    /// where a line can be named).
    struct Case: CustomStringConvertible {
        var file: String
        var bytes: [UInt8]
        var mentions: [String]
        var description: String { file }
    }

    static let importCases: [Case] = [
        Case(file: "truncated.csv", bytes: Array("name,email\nAda,\"ada@exa".utf8), mentions: ["truncated.csv:2:", "quote"]),
        Case(file: "truncated.jsonl", bytes: Array("{\"name\":\"Ada\"}\n{\"name\":\"Bo".utf8), mentions: ["truncated.jsonl:2:"]),
        Case(file: "empty.csv", bytes: [], mentions: ["empty.csv:1:", "empty"]),
        Case(file: "random.csv", bytes: noise(4096, seed: 1), mentions: ["random.csv:"]),
        Case(file: "random.jsonl", bytes: noise(4096, seed: 2), mentions: ["random.jsonl:1:"]),
        Case(file: "nuls.csv", bytes: Array("name,email\n".utf8) + [UInt8](repeating: 0, count: 64) + [10],
             mentions: ["nuls.csv:2"]),
        Case(file: "nuls.jsonl", bytes: [UInt8](repeating: 0, count: 64) + [10], mentions: ["nuls.jsonl:1:"]),
        Case(file: "invalid.csv", bytes: Array("name,email\nAda,ada@example.com\nBob,".utf8) + [0xC3, 0x28, 10],
             mentions: ["invalid.csv:3:", "UTF-8"]),
        Case(file: "invalid.jsonl", bytes: Array("{\"name\":\"Ada\"}\n{\"name\":\"".utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8),
             mentions: ["invalid.jsonl:2:", "UTF-8"]),
        Case(file: "utf16.csv", bytes: utf16("name,email\nAda,ada@example.com\n"), mentions: ["utf16.csv:1:1:", "UTF-16LE"]),
        Case(file: "utf16be.csv", bytes: utf16("name,email\n", bigEndian: true), mentions: ["utf16be.csv:1:1:", "UTF-16BE"]),
        Case(file: "utf16.jsonl", bytes: utf16("{\"name\":\"Ada\"}\n"), mentions: ["utf16.jsonl:1:1:", "UTF-16LE"]),
        Case(file: "latin1.jsonl", bytes: Array("{\"name\":\"Jos".utf8) + [0xE9] + Array("\"}\n".utf8),
             mentions: ["latin1.jsonl:1:", "UTF-8"]),
    ]

    static let pluginCases: [Case] = [
        Case(file: "truncated.field", bytes: Array("field tidy\nlabel \"Tidy\"\npattern /[a-z".utf8), mentions: ["truncated.field:3:"]),
        Case(file: "empty.field", bytes: [], mentions: ["empty.field"]),
        Case(file: "random.field", bytes: noise(4096, seed: 3), mentions: ["random.field:1:", "UTF-8"]),
        Case(file: "nul.field", bytes: Array("field tidy\u{0}\nlength 1...3\n".utf8), mentions: ["nul.field:1:", "U+0000"]),
        Case(file: "latin1.field", bytes: Array("field tidy\nlabel \"caf".utf8) + [0xE9] + Array("\"\n".utf8),
             mentions: ["latin1.field:2:11:", "UTF-8"]),
        Case(file: "utf16.field", bytes: utf16("field tidy\nlength 1...3\n"), mentions: ["utf16.field:1:1:", "UTF-16LE"]),
        Case(file: "truncated.form", bytes: Array("form tiny\nfield a na".utf8), mentions: ["truncated.form:2:"]),
        Case(file: "random.form", bytes: noise(2048, seed: 4), mentions: ["random.form:1:", "UTF-8"]),
        Case(file: "latin1.form", bytes: Array("form tiny\nlabel \"caf".utf8) + [0xE9] + Array("\"\nfield a name\n".utf8),
             mentions: ["latin1.form:2:11:", "UTF-8"]),
        Case(file: "utf16.form", bytes: utf16("form tiny\nfield a name\n", bigEndian: true), mentions: ["utf16.form:1:1:", "UTF-16BE"]),
    ]

    /// A database with a form, a stored type, entries and a run: what must stay untouched.
    static func populated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("good.csv", "name,email\nAda,ada@example.com\n")
        try sandbox.mustRun("import", "--form", "signup", "good.csv")
        return sandbox
    }

    static func expectClearError(_ result: ProcessResult, _ badCase: Case) {
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let first = result.errorLines.first ?? ""
        #expect(first.hasPrefix("formulary: error: "), "\(result)")
        for text in badCase.mentions {
            #expect(result.stderr.contains(text), "\(badCase.file): the message should mention '\(text)': \(result)")
        }
        // Binary input is never echoed raw: no control character but line breaks and tabs.
        let raw = result.stderr.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value) }
        #expect(raw.isEmpty, "\(badCase.file): control characters \(raw.prefix(5).map { $0.value }) on standard error")
    }

    @Test func badImportFilesAreClearErrorsAndWriteNothing() throws {
        let sandbox = try Self.populated()
        let before = try DatabaseSnapshot(path: sandbox.databasePath)
        for badCase in Self.importCases {
            try sandbox.write(badCase.file, bytes: badCase.bytes)
            let result = try sandbox.run("import", "--form", "signup", badCase.file)
            Self.expectClearError(result, badCase)
            // With --skip-bad, a file that is bad as a whole is still refused.
            if badCase.file.hasPrefix("utf16") || badCase.file.hasPrefix("empty") {
                Self.expectClearError(try sandbox.run("import", "--form", "signup", "--skip-bad", badCase.file), badCase)
            }
        }
        #expect(try DatabaseSnapshot(path: sandbox.databasePath) == before, "a refused import wrote something")
    }

    @Test func badPluginFilesAreClearErrorsAndStoreNothing() throws {
        let sandbox = try Self.populated()
        let before = try DatabaseSnapshot(path: sandbox.databasePath)
        try sandbox.write("fine.field", "field fine\nlength 1...3\naccept \"ab\"\n")
        try sandbox.write("fine.form", "form fine\nfield a name\n")
        for badCase in Self.pluginCases {
            try sandbox.write(badCase.file, bytes: badCase.bytes)
            let isForm = badCase.file.hasSuffix(".form")
            let command = isForm ? ["forms", "add"] : ["types", "add"]
            let result = try sandbox.run(command + [badCase.file])
            Self.expectClearError(result, badCase)
            // All or nothing: a good file named with a bad one is not stored either.
            let together = try sandbox.run(command + [isForm ? "fine.form" : "fine.field", badCase.file])
            #expect(together.status == 2, "\(together)")
        }
        #expect(try DatabaseSnapshot(path: sandbox.databasePath) == before, "a refused types/forms add stored something")
    }

    /// A 20 MB field is over the import reader's 16 MiB field limit, and a plugin file over
    /// the loader's 4 MiB file limit: both are refused with the limit in the message.
    @Test func hugeLinesHitTheReaderLimits() throws {
        let sandbox = try Self.populated()
        let before = try DatabaseSnapshot(path: sandbox.databasePath)
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 20 << 20)
        try sandbox.write("huge.csv", bytes: Array("name,email\nAda,ada@example.com\nBob,".utf8) + huge + [10])
        let csv = try sandbox.run("import", "--form", "signup", "huge.csv")
        Self.expectClearError(csv, Case(file: "huge.csv", bytes: [], mentions: ["huge.csv:3:", "larger than 16 MiB"]))
        try sandbox.write("huge.jsonl", bytes: Array("{\"name\":\"".utf8) + huge + Array("\"}\n".utf8))
        let jsonl = try sandbox.run("import", "--form", "signup", "huge.jsonl")
        Self.expectClearError(jsonl, Case(file: "huge.jsonl", bytes: [], mentions: ["huge.jsonl:1", "larger than 16 MiB"]))
        try sandbox.write("huge.field", bytes: Array("field huge\nlabel \"".utf8) + huge.prefix(5 << 20) + Array("\"\n".utf8))
        let field = try sandbox.run("types", "add", "huge.field")
        Self.expectClearError(field, Case(file: "huge.field", bytes: [], mentions: ["huge.field", "larger than 4 MiB"]))
        #expect(try DatabaseSnapshot(path: sandbox.databasePath) == before)
    }

    /// A folder given where a file belongs says so and what to do, instead of a read error
    /// or a complaint about its name; a file given where a folder belongs likewise.
    @Test func foldersAndFilesInEachOthersPlaceSaySo() throws {
        let sandbox = try Self.populated()
        try sandbox.mkdir("batch")
        try sandbox.mkdir("more.csv")
        try sandbox.mkdir("types/visa.field")
        let before = try DatabaseSnapshot(path: sandbox.databasePath)
        for folder in ["batch", "more.csv"] {
            let result = try sandbox.run("import", "--form", "signup", folder)
            #expect(result.status == 2, "\(result)")
            #expect(result.errorLines.first == "formulary: error: \(folder) is a folder; import reads one CSV or JSON Lines file: name a file in it",
                    "\(result)")
        }
        for command in [["types", "add"], ["types", "lint"], ["forms", "add"]] {
            let result = try sandbox.run(command + ["types/visa.field"])
            #expect(result.status == 2, "\(result)")
            #expect(result.errorLines == ["formulary: error: types/visa.field is a folder, not a plugin file; name the .field and .form "
                                          + "files in it, or search the folder with --plugins types/visa.field"], "\(result)")
        }
        let file = try sandbox.run("--plugins", "good.csv", "types", "list")
        #expect(file.status == 2, "\(file)")
        #expect(file.errorLines == ["formulary: error: good.csv: is a file, not a folder (named by --plugins); name the folder that holds plugin files"],
                "\(file)")
        let empty = try sandbox.run("--plugins", "", "types", "list")
        #expect(empty.errorLines == ["formulary: error: --plugins '': names no folder; give the path of one"], "\(empty)")
        let missing = try sandbox.run(["types", "list"], environment: ["FORMULARY_PATH": "no-such-folder"])
        #expect(missing.errorLines == ["formulary: error: no-such-folder: does not exist (named by FORMULARY_PATH)"], "\(missing)")
        #expect(try DatabaseSnapshot(path: sandbox.databasePath) == before)
    }
}
