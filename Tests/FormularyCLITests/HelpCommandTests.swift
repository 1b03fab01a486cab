import Foundation
import Testing

/// `formulary help [COMMAND…]` prints exactly what `--help` prints, for every command and
/// group, and refuses an unknown name as the parser does (exit 2, did you mean).
@Suite struct HelpCommandTests {
    @Test func helpOfEveryCommandIsItsHelpOption() throws {
        let sandbox = try Sandbox()
        let root = try sandbox.run("--help")
        let commands = HelpGoldenTests.listedCommands(in: root.stdout)
        #expect(commands.contains("help") && commands.contains("completions"), "\(commands)")
        for command in commands + ["man-page"] {
            let words = command.split(separator: " ").map(String.init)
            let viaOption = try sandbox.run(words + ["--help"])
            let viaCommand = try sandbox.run(["help"] + words)
            #expect(viaCommand.status == 0 && viaCommand.stderr.isEmpty, "\(viaCommand)")
            #expect(viaCommand.stdout == viaOption.stdout, "'help \(command)' differs from '\(command) --help'")
        }
        let bare = try sandbox.run("help")
        #expect(bare.status == 0 && bare.stdout == root.stdout, "\(bare)")
        // Groups: `help types` is `formulary types`.
        for group in ["types", "forms", "entries"] {
            #expect(try sandbox.run("help", group).stdout == sandbox.run(group).stdout)
        }
        // `audit` is a command and a group: its page, as `audit --help`.
        #expect(try sandbox.run("help", "audit").stdout == sandbox.run("audit", "--help").stdout)
        // Global options around it change nothing.
        #expect(try sandbox.run("--format", "json", "help", "check", "--db", "x.db").stdout
                == sandbox.run("check", "--help").stdout)
    }

    /// Like `--help`, `help` needs neither a valid "today" nor a database.
    @Test func helpWorksWhateverTheSettings() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["help", "import"], environment: ["FORMULARY_TODAY": "soon"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("OVERVIEW: Stores entries"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
    }

    @Test func helpOfAnUnknownCommandIsAUsageError() throws {
        let sandbox = try Sandbox()
        let cases: [([String], String, String)] = [
            (["help", "chek"], "unknown command 'chek'; did you mean 'check'?", "formulary --help"),
            (["help", "frobnicate"], "unknown command 'frobnicate'", "formulary --help"),
            (["help", "types", "lsit"], "unknown command 'types lsit'; did you mean 'types list'?", "formulary types --help"),
            (["help", "check", "credit-card"], "unknown command 'check credit-card'; 'check' has no subcommands",
             "formulary check --help"),
            (["help", "types", "add", "x"], "unknown command 'types add x'; 'types add' has no subcommands",
             "formulary types add --help"),
            (["help", "audit", "verfy"], "unknown command 'audit verfy'; did you mean 'audit verify'?",
             "formulary audit --help"),
        ]
        for (arguments, message, help) in cases {
            let result = try sandbox.run(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.errorLines == ["formulary: error: " + message, "See '\(help)'."], "\(result)")
        }
    }
}
