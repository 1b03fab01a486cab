import FormularyStore

// The store's domain values that the application services hand out, named in Kit so
// that a front end works with them without depending on the store (and its SQLite).
// They are plain values: reading one never touches the database.

/// The two kinds of versioned definitions: field types and forms.
public typealias DefinitionKind = FormularyStore.DefinitionKind
/// One stored version of a field type or form, identified by the SHA-256 of its source.
public typealias DefinitionVersion = FormularyStore.DefinitionVersion
/// What storing a definition did: a version made current, or nothing (already current).
public typealias AddOutcome = FormularyStore.AddOutcome
/// A recorded validation run: when, by whom, its "today", status, counts, forms.
public typealias RunRecord = FormularyStore.RunRecord
/// The counts of a validation run or of one form in it.
public typealias RunCounts = FormularyStore.RunCounts
/// One stored entry of a form: its id, key, values and version.
public typealias StoredEntry = FormularyStore.StoredEntry
/// What one validation run said of one entry: verdict, failed rules, type versions.
public typealias EntryRunVerdict = FormularyStore.EntryRunVerdict
/// One record of the audit log.
public typealias AuditRecord = FormularyStore.AuditRecord
/// What `audit verify` found: the chain, the data against the log, the database.
public typealias AuditReport = FormularyStore.AuditReport
