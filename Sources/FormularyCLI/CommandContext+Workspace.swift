import FormularyKit
import FormularyRules

extension CommandContext {
    /// The settings the workspace is opened with: the database, the plugin folders and
    /// the actor and the locale, resolved from options and environment.
    var workspaceSettings: WorkspaceSettings {
        WorkspaceSettings(databasePath: databasePath, pluginFolders: pluginFolders, actor: actor, locale: locale)
    }

    /// A service's failure as this process says it: the message, the details rendered as
    /// text (diagnostics with their carets, tables aligned), and the exit status.
    static func failure(_ error: ServiceError) -> CommandFailure {
        let status: ExitStatus = switch error.kind {
        case .badInput, .notFound, .conflict, .notAllowed: .badInput
        case .environment: .environment
        }
        return CommandFailure(status: status, message: error.message, details: render(error.details))
    }

    /// Details as text.
    static func render(_ details: ServiceError.Details) -> String {
        switch details {
        case .none:
            return ""
        case .text(let text):
            return text
        case .table(let rows):
            return TextTable(rows: rows).render()
        case let .diagnostics(diagnostics, lines):
            return DiagnosticDigest.render(diagnostics) + lines.map { $0 + "\n" }.joined()
        case let .digest(named, lines):
            return digest(named).render() + lines.map { $0 + "\n" }.joined()
        }
    }

    /// Diagnostics of several definitions, each shared problem said once.
    static func digest(_ named: [NamedDiagnostics]) -> DiagnosticDigest {
        var digest = DiagnosticDigest()
        for item in named { digest.add(item.diagnostics, of: item.name) }
        return digest
    }
}
