import Foundation
import Testing

/// `--help` for the root, every command and every command group, and `--version`,
/// compared with the files in `Golden/`. The command list is read from the root help, so
/// a command added to the executable is covered (and fails until its golden file exists).
@Suite struct HelpGoldenTests {
    /// The command names listed under COMMANDS in `formulary --help`, e.g. "types list".
    static func listedCommands(in help: String) -> [String] {
        var names: [String] = []
        var inList = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "COMMANDS:" { inList = true; continue }
            guard inList else { continue }
            guard line.hasPrefix("  ") else { break }
            let trimmed = line.drop(while: { $0 == " " })
            // The name column ends at the first run of two spaces.
            let name = trimmed.range(of: "  ").map { String(trimmed[..<$0.lowerBound]) } ?? String(trimmed)
            names.append(name)
        }
        return names
    }

    @Test func rootHelpMatchesGoldenAndListsCommands() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("--help")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        Golden.expect(result.stdout, matches: "help.txt")
        let commands = Self.listedCommands(in: result.stdout)
        #expect(commands.contains("check"))
        #expect(commands.contains("types lint"))
        #expect(commands.count >= 10, "the parser of the command list found only \(commands)")
        // No command at all also shows the overview (like git), and exits 0.
        let bare = try sandbox.run([])
        #expect(bare.status == 0)
        #expect(bare.stdout == result.stdout)
    }

    @Test func everyCommandHelpMatchesGolden() throws {
        let sandbox = try Sandbox()
        let commands = Self.listedCommands(in: try sandbox.run("--help").stdout)
        try #require(!commands.isEmpty)
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let result = try sandbox.run(words + ["--help"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(result)")
            #expect(result.stdout.contains("USAGE: formulary \(command)"), "\(result)")
            for line in result.stdout.split(separator: "\n") {
                #expect(!line.hasSuffix(" "), "trailing space in '\(command) --help': '\(line)'")
                #expect(!line.contains("\t"), "tab in '\(command) --help': '\(line)'")
            }
            Golden.expect(result.stdout, matches: Golden.helpFileName(for: command))
        }
    }

    /// `-h`, and `--help` before the command's name, show the same page; `--help` wins over
    /// missing arguments and over a command that would need a database.
    @Test func helpWorksEverywhere() throws {
        let sandbox = try Sandbox()
        let reference = try sandbox.run("types", "lint", "--help")
        #expect(reference.status == 0)
        for arguments in [["types", "lint", "-h"], ["--help", "types", "lint"], ["types", "--help", "lint"],
                          ["--format", "json", "types", "lint", "--help"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == reference.stdout, "\(result)")
        }
        // `import` needs --form and a database; its help needs neither.
        let importHelp = try sandbox.run("import", "--help")
        #expect(importHelp.status == 0, "\(importHelp)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath), "--help created a database")
    }

    /// Groups: the first word of two-word commands that is not a command by itself.
    @Test func groupHelpMatchesGolden() throws {
        let sandbox = try Sandbox()
        let commands = Self.listedCommands(in: try sandbox.run("--help").stdout)
        let single = Set(commands.filter { !$0.contains(" ") })
        let groups = Set(commands.compactMap { $0.split(separator: " ").count == 2 ? String($0.split(separator: " ")[0]) : nil })
            .subtracting(single).sorted()
        #expect(groups.contains("types"))
        for group in groups {
            let result = try sandbox.run(group)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            for sub in commands where sub.hasPrefix(group + " ") {
                #expect(result.stdout.contains(sub), "'formulary \(group)' does not list '\(sub)'")
            }
            Golden.expect(result.stdout, matches: "help-\(group)-group.txt")
            // `formulary types --help` is the same page.
            #expect(try sandbox.run(group, "--help").stdout == result.stdout)
        }
    }

    @Test func versionMatchesGolden() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("--version")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.wholeMatch(of: /formulary \d+\.\d+\.\d+\n/) != nil, "\(result)")
        Golden.expect(result.stdout, matches: "version.txt")
        // Anywhere on the line, like --help.
        #expect(try sandbox.run("check", "--version").stdout == result.stdout)
    }

    /// A golden file whose command no longer exists is stale: it would hide the removal.
    @Test func noStaleGoldenHelpFiles() throws {
        guard !Golden.isUpdating else { return }
        let sandbox = try Sandbox()
        let help = try sandbox.run("--help").stdout
        let commands = Self.listedCommands(in: help)
        let expected = Set(commands.map(Golden.helpFileName(for:)))
        let files = try FileManager.default.contentsOfDirectory(atPath: Golden.directory.path)
        for file in files where file.hasPrefix("help-") && !file.hasSuffix("-group.txt") {
            #expect(expected.contains(file), "Golden/\(file) belongs to no command listed by 'formulary --help'; delete it")
        }
    }
}
