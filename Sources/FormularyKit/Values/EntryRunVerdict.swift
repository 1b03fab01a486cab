import FormularyRules
import FormularyStore

/// How one validation run judged one entry: a line of `history ENTRY`.
public struct EntryRunVerdict: Sendable, Hashable {
    /// The run.
    public var run: RunRecord
    /// The entry judged.
    public var entryID: Int64
    /// The entry version judged.
    public var entryVersion: Int
    /// Whether that version is still the entry's current one.
    public var isCurrentVersion: Bool
    /// The verdict the run gave it.
    public var verdict: EntryVerdict
    /// The failed rules (empty for a valid entry).
    public var results: [RunResult]
    /// The type versions that judged the entry's form's fields in this run.
    public var types: [RunFieldType]

    package init(_ stored: FormularyStore.EntryRunVerdict) {
        run = RunRecord(stored.run)
        entryID = stored.entryID
        entryVersion = stored.entryVersion
        isCurrentVersion = stored.isCurrentVersion
        verdict = stored.verdict
        results = stored.results.map(RunResult.init)
        types = stored.types.map(RunFieldType.init)
    }
}

/// One failed rule of one entry in one validation run.
public struct RunResult: Sendable, Hashable {
    /// The run.
    public var runID: Int64
    /// The entry.
    public var entryID: Int64
    /// The entry version that was judged.
    public var entryVersion: Int
    /// The rule that failed.
    public var rule: RunRule

    package init(_ stored: FormularyStore.RunResult) {
        runID = stored.runID
        entryID = stored.entryID
        entryVersion = stored.entryVersion
        rule = RunRule(stored.rule)
    }
}

/// A rule that failed in a validation run: where, and what it said.
public struct RunRule: Sendable, Hashable {
    /// The form it belongs to.
    public var form: String
    /// The field it concerns; nil for a rule of the whole entry.
    public var field: String?
    /// The field's type; nil for cross-field rules and `unknown-field`.
    public var type: String?
    /// The rule's name (`luhn`, `required`, a `same` rule's `as` name…).
    public var rule: String
    /// Error or warning.
    public var severity: Severity
    /// The engine's message; never holds a secure value.
    public var message: String

    package init(_ stored: FormularyStore.RunRule) {
        form = stored.form
        field = stored.field
        type = stored.type
        rule = stored.rule
        severity = stored.severity
        message = stored.message
    }
}

/// The type version that judged a field in a validation run.
public struct RunFieldType: Sendable, Hashable {
    /// The field's key.
    public var field: String
    /// The type version.
    public var version: DefinitionVersion

    package init(_ stored: FormularyStore.RunFieldType) {
        field = stored.field
        version = DefinitionVersion(stored.version)
    }
}
