import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

/// `check` and `format` through the check service: the type reference compiled in the
/// workspace's registry, each value judged or formatted, secure values masked, and every
/// way a reference can fail said as a ``ServiceError``.
struct CheckServiceTests {
    let folder: String
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-check-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
    }

    /// A workspace without a database (`check` needs none), with the plugin folder.
    var service: CheckService {
        CheckService(workspace: Workspace(settings: WorkspaceSettings(
            databasePath: folder + "/none.db", pluginFolders: [PluginFolder(path: folder + "/plugins", origin: .option)],
            actor: "ada")))
    }

    func plugin(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/plugins/" + name))
    }

    /// The error `body` throws, which must be a service error.
    func failure(_ body: () throws -> Void) throws -> ServiceError {
        do {
            try body()
        } catch let error as ServiceError {
            return error
        }
        Issue.record("expected a ServiceError")
        throw CancellationError()
    }

    @Test func eachValueIsJudgedWithTheReferencesArguments() throws {
        let report = try service.check("age(min: 18)", values: ["17", " 42 ", ""], stage: .final, today: today)
        #expect(report.values.map(\.result.verdict) == [.invalid, .valid, .valid])
        #expect(report.values[0].result.violations.map(\.rule) == ["range"])
        #expect(report.values[0].result.violations.first?.message == "Age must be between 18 and 150")
        #expect(report.values[1].result.formatted == "42")
        #expect(report.values[2].result.isAbsent)
        #expect(report.anyInvalid)
        #expect(try !service.check("age", values: ["42"], stage: .final, today: today).anyInvalid)
    }

    @Test func aFailingValueInJSONIsTheContractsObjectOnALineOfItsOwn() throws {
        let report = try service.check("credit-card", values: ["4111 1111 1111 1112", "4111 1111 1111 1111"],
                                       stage: .final, today: today)
        let lines = String(decoding: report.jsonLines, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[0] == """
            {"type":"credit-card","value":"4111 1111 1111 1112","formatted":"4111 1111 1111 1112","mask":"visa","stage":"final",\
            "verdict":"invalid","valid":false,"violations":[{"rule":"luhn","severity":"error","message":"Card number is not valid"}]}
            """)
        #expect(lines[1].contains("\"verdict\":\"valid\",\"valid\":true,\"violations\":[]"))
        // A type whose mask has no name of its own has no "mask" member; nor a secure type.
        let plain = try service.check("exp-date", values: ["12/30"], stage: .final, today: today)
        #expect(!String(decoding: plain.jsonLines, as: UTF8.self).contains("\"mask\""))
    }

    @Test func liveJudgesPrefixes() throws {
        let report = try service.check("phone", values: ["555", "55a"], stage: .live, today: today)
        #expect(report.values.map(\.result.verdict) == [.incomplete, .invalid])
        #expect(report.values.allSatisfy { $0.stage == .live })
        #expect(String(decoding: report.jsonLines, as: UTF8.self).contains("\"stage\":\"live\",\"verdict\":\"incomplete\""))
    }

    @Test func aSecureValueNeverComesBack() throws {
        let checked = try service.check("cvv", values: ["987", "98"], stage: .final, today: today)
        #expect(checked.values.allSatisfy { $0.value == "•••" && $0.result.formatted == "•••" })
        #expect(checked.values.map(\.result.verdict) == [.valid, .invalid])
        let json = String(decoding: checked.jsonLines, as: UTF8.self)
        #expect(!json.contains("987") && !json.contains("98\""))
        let formatted = try service.format("cvv", values: ["9 8 7"], today: today)
        #expect(formatted.map(\.formatted) == ["•••"] && formatted.map(\.value) == ["•••"])
    }

    @Test func formatLaysEachValueIntoTheMaskAndKeepsWhatDoesNotFit() throws {
        let formatted = try service.format("phone", values: ["5551234567", "55512345678", ""], today: today)
        #expect(formatted.map(\.formatted) == ["(555) 123-4567", "(555) 123-45678", ""])
        #expect(String(decoding: formatted.jsonLines, as: UTF8.self) == """
            {"type":"phone","value":"5551234567","formatted":"(555) 123-4567"}
            {"type":"phone","value":"55512345678","formatted":"(555) 123-45678"}
            {"type":"phone","value":"","formatted":""}

            """)
    }

    @Test func aBrokenReferenceIsBadInputWithItsDiagnostics() throws {
        let error = try failure { _ = try service.check("age(min: ", values: ["1"], stage: .final, today: today) }
        #expect(error.kind == .badInput)
        #expect(error.message == "'age(min: ' is not a type reference")
        guard case let .diagnostics(diagnostics, lines) = error.details else {
            Issue.record("the parse errors are the details: \(error.details)")
            return
        }
        #expect(!diagnostics.isEmpty && lines.isEmpty)
        #expect(diagnostics.allSatisfy { $0.location.file == "<command line>" && $0.severity == .error })
    }

    @Test func anUnknownTypeSaysTheNearestNameAndNoCaret() throws {
        let error = try failure { _ = try service.format("emial", values: ["a@b.c"], today: today) }
        #expect(error.kind == .badInput)
        #expect(error.message.hasPrefix("unknown type 'emial'"))
        #expect(error.message.hasSuffix("did you mean 'email'?"))
        guard case .none = error.details else {
            Issue.record("the message says it in full: \(error.details)")
            return
        }
    }

    @Test func aBadArgumentKeepsItsCaret() throws {
        let error = try failure { _ = try service.check("age(mni: 3)", values: ["1"], stage: .final, today: today) }
        #expect(error.kind == .badInput)
        guard case let .diagnostics(diagnostics, _) = error.details else {
            Issue.record("an error inside the parentheses is shown with its caret: \(error.details)")
            return
        }
        #expect(diagnostics.count == 1 && diagnostics[0].location.column > 1)
        #expect(error.message == diagnostics[0].text)
    }

    @Test func aTypeWithErrorsCannotBeUsed() throws {
        try plugin("pin.field", "field pin extends no-such-base\n")
        let error = try failure { _ = try service.check("pin", values: ["1"], stage: .final, today: today) }
        #expect(error.kind == .badInput)
        #expect(error.message == "type 'pin' cannot be used")
        guard case let .diagnostics(diagnostics, _) = error.details else {
            Issue.record("the type's errors are the details: \(error.details)")
            return
        }
        #expect(diagnostics.contains { $0.location.file.hasSuffix("pin.field") })
    }
}
