/// `formulary man-page` (hidden): prints the manual page, which `make man` writes to
/// docs/formulary.1.
struct ManPageCommand: Command {
    static let spec = CommandSpec(
        path: ["man-page"],
        abstract: "Prints the manual page formulary(1) in roff, generated from the command specs.",
        discussion: """
        'make man' writes it to docs/formulary.1; read it with 'man -l docs/formulary.1'.
        The page has no date, so that the same binary always prints the same bytes.
        """,
        formats: [.text],
        examples: ["formulary man-page > docs/formulary.1"],
        isHidden: true)

    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        context.stdout.write(ManPage(specs: Formulary.specs).text)
        return .success
    }
}
