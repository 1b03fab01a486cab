import Foundation
import Testing

/// `formulary completions bash|zsh|fish`. bash's script is loaded into a real bash and its
/// completion function is called as bash's programmable completion calls it, with the
/// words of a command line and the cursor on the last one. zsh and fish are not on every
/// machine, so their scripts are checked for their structure and for carrying every
/// command, option and value list the specs declare (and run through `zsh -n` /
/// `fish --no-execute` where those shells exist).
@Suite struct CompletionsTests {
    /// The words after `formulary` on a command line whose last word the cursor is in
    /// (empty: after a space), and the words bash should offer, in order.
    static let bashCases: [(words: [String], offered: [String])] = [
        (["ty"], ["types"]),
        (["types", "a"], ["add"]),
        (["types", "l"], ["list", "lint"]),
        (["forms", ""], ["add", "list", "show", "judge"]),
        (["audit", ""], ["verify", "head"]),           // a command that is also a group
        (["report", "--by", ""], ["rule", "field", "type", "entry"]),
        (["report", "--by", "f"], ["field"]),
        (["report", "--by", "=", "t"], ["type"]),      // `--by=t`: bash splits at '='
        (["import", "--input", ""], ["csv", "jsonl"]),
        (["completions", ""], ["bash", "zsh", "fish"]),
        (["completions", "z"], ["zsh"]),
        (["check", "--format", ""], ["text", "json"]),  // what check offers, not every format
        (["report", "--format", ""], ["text", "json", "csv", "html"]),
        (["--format", ""], ["text", "json", "csv", "html"]),
        (["--db", "x.db", "ty"], ["types"]),           // a global option's value is skipped
        (["check", "--li"], ["--live"]),
        (["check", "--l"], ["--live", "--locale"]),
        (["report", "--f"], ["--form", "--format"]),
        (["entries", "list", "--"], ["--form", "--failing", "--limit", "--db", "--plugins", "--actor", "--today",
                                      "--locale", "--format", "--help", "--version"]),
        (["help", "types", "h"], ["history"]),
        (["help", "e"], ["entries", "export"]),
        (["types", "lint", "my-"], ["my-folder", "my-types.field"]),  // FILE...: files and folders
        (["--plugins", "my-"], ["my-folder"]),         // DIR: folders only
        (["import", "--form", "signup", "my-t"], ["my-types.field"]),
        (["report", "--run", ""], []),                 // an id: nothing to offer, not commands
        (["check", "age", ""], []),                    // a VALUE
        (["check", "age", "--", "--"], []),            // after '--', no options
        (["frobnicate", ""], []),
    ]

    static func script(_ shell: String) throws -> String {
        let result = try Sandbox().run("completions", shell)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout
    }

