import Foundation
import Testing

/// `check` and `format`: exit statuses, text and JSON output, stages, secure values, and
/// how global options combine with the environment.
@Suite struct CheckCommandTests {
    /// Each JSON Lines line as a dictionary.
    func jsonLines(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try result.outputLines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func validValuesExitZeroAndInvalidOnesExitOne() throws {
        let sandbox = try Sandbox()
        let valid = try sandbox.run("check", "credit-card", "4111 1111 1111 1111", "4111111111111111")
        #expect(valid.status == 0, "\(valid)")
        #expect(valid.stderr.isEmpty)
        #expect(valid.outputLines == ["valid  \"4111 1111 1111 1111\"", "valid  \"4111 1111 1111 1111\""], "\(valid)")

        let mixed = try sandbox.run("check", "credit-card", "4111 1111 1111 1111", "4111 1111 1111 1112")
        #expect(mixed.status == 1, "\(mixed)")
        #expect(mixed.stderr.isEmpty, "violations are data, not errors: \(mixed)")
        #expect(mixed.outputLines.count == 2)
        #expect(mixed.outputLines[1].hasPrefix("invalid"), "\(mixed)")
        #expect(mixed.outputLines[1].contains("luhn: Card number is not valid"), "\(mixed)")
    }

    @Test func unknownTypeIsAClearUsageErrorWithoutALocation() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("check", "credit-crd", "4111")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines.first == "formulary: error: unknown type 'credit-crd'; did you mean 'credit-card'?", "\(result)")
        // The command line is not a file: no file:line:column for a name that does not exist.
        #expect(!result.stderr.contains("<command line>:"), "\(result)")
        #expect(!result.stderr.contains(":1:1:"), "\(result)")
    }

    @Test func badTypeReferenceShowsACaret() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("check", "age(min: x)", "30")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.errorLines
        #expect(lines.first == "formulary: error: 'age(min: x)' is not a type reference", "\(result)")
        // The reference, then a caret under the offending token (column 10, the 'x').
        let index = try #require(lines.firstIndex(of: "age(min: x)"), "\(result)")
        #expect(lines.indices.contains(index + 1) && lines[index + 1] == String(repeating: " ", count: 9) + "^", "\(result)")
        #expect(lines.contains { $0.contains(":1:10: error:") }, "\(result)")

        let unknownParameter = try sandbox.run("check", "age(mn: 3)", "30")
        #expect(unknownParameter.status == 2, "\(unknownParameter)")
        #expect(unknownParameter.errorLines.first == "formulary: error: type 'age' has no parameter 'mn'; did you mean 'min'?",
                "\(unknownParameter)")
        #expect(unknownParameter.errorLines.contains("    ^~~~~"), "\(unknownParameter)")
    }

    @Test func parametersNarrowTheType() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("check", "age(min: 18)", "17", "18")
        #expect(result.status == 1, "\(result)")
        #expect(result.outputLines.first?.contains("range: Age must be between 18 and 150") == true, "\(result)")
        #expect(result.outputLines.last == "valid    \"18\"", "\(result)")
    }

    @Test func jsonHasOneObjectPerValueWithTheContractKeys() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("--format", "json", "check", "credit-card", "4111 1111 1111 1112", "4111111111111111")
        #expect(result.status == 1, "\(result)")
        #expect(result.outputLines.count == 2, "\(result)")
        // The example of the contract, byte for byte, with the card's brand added (issue 28:
        // the mask that formatted the value, when it has a name of its own).
        #expect(result.outputLines[0] == #"{"type":"credit-card","value":"4111 1111 1111 1112","formatted":"4111 1111 1111 1112","mask":"visa","stage":"final","verdict":"invalid","valid":false,"violations":[{"rule":"luhn","severity":"error","message":"Card number is not valid"}]}"#,
                "the example of the contract, with the brand")
        let objects = try jsonLines(result)
        for object in objects {
            #expect(Set(object.keys) == ["type", "value", "formatted", "mask", "stage", "verdict", "valid", "violations"])
            #expect(object["mask"] as? String == "visa")
        }
        let plain = try sandbox.run("--format", "json", "check", "age", "42")
        #expect(try jsonLines(plain).first.map { Set($0.keys) } == ["type", "value", "formatted", "stage", "verdict", "valid", "violations"])
        #expect(objects[1]["value"] as? String == "4111111111111111")
        #expect(objects[1]["formatted"] as? String == "4111 1111 1111 1111")
        #expect(objects[1]["verdict"] as? String == "valid")
        #expect(objects[1]["valid"] as? Bool == true)
        #expect((objects[1]["violations"] as? [Any])?.isEmpty == true)
    }

    @Test func liveStageHasThreeVerdicts() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.run("check", "--live", "credit-card", "4111", "4111 1111 1111 1111", "41x")
        #expect(text.status == 1, "an invalid prefix is a violation: \(text)")
        #expect(text.outputLines.map { String($0.prefix(while: { $0 != " " })) } == ["incomplete", "valid", "invalid"], "\(text)")

        let json = try sandbox.run("check", "credit-card", "4111", "41x", "--live", "--format", "json")
        let objects = try jsonLines(json)
        #expect(objects.map { $0["verdict"] as? String } == ["incomplete", "invalid"])
        #expect(objects.map { $0["stage"] as? String } == ["live", "live"])
        #expect(objects.map { $0["valid"] as? Bool } == [false, false])

        // Incomplete alone is not a failure: the user is still typing.
        let typing = try sandbox.run("check", "--live", "exp-date", "1", "12/2")
        #expect(typing.status == 0, "\(typing)")
        // The same prefix judged as a final value is invalid.
        #expect(try sandbox.run("check", "exp-date", "1").status == 1)
    }

    @Test func secureValuesNeverAppear() throws {
        let sandbox = try Sandbox()
        let text = try sandbox.run("check", "cvv", "987", "98")
        #expect(text.status == 1, "\(text)")
        #expect(!text.stdout.contains("987") && !text.stdout.contains("98\""), "\(text)")
        #expect(text.outputLines.allSatisfy { $0.contains("\"•••\"") }, "\(text)")

        let json = try sandbox.run("--format", "json", "check", "cvv", "987", "98")
        #expect(!json.stdout.contains("98"), "\(json)")
        for object in try jsonLines(json) {
            #expect(object["value"] as? String == "•••")
            #expect(object["formatted"] as? String == "•••")
        }
        let formatted = try sandbox.run("format", "cvv", "9 8 7")
        #expect(formatted.stdout == "•••\n", "\(formatted)")
    }

    @Test func formatPrintsTheCanonicalForm() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("format", "phone", "5551234567", "212.555.0100", "")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "(555) 123-4567\n(212) 555-0100\n\n", "\(result)")
        let json = try sandbox.run("format", "phone", "5551234567", "--format", "json")
        #expect(json.stdout == #"{"type":"phone","value":"5551234567","formatted":"(555) 123-4567"}"# + "\n", "\(json)")
        // A value that does not fit keeps its extra characters.
        #expect(try sandbox.run("format", "phone", "55512345678").stdout == "(555) 123-45678\n")
    }

    @Test func globalOptionsStandBeforeOrAfterTheCommand() throws {
        let sandbox = try Sandbox()
        let placements: [[String]] = [
            ["--format", "json", "check", "cvv", "123"],
            ["check", "--format", "json", "cvv", "123"],
            ["check", "cvv", "123", "--format", "json"],
            ["check", "cvv", "123", "--format=json"],
        ]
        let outputs = try placements.map { try sandbox.run($0) }
        for result in outputs {
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == outputs[0].stdout, "\(result)")
        }
        #expect(outputs[0].stdout.hasPrefix("{\"type\":\"cvv\""))
    }

    @Test func todayOptionBeatsTheEnvironment() throws {
        let sandbox = try Sandbox()
        // 12/27 lies within twelve years of 2026, not of 2040.
        let fromEnvironment = try sandbox.run(["check", "exp-date", "12/27"], environment: ["FORMULARY_TODAY": "2040-06-01"])
        #expect(fromEnvironment.status == 1, "\(fromEnvironment)")
        let option = try sandbox.run(["check", "exp-date", "12/27", "--today", "2026-11-29"],
                                     environment: ["FORMULARY_TODAY": "2040-06-01"])
        #expect(option.status == 0, "\(option)")
        let optionFirst = try sandbox.run(["--today", "2040-06-01", "check", "exp-date", "12/27"])
        #expect(optionFirst.status == 1, "\(optionFirst)")
    }

    @Test func pluginsOptionComesAfterFormularyPath() throws {
        let sandbox = try Sandbox()
        try sandbox.write("env/cvv.field", """
            field cvv
            label "Four digit code"
            secure
            mask "0000"
            accept "1234"

            """)
        try sandbox.write("opt/cvv.field", """
            field cvv
            label "Five digit code"
            secure
            mask "00000"
            accept "12345"

            """)
        let environment: [String: String?] = ["FORMULARY_PATH": sandbox.path("env")]
        #expect(try sandbox.run(["check", "cvv", "1234"], environment: environment).status == 0)
        #expect(try sandbox.run(["check", "cvv", "123"], environment: environment).status == 1)
        // --plugins wins over FORMULARY_PATH, wherever it stands.
        let option = try sandbox.run(["check", "cvv", "12345", "--plugins", "opt"], environment: environment)
        #expect(option.status == 0, "\(option)")
        #expect(try sandbox.run(["--plugins", "opt", "check", "cvv", "1234"], environment: environment).status == 1)

        let list = try sandbox.run(["types", "list", "--plugins", "opt"], environment: environment)
        let row = try #require(list.outputLines.first { $0.hasPrefix("cvv ") }, "\(list)")
        #expect(row.contains("Five digit code"), "\(row)")
        #expect(row.contains("opt"), "\(row)")
        #expect(row.contains("built-in"), "the override of the built-in is shown: \(row)")
        #expect(row.contains(sandbox.path("env")), "the override of the FORMULARY_PATH folder is shown: \(row)")
    }

    @Test func aTypeWithADecimalCommaReadsAndFormatsWithIt() throws {
        let sandbox = try Sandbox()
        try sandbox.write("types/messwert.field", """
            field messwert
            decimal-separator ","
            normalize trim
            decimal places 2
            range 0...10.5

            """)
        let plugins = ["--plugins", sandbox.path("types")]
        let good = try sandbox.run(["check", "messwert", "3,14", " 10,50 "] + plugins, environment: ["NO_COLOR": "1"])
        #expect(good.status == 0, "\(good)")
        #expect(good.outputLines == ["valid  \"3,14\"", "valid  \"10,50\""], "\(good)")
        let point = try sandbox.run(["check", "messwert", "3.14"] + plugins, environment: ["NO_COLOR": "1"])
        #expect(point.status == 1, "\(point)")
        #expect(point.stdout.contains("range: Must be a number from 0 to 10,5"), "\(point)")
    }

    @Test func dbOptionBeatsTheEnvironment() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("--db", "chosen.db", "init")
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("chosen.db")))
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath), "FORMULARY_DB was used despite --db")
        // And FORMULARY_DB is used when there is no option.
        #expect(try sandbox.run("init").status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.databasePath))
        // Without either, the database is ./formulary.db of the current folder.
        let fallback = try sandbox.run(["--format", "json", "init"], environment: ["FORMULARY_DB": nil])
        #expect(fallback.stdout.contains("\"database\":\"formulary.db\""), "\(fallback)")
    }

    @Test func emptyValuesAreAbsent() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("check", "credit-card", "", "   ")
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.allSatisfy { $0.contains("no check runs") }, "\(result)")
    }

    /// Swift repairs invalid UTF-8 in `CommandLine.arguments`; the command must refuse such
    /// a value instead of checking a different one. A shell passes the raw bytes.
    @Test func invalidUTF8ArgumentIsRefused() throws {
        let binary = try FormularyProcess.executable.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$F\" check data \"$(printf 'abc\\377')\" 2>&1"]
        process.environment = ["F": binary, "FORMULARY_PATH": "", "NO_COLOR": "1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(output)")
        #expect(output.contains("formulary: error: argument 3 is not valid UTF-8"), "\(output)")
    }
}
