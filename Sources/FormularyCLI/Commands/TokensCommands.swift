import FormularyKit

extension TokenScope: ExpressibleByArgument {
    static var noun: String { "a scope" }
}

/// `formulary tokens add NAME --scope read|submit|admin`
struct TokensAddCommand: Command {
    static let scope = Option("scope", "SCOPE", of: TokenScope.self, help: "read, submit or admin.", required: true)
    static let name = Argument("NAME", help: "The token's name, e.g. web-frontend.")
    static let spec = CommandSpec(
        path: ["tokens", "add"],
        abstract: "Makes a token for 'formulary serve' and prints it once (audited).",
        discussion: """
        Prints a new token for clients to send as 'Authorization: Bearer TOKEN'. It is shown
        this once: the database keeps only its SHA-256. --scope says what it may do: read
        the registry (read), also post entries (submit), or also add types and forms
        (admin). NAME (letters, digits, '.', '_', '-') is how 'tokens list', 'tokens revoke'
        and the server's access log name it. --format json prints {"name","scope","token"}.
        """,
        options: [scope],
        arguments: [name],
        examples: ["formulary tokens add web-frontend --scope read", "formulary tokens add ci --scope admin --format json"])

    let name: String
    let scope: TokenScope
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        scope = try arguments.value(Self.scope) ?? .read
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let made = try TokenService(workspace: context.workspace).add(name: name, scope: scope)
        if format == .json {
            context.stdout.write(bytes: made.jsonDocument)
        } else {
            context.stdout.line(made.token)
            context.stderr.line("Token '\(made.name)' (\(made.scope.rawValue)) made; it is shown only this once.")
        }
        return .success
    }
}

/// `formulary tokens list`
struct TokensListCommand: Command {
    static let spec = CommandSpec(
        path: ["tokens", "list"],
        abstract: "Lists the tokens of 'formulary serve': name, scope, made when and by whom, revoked.",
        discussion: """
        Every token, revoked ones too, oldest first; never a token or its hash.
        --format json prints [{"name","scope","created_at","created_by","revoked_at"}].
        """,
        examples: ["formulary tokens list"])

    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let tokens = try TokenService(workspace: context.workspace).list()
        if format == .json {
            context.stdout.write(bytes: tokens.jsonDocument)
            return .success
        }
        if tokens.isEmpty {
            context.stdout.line("No token yet; make one with 'formulary tokens add NAME --scope read'.")
            return .success
        }
        let rows = tokens.map { [$0.name, $0.scope, $0.createdAt, $0.createdBy, $0.revokedAt ?? "-"] }
        context.stdout.write(TextTable(header: ["NAME", "SCOPE", "CREATED", "BY", "REVOKED"], rows: rows).render())
        return .success
    }
}

/// `formulary tokens revoke NAME`
struct TokensRevokeCommand: Command {
    static let name = Argument("NAME", help: "The name of a working token.")
    static let spec = CommandSpec(
        path: ["tokens", "revoke"],
        abstract: "Revokes a token of 'formulary serve' at once (audited).",
        discussion: """
        The token stops working on the next request to every server of this database. Its
        row stays (listed as revoked), and its name may be given to a new token.
        """,
        arguments: [name],
        examples: ["formulary tokens revoke web-frontend"])

    let name: String
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        name = try arguments.value(Self.name)
        self.context = context
    }

    func run() throws -> ExitStatus {
        try TokenService(workspace: context.workspace).revoke(name: name)
        context.stdout.line("Token '\(name)' revoked.")
        return .success
    }
}