    @Test func bashScriptIsValidAndCompletes() throws {
        let sandbox = try Sandbox()
        try sandbox.write("formulary.bash", try Self.script("bash"))
        try sandbox.write("my-types.field", "field x\n")
        try sandbox.mkdir("my-folder")
        let syntax = try DocsExamplesTests.bash("bash -n formulary.bash", environment: [:], in: sandbox.root)
        #expect(syntax.status == 0, "bash -n: \(syntax.stderr)")

        // `c WORD…` calls the function as bash does: COMP_WORDS, COMP_CWORD, and the
        // arguments command, current word, previous word.
        var driver = """
            source ./formulary.bash
            complete -p formulary
            c() {
                COMP_WORDS=(formulary "$@"); COMP_CWORD=$#; COMPREPLY=()
                _formulary formulary "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[*]}"
            }

            """
        for (words, _) in Self.bashCases {
            driver += "c " + words.map { "'\($0)'" }.joined(separator: " ") + "\n"
        }
        let result = try DocsExamplesTests.bash(driver, environment: ["PATH": "/usr/bin:/bin"], in: sandbox.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try #require(result.stdout.count == Self.bashCases.count + 1, "\(result.stdout)")
        #expect(result.stdout[0] == "complete -F _formulary formulary")
        for (index, (words, offered)) in Self.bashCases.enumerated() {
            let got = result.stdout[index + 1].split(separator: " ").map(String.init)
            // Files come in the order the file system lists them.
            let same = words.first == "types" || words.first == "--plugins" || words.first == "import"
                ? got.sorted() == offered.sorted() : got == offered
            #expect(same, "formulary \(words.joined(separator: " "))<TAB> offered \(got), not \(offered)")
        }
    }

    /// Where a command takes a type or a form, bash offers the names the binary being
    /// completed lists for the database and plugin folders of the command line.
    @Test func bashOffersTypeAndFormNamesOfTheRegistryInUse() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("my-types/visa.field", Fixtures.visaType)
        try sandbox.write("formulary.bash", try Self.script("bash"))
        let binary = try FormularyProcess.executable.get()
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let cases: [(words: [String], offered: [String])] = [
            (["types", "show", "cre"], ["credit-card"]),
            (["types", "show", "vi"], []),                               // a folder type, no folder named
            (["--plugins", "my-types", "types", "show", "vi"], ["visa"]),
            (["types", "history", "--plugins", "=", "my-types", "vi"], ["visa"]),
            (["check", "ib"], ["iban"]),
            (["types", "test", "iban", "ib"], ["iban"]),                 // NAME...: every one
            (["forms", "show", ""], ["signup"]),
            (["import", "--form", "s"], ["signup"]),
            (["report", "--form", "=", ""], ["signup"]),
            (["validate", "--form", "signup", "--form", ""], ["signup"]),
            (["--db", "other.db", "forms", "show", ""], []),             // another database: none
            (["check", "iban", ""], []),                                 // a VALUE
        ]
        var driver = """
            source ./formulary.bash
            c() {
                COMP_WORDS=(\(quoted(binary)) "$@"); COMP_CWORD=$#; COMPREPLY=()
                _formulary formulary "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[*]}"
            }

            """
        for (words, _) in cases { driver += "c " + words.map(quoted).joined(separator: " ") + "\n" }
        let result = try DocsExamplesTests.bash(driver, environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.root.path],
                                                in: sandbox.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try #require(result.stdout.count == cases.count, "\(result.stdout)")
        for (index, (words, offered)) in cases.enumerated() {
            let got = result.stdout[index].split(separator: " ").map(String.init)
            #expect(got == offered, "formulary \(words.joined(separator: " "))<TAB> offered \(got), not \(offered)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("other.db")), "completing created a database")
    }

    /// The names come from the hidden `__complete`, which lists them one to a line.
    @Test func completeListsTheRegistrysNames() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let forms = try sandbox.run("__complete", "forms")
        #expect(forms.status == 0 && forms.stdout == "signup\n", "\(forms)")
        let types = try sandbox.run("__complete", "types")
        let names = types.stdout.split(separator: "\n").map(String.init)
        #expect(names.contains("credit-card") && names.contains("iban") && names == names.sorted(), "\(types)")
        #expect(try sandbox.run("__complete", "entries").status == 2)
        let help = try sandbox.run("--help")
        #expect(!help.stdout.contains("__complete"), "a hidden command is listed")
    }

    /// Every command word of `formulary --help` is offered after `formulary `, and every
    /// subcommand after its group: the script's tables come from the same specs as the help.
    @Test func bashOffersEveryListedCommand() throws {
        let sandbox = try Sandbox()
        let commands = HelpGoldenTests.listedCommands(in: try sandbox.run("--help").stdout)
        try sandbox.write("formulary.bash", try Self.script("bash"))
        var driver = "source ./formulary.bash\n"
        driver += #"c() { COMP_WORDS=(formulary "$@"); COMP_CWORD=$#; COMPREPLY=(); _formulary formulary "${COMP_WORDS[COMP_CWORD]}" ""; printf '%s\n' "${COMPREPLY[*]}"; }"#
        driver += "\nc ''\n"
        let groups = commands.filter { $0.contains(" ") }.map { String($0.split(separator: " ")[0]) }
        var seen: [String] = []
        for group in groups where !seen.contains(group) {
            seen.append(group)
            driver += "c \(group) ''\n"
        }
        let result = try DocsExamplesTests.bash(driver, environment: ["PATH": "/usr/bin:/bin"], in: sandbox.root)
        try #require(result.stdout.count == 1 + seen.count, "\(result)")
        var firstWords: [String] = []
        for command in commands where !firstWords.contains(String(command.split(separator: " ")[0])) {
            firstWords.append(String(command.split(separator: " ")[0]))
        }
        #expect(result.stdout[0] == firstWords.joined(separator: " "))
        #expect(!result.stdout[0].contains("man-page"), "a hidden command is offered")
        for (index, group) in seen.enumerated() {
            let subs = commands.filter { $0.hasPrefix(group + " ") }.map { String($0.dropFirst(group.count + 1)) }
            #expect(result.stdout[index + 1] == subs.joined(separator: " "), "after '\(group)'")
        }
    }

