import FormularyRules

/// A failure of an application service, said the way the user should read it: what went
/// wrong, where, and what to do. Front ends (the CLI, a server) map ``kind`` to their own
/// status (an exit status, an HTTP status) and print ``message`` and ``details`` as they are.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is: what a caller can do about it. The CLI gives exit status
    /// 2 for every kind but ``environment`` (3); the HTTP API answers 400, 404, 409, 403 or
    /// 503 (``environment``).
    public enum Kind: Sendable, Hashable {
        /// Invalid input: a usage mistake, a bad file or plugin, a value out of range.
        case badInput
        /// What the request names does not exist: an unknown type or form, no such entry or run.
        case notFound
        /// The request clashes with what is stored: a token name in use, a key already taken.
        case conflict
        /// The request is understood but may not be done: a built-in or a plugin folder's
        /// definition changed through the database, a token that is not working revoked.
        case notAllowed
        /// The database or the environment failed.
        case environment

        /// Whether the failure is the caller's (every kind but ``environment``).
        public var isCallers: Bool { self != .environment }
    }

    /// What follows the message, on lines of their own.
    public enum Details: Sendable {
        /// Nothing.
        case none
        /// Text as it is (SQLite's own words, a list of lines).
        case text(String)
        /// An aligned table, one array of cells per row.
        case table([[String]])
        /// Diagnostics, each said in full, then extra lines (failing self-tests).
        case diagnostics([Diagnostic], lines: [String])
        /// Diagnostics of several definitions (`name`), a problem many share said once,
        /// then extra lines (failing self-tests).
        case digest([NamedDiagnostics], lines: [String])
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The line after `formulary: error: `.
    public var message: String
    /// What follows the message.
    public var details: Details

    /// A failure of `kind` saying `message`, then `details`.
    public init(_ kind: Kind, _ message: String, details: Details = .none) {
        self.kind = kind
        self.message = message
        self.details = details
    }

    /// The message (details are for the front end to render).
    public var description: String { message }
}

/// The diagnostics of one definition, by its name.
public struct NamedDiagnostics: Sendable {
    /// The type's or form's name.
    public var name: String
    /// What was found in it and its files.
    public var diagnostics: [Diagnostic]

    /// The diagnostics of `name`.
    public init(name: String, diagnostics: [Diagnostic]) {
        self.name = name
        self.diagnostics = diagnostics
    }
}

extension Array where Element == NamedDiagnostics {
    /// Whether any of the diagnostics is an error.
    public var containsErrors: Bool { contains { $0.diagnostics.containsErrors } }
    /// Whether there is no diagnostic at all.
    public var isAllEmpty: Bool { allSatisfy { $0.diagnostics.isEmpty } }
}
