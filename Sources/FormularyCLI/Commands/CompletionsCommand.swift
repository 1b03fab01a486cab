/// `formulary completions bash|zsh|fish`: a completion script generated from the specs.
struct CompletionsCommand: Command {
    static let shell = Argument("SHELL", of: Shell.self, spelling: "bash|zsh|fish", help: "The shell to complete for.",
                                completion: .values(Shell.allValueStrings))
    static let spec = CommandSpec(
        path: ["completions"],
        abstract: "Prints a shell completion script for bash, zsh or fish.",
        discussion: """
        The script completes command and subcommand names, options, the values of options
        that take one of a few words (--by, --input, --format), file names where a command
        takes files, and type and form names where it takes those (types show NAME, check
        TYPE, forms show NAME, --form NAME…). It is generated from the same declarations as
        the parser and this help, so it matches the binary that printed it: print it again
        after an upgrade. The names of types and forms change with the database, so the
        script asks the binary for them as you type, with the --db and --plugins already on
        the command line (and FORMULARY_DB, FORMULARY_PATH).

        bash:  mkdir -p ~/.local/share/bash-completion/completions
               formulary completions bash > ~/.local/share/bash-completion/completions/formulary
               (or add 'source <(formulary completions bash)' to ~/.bashrc)
        zsh:   mkdir -p ~/.zfunc && formulary completions zsh > ~/.zfunc/_formulary, with
               'fpath=(~/.zfunc $fpath)' before 'compinit' in ~/.zshrc
        fish:  mkdir -p ~/.config/fish/completions
               formulary completions fish > ~/.config/fish/completions/formulary.fish
        """,
        arguments: [shell],
        formats: [.text],
        examples: ["formulary completions bash > ~/.local/share/bash-completion/completions/formulary",
                   "source <(formulary completions bash)"])

    let shell: Shell
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        shell = try arguments.value(Self.shell)
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let model = CompletionModel(specs: Formulary.specs)
        switch shell {
        case .bash: context.stdout.write(BashCompletions(model: model).script)
        case .zsh: context.stdout.write(ZshCompletions(model: model).script)
        case .fish: context.stdout.write(FishCompletions(model: model).script)
        }
        return .success
    }
}