    @Test func zshScriptHasEveryCommandOptionAndValue() throws {
        let text = try Self.script("zsh")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "#compdef formulary")
        #expect(text.contains("compdef _formulary formulary"))
        #expect(text.contains("_formulary \"$@\""), "autoloaded from fpath, the file must call the function")
        for (open, close) in [("case ", "esac"), ("if ", "fi"), ("for ", "done")] {
            let opened = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(open) }.count
            let closed = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(close) }.count
            #expect(opened == closed && opened > 0, "\(open)… \(opened) times, \(close) \(closed) times")
        }
        #expect(text.filter { $0 == "{" }.count == text.filter { $0 == "}" }.count)
        Self.expectBalancedQuotes(lines, escapesInsideQuotes: false)
        Self.expectDescribes(text, quote: { "'\($0):" })
        #expect(text.contains("'report|--by') compadd -- 'rule' 'field' 'type' 'entry' ;;"))
        #expect(text.contains("'import|--input') compadd -- 'csv' 'jsonl' ;;"))
        #expect(text.contains("'check|--format') compadd -- 'text' 'json' ;;"))
        #expect(text.contains("*'|--plugins') _files -/ ;;"))
        #expect(text.contains("'types lint')\n            (( $1 >= 0 )) && _files ;;"))
        try Self.checkSyntax(text, shell: "zsh", arguments: ["-n"])
    }

    @Test func fishScriptHasEveryCommandOptionAndValue() throws {
        let text = try Self.script("fish")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(text.contains("complete -c formulary -f -a '(__formulary_complete)'"))
        let openers = ["function ", "if ", "for ", "switch ", "while ", "begin"]
        let opened = lines.filter { line in openers.contains { line.trimmingCharacters(in: .whitespaces).hasPrefix($0) } }.count
        let closed = lines.filter { $0.trimmingCharacters(in: .whitespaces) == "end" }.count
        #expect(opened == closed && opened > 0, "\(opened) blocks opened, \(closed) ended")
        Self.expectBalancedQuotes(lines, escapesInsideQuotes: true)
        Self.expectDescribes(text, quote: { "'\($0)'\\t'" })
        #expect(text.contains("case 'report|--by'\n                    printf '%s\\n' \"$prefix\"'rule' \"$prefix\"'field' \"$prefix\"'type' \"$prefix\"'entry'"))
        #expect(text.contains("case 'check|--format'\n                    printf '%s\\n' \"$prefix\"'text' \"$prefix\"'json'\n"))
        #expect(text.contains("case '*|--plugins'\n                    printf '%s\\n' \"$prefix\"(__fish_complete_directories $value)"))
        try Self.checkSyntax(text, shell: "fish", arguments: ["--no-execute"])
    }

    /// Every command, subcommand and option of the help appears with its help line.
    static func expectDescribes(_ script: String, quote: (String) -> String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        guard let help = try? Sandbox().run("--help").stdout else { return }
        for command in HelpGoldenTests.listedCommands(in: help) {
            #expect(script.contains(quote(String(command.split(separator: " ").last!))), "\(command)",
                    sourceLocation: sourceLocation)
        }
        for option in ["--live", "--add-types", "--skip-bad", "--failing", "--status", "--since", "--head", "--by", "--db",
                       "--plugins", "--version"] {
            #expect(script.contains(quote(option)), "\(option)", sourceLocation: sourceLocation)
        }
        #expect(!script.contains("man-page"), "a hidden command is offered", sourceLocation: sourceLocation)
    }

    /// On every line, single quotes open and close (no string runs over a line in these
    /// scripts). A backslash outside quotes escapes the next character; inside them it
    /// does in fish (`\'`), not in zsh (where `'\''` writes a quote).
    static func expectBalancedQuotes(_ lines: [String], escapesInsideQuotes: Bool,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        for (number, line) in lines.enumerated() where !line.hasPrefix("#") {
            var inside = false, escaped = false
            for c in line {
                if escaped { escaped = false; continue }
                if c == "\\" && (!inside || escapesInsideQuotes) { escaped = true; continue }
                if c == "'" { inside.toggle() }
            }
            #expect(!inside, "line \(number + 1) leaves a quote open: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// Runs the shell's own syntax check when the shell is installed (it is not on every
    /// machine; the structural checks above stand for it there).
    static func checkSyntax(_ text: String, shell: String, arguments: [String]) throws {
        guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile) else {
            return
        }
        let sandbox = try Sandbox()
        try sandbox.write("script", text)
        let result = try DocsExamplesTests.bash("\(path) \(arguments.joined(separator: " ")) script", environment: [:],
                                                in: sandbox.root)
        #expect(result.status == 0, "\(shell) \(arguments): \(result.stderr)")
    }
}
