import Foundation

/// What a transaction is for, in terms every backend can honour: SQLite maps a write to
/// `BEGIN IMMEDIATE` (the write lock at once, so no upgrade can deadlock) and a read to
/// `BEGIN DEFERRED`; a server database maps them to its own isolation levels.
package enum StoreTransactionKind: Sendable {
    /// A consistent view for reading; nothing is written.
    case read
    /// The transaction writes: it takes the right to write before its first statement.
    case write
}

/// What a storage engine gives ``Store``: its schema, its transactions, and the rows of each
/// kind of record, in the domain's terms — versions, events, entries, imports, runs, results,
/// audit records — never in SQL, statements or row positions.
///
/// This is the seam between Formulary and a database. ``SQLiteBackend`` is the one in use;
/// another (PostgreSQL) implements the same requirements in its own dialect, with its own
/// migrations. What must come out the same on every backend lives above it, in ``Store``:
/// the audit chain's hashing, the data digests and their verification, what adding a version
/// or ending a run means, and how a run's verdict on an entry is derived. A backend only keeps
/// and finds rows.
///
/// A backend is one connection: used from one thread at a time, like the store that owns it.
package protocol StoreBackend: AnyObject {
    // MARK: Schema and transactions

    /// The database as the user named it (a path), for messages.
    var location: String { get }

    /// Applies the pending migrations in one transaction with their bookkeeping, then runs
    /// `afterApplying` (the data steps of ``Store/migrate(actor:)``) in it.
    func applyMigrations(now: () -> Date,
                         afterApplying: ([AppliedMigration]) throws -> Void) throws -> [AppliedMigration]

    /// Applied and pending migrations; throws when an applied one is unknown or changed.
    func migrationStatus() throws -> [MigrationStatus]

    /// The migrations this executable has for the backend (its embedded copies), in order.
    var knownMigrations: [Migration] { get }

    /// The rows of `schema_migrations` in id order, as stored: not checked against
    /// ``knownMigrations``, so that `audit verify` can name what differs instead of refusing
    /// the database. Empty for a database without any table.
    func recordedMigrations() throws -> [AppliedMigration]

    /// Whether the schema already holds what `migration` creates when it is applied after
    /// `earlier`: some object it adds or changes is there exactly as it makes it. False for
    /// a migration that creates or changes no object.
    func schemaHolds(_ migration: Migration, after earlier: [Migration]) throws -> Bool

    /// Runs `body` in a transaction (`.write` for writes, `.read` for a consistent read), or
    /// in a savepoint inside one: committed when it returns, undone when it throws.
    func transaction<T>(_ kind: StoreTransactionKind, _ body: () throws -> T) throws -> T

    /// Whether a transaction is open.
    var isInTransaction: Bool { get }

    /// Runs `body` in a read transaction that ends with a rollback: for `audit verify`, which
    /// writes nothing, on a file whose damage can fail even a read transaction's commit.
    func inspect<T>(_ body: () throws -> T) throws -> T

    // MARK: Tokens of `formulary serve`

    /// Stores a new token: its name, scope, SHA-256 (hex), when and by whom (`id` is
    /// given by the backend). The store has checked, in the same write transaction, that no
    /// unrevoked token has the name.
    func insertToken(_ token: StoredToken) throws

    /// Marks the unrevoked token `name` revoked at `at`; false when there is none.
    func revokeToken(name: String, at: String) throws -> Bool

    /// Every token, revoked ones too, oldest first.
    func tokens() throws -> [StoredToken]

    // MARK: The registry's settings

    /// Every registry setting (migration 0013: compatibility policies), by key.
    func registrySettings() throws -> [String: String]

    /// Sets `key` to `value` (nil removes it), recording when and by whom.
    func setRegistrySetting(key: String, value: String?, at: String, by actor: String) throws

    // MARK: The audit log

    /// The key data digests are made with (32 bytes).
    func auditKeyBytes() throws -> [UInt8]

    /// The head the log keeps of its newest record (`seq` 0 and 64 zeros before the first).
    func auditHead() throws -> (seq: Int64, hash: String)?

    /// The actions of the records after `seq` (each once, in no order): what changed since a
    /// head seen before.
    func auditActions(after seq: Int64) throws -> [String]

    /// A number that changes when another connection commits to the database (SQLite's
    /// `PRAGMA data_version`: read in memory, without touching the tables), or nil when the
    /// backend has none (PostgreSQL): then only reading the head tells.
    func dataVersion() throws -> Int64?

    /// Appends a record whose hashes the store computed; it must follow the head.
    func insertAuditRecord(_ record: AuditRecord) throws

    /// Records in order, from `since` (a date or time, compared as text) and by `actor`.
    func auditRecords(since: String?, actor: String?, limit: Int?) throws -> [AuditRecord]

    /// Every record in order, without holding them all.
    func forEachAuditRecord(_ body: (AuditRecord) throws -> Void) throws

    /// The newest record, if any.
    func lastAuditRecord() throws -> AuditRecord?

    /// The storage's checks of itself, for `audit verify`: its own integrity check, references
    /// between tables, and a schema that differs from the one `migrations` create on an empty
    /// database. At most `limit` lines from the integrity check.
    func storageProblems(limit: Int, schemaOf migrations: [Migration]) throws -> [AuditProblem]

    // MARK: Copying a whole registry (`copy --to`; see Store+Copy.swift)

    /// Calls `body` with each row of `table`, in the order of its ``RegistryTable/orderColumns``,
    /// streamed (never the whole table in memory), in the open transaction's snapshot. The
    /// row is valid only during the call.
    func forEachRegistryRow(_ table: RegistryTable, _ body: (any RegistryRowReading) throws -> Void) throws
    /// Whether `table` has no row.
    func registryTableIsEmpty(_ table: RegistryTable) throws -> Bool
    /// A writer of `table`'s rows, ids and all, in the open write transaction (the bulk
    /// path of the storage: PostgreSQL's COPY, one prepared statement on SQLite). The audit
    /// log's own guards still apply: its records must come in order, each following the head.
    func makeRegistryRowWriter(_ table: RegistryTable) throws -> any RegistryRowWriting
    /// Replaces the data-digest key of a database that holds no data yet with the key of the
    /// registry copied into it, in the open write transaction, going around the guards that
    /// otherwise keep the key from ever changing (and putting them back as they were, so that
    /// `audit verify` finds the schema the migrations create). The store has checked, in the
    /// same transaction, that nothing was ever digested with the old key.
    func replaceAuditKey(_ key: [UInt8]) throws

    // MARK: Type and form definitions

    /// The current (not retired) version of every type or form, by name.
    func currentVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion]
    /// The current version of one type or form, or nil when it has none (never added, or retired).
    func currentVersion(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion?
    /// Every version stored under `name`, oldest first.
    func versions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion]
    /// Every stored version of every name, in id order (what version digests are checked over).
    func allVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion]
    /// The version of `name` whose content hash is `hash`, if stored.
    func version(_ kind: DefinitionKind, name: String, hash: String) throws -> DefinitionVersion?
    /// The version with this id, if stored.
    func version(_ kind: DefinitionKind, id: Int64) throws -> DefinitionVersion?
    /// Stores a version (its `id` is ignored) and returns its id.
    func insertVersion(_ version: DefinitionVersion) throws -> Int64
    /// Sets whether a stored type version is secure (migration 4's data step).
    func setSecure(typeVersionID: Int64, _ secure: Bool) throws
    /// Stores an event (its `id` is ignored; `version` only by its id) and returns its id.
    func insertEvent(_ kind: DefinitionKind, _ event: DefinitionEvent) throws -> Int64
    /// The events (added, retired) of one name, oldest first.
    func events(_ kind: DefinitionKind, name: String) throws -> [DefinitionEvent]
    /// The event with this id, if stored.
    func event(_ kind: DefinitionKind, id: Int64) throws -> DefinitionEvent?
    /// Every event of every name, in id order.
    func allEvents(_ kind: DefinitionKind) throws -> [DefinitionEvent]
    /// Ids of the versions an event or a run refers to.
    func referencedVersionIDs(_ kind: DefinitionKind) throws -> [Int64]

    // MARK: Forms, layouts and imports

    /// The id entries of form `name` are filed under, if any.
    func formID(named name: String) throws -> Int64?
    /// Files a new form name and returns its id.
    func insertForm(named name: String) throws -> Int64
    /// Names entries are (or were) filed under, sorted.
    func formNames() throws -> [String]
    /// Whether any entry is filed under the form.
    func hasEntries(formID: Int64) throws -> Bool
    /// The id of a layout by its encoded column names (``EntryValues``), if stored.
    func layoutID(encodedFields: [UInt8]) throws -> Int64?
    /// Stores a layout (encoded column names) and returns its id.
    func insertLayout(encodedFields: [UInt8]) throws -> Int64
    /// A stored layout's encoded column names, if stored.
    func encodedLayout(id: Int64) throws -> [UInt8]?
    /// Every stored layout by id.
    func encodedLayouts() throws -> [Int64: [UInt8]]
    /// Records an import (when, who, from which file) and returns its id.
    func insertImport(formID: Int64, at: String, actor: String, source: String) throws -> Int64
    /// Every import's header by id.
    func importHeaders() throws -> [Int64: ImportHeader]
    /// The newest import's id, 0 without imports.
    func lastImportID() throws -> Int64

    // MARK: Entries

    /// A writer of one import's entries, with whatever it prepares once.
    func makeEntryRowWriter(formID: Int64, importID: Int64) throws -> any EntryRowWriting
    /// The newest version of one entry, if stored.
    func entry(id: Int64) throws -> EntryRecord?
    /// Entries in id order after `afterID` (of `form` only, when given), at most `limit`.
    func entries(form: String?, afterID: Int64, limit: Int?) throws -> [EntryRecord]
    /// How many entries there are (of `form` only, when given).
    func entryCount(form: String?) throws -> Int
    /// The earlier versions of an entry, oldest first.
    func earlierVersions(entryID: Int64) throws -> [EarlierVersionRecord]
    /// The record keys of the given entries, for those that have one.
    func entryKeys(_ ids: [Int64]) throws -> [Int64: String]
    /// Whether any entry of the form has a record key.
    func hasKeyedEntries(formID: Int64) throws -> Bool
    /// The lowest and highest entry ids (0, 0 without entries).
    func entryIDBounds() throws -> (firstID: Int64, lastID: Int64)
    /// Every stored version of every entry, earlier ones included, in (entry id, version)
    /// order, each with its values: what import digests are recomputed from.
    func forEachEntryVersion(_ body: (EntryVersionRow, UnsafeRawBufferPointer) throws -> Void) throws
    /// `count` readers that see the entries as of now, each for one thread.
    func beginEntryScans(count: Int) throws -> [any EntryScanning]
    /// Runs `body` while long-lived readers are open (the storage may defer maintenance).
    func withLongReaders<T>(_ body: () throws -> T) throws -> T

    // MARK: Validation runs

    /// Records a run as started (its `id` is ignored) and returns its id.
    func insertRun(_ run: RunRecord) throws -> Int64
    /// Records that the run judges a form with this version, up to entry `lastID`.
    func insertRunForm(runID: Int64, formID: Int64, formVersionID: Int64, lastID: Int64) throws
    /// Records which type version judged one field of a form in the run.
    func insertRunFieldType(runID: Int64, formID: Int64, field: String, typeVersionID: Int64) throws
    /// Records how a run ended, only if it is still recorded as `running`; returns whether it
    /// was (false: another process ended it first, and nothing was changed). The store
    /// decides the status and writes the audit record.
    @discardableResult
    func endRun(id: Int64, status: RunStatus, endedAt: String?, error: String?) throws -> Bool
    /// Runs recorded as running, with their processes.
    func runningRuns() throws -> [(id: Int64, process: RunProcess)]
    /// Runs newest first (only those that judged `form`), without their forms.
    func runHeaders(form: String?, limit: Int?) throws -> [RunRecord]
    /// One run without its forms, if stored.
    func runHeader(id: Int64) throws -> RunRecord?
    /// The forms a run judged, with their versions and counts.
    func runForms(runID: Int64) throws -> [RunFormRecord]
    /// Every run's id, ascending.
    func runIDs() throws -> [Int64]
    /// The newest run before `runID` that judged `form`, for comparisons.
    func previousRunID(before runID: Int64, form: String) throws -> Int64?
    /// Ids of the runs that judged entry `entryID` of form `formID`, ascending.
    func runIDs(judging entryID: Int64, formID: Int64) throws -> [Int64]
    /// The rules a run's results may point at (of `form` only, when given), in id order: the
    /// run's own and, for each form that shares another run's results, that run's rules of
    /// the form (view `run_results_all`; docs/storage.md, "Incremental runs"). A shared rule
    /// may have no result left in this run (only entries judged again had failed it).
    func rules(ofRun runID: Int64, form: String?) throws -> [RunRule]
    /// Results of a run as (entry id, entry version, rule id), by entry then rule: its own
    /// rows and the rows it shares (view `run_results_all`).
    func forEachResultRow(ofRun runID: Int64,
                          _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws
    /// The rules stored under the run itself (table `run_rules`), in id order: what its
    /// digest covers, and what its writer may reuse.
    func ownRules(ofRun runID: Int64) throws -> [RunRule]
    /// The result rows stored under the run itself (table `run_results`), by entry then rule:
    /// what its digest covers.
    func forEachOwnResultRow(ofRun runID: Int64,
                             _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws
    /// The entries of form `formID` that run `runID` judged again although they lie in the
    /// extent of the run it shares results from (table `run_rejudged`), ascending.
    func rejudgedEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64]
    /// One entry's failed rules in a run (its own or shared results).
    func results(ofRun runID: Int64, entryID: Int64) throws -> [RunResult]
    /// Entries of the form that failed an error rule in the run (own or shared results), ascending.
    func invalidEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64]
    /// The type versions that judged each field in a run (of one form, when given).
    func fieldTypes(ofRun runID: Int64, formID: Int64?) throws -> [RunFieldType]
    /// The type versions that judged each field of a form in any run.
    func fieldTypes(ofForm name: String) throws -> [RunFieldType]
    /// A writer of one run's failed rules, results and progress.
    func makeRunResultRowWriter(runID: Int64) throws -> any RunResultRowWriting

    // MARK: Incremental runs

    /// The newest run recorded as `complete` that judged form `formID` to its end, if any:
    /// the only kind of run whose results a later run may carry forward (an interrupted run
    /// judged only part of its entries).
    func latestCompleteRunID(formID: Int64) throws -> Int64?
    /// Ids of the entries of form `formID` with `id <= throughID` that an import changed after
    /// import `sinceImport` (their values are no longer the ones a run that started then
    /// judged), ascending. Must not read every entry: most entries never change.
    func changedEntryIDs(formID: Int64, throughID: Int64, sinceImport: Int64) throws -> [Int64]
    /// Carries form `formID`'s results forward from complete run `base` into run `runID`, as
    /// set operations inside the storage (no row passes through the caller), for every entry
    /// of the form with `id <= throughID` that is not among
    /// ``changedEntryIDs(formID:throughID:sinceImport:)``. No row is copied when `base`
    /// judged the form in full: `runID` then shares `base`'s rows (`shares_from`) and lists
    /// the changed entries in `run_rejudged`. When `base` itself shares another run's rows,
    /// `runID` shares that run's too, takes over `base`'s own rows of the unchanged entries
    /// (with the failed rules they use) and `base`'s rejudged entries. Records `base` and
    /// the number of entries carried on the run's form and the run (not in their counts: the
    /// caller adds those with the batch's progress), and returns the counts of the entries
    /// carried: `base`'s counts for the form minus those of the changed entries.
    func carryForward(runID: Int64, formID: Int64, fromRun base: Int64, throughID: Int64,
                      sinceImport: Int64) throws -> RunCounts

    // MARK: Runs shared between processes (`validate --join`)

    /// Whether a run may be split into chunks that other processes claim: true on a server
    /// (PostgreSQL), false on a file that one process owns (SQLite, whose other methods of
    /// this group throw ``StoreError/needsServer(_:)``).
    var sharesRuns: Bool { get }
    /// The id under which other processes may read the same entries as `scan` (one of
    /// ``beginEntryScans(count:)``'s), or nil where the storage has none.
    func sharedSnapshot(of scan: any EntryScanning) -> String?
    /// `count` readers that see the entries as the snapshot `snapshot` (from
    /// ``sharedSnapshot(of:)`` in another process) does; throws when its process no longer
    /// holds it.
    func joinEntryScans(snapshot: String, count: Int) throws -> [any EntryScanning]
    /// Records run `share.runID` as shared, with its chunks (pending, numbered from 1 in the
    /// order given). Inside the caller's write transaction.
    func insertRunShare(_ share: RunShare, chunks: [(afterID: Int64, throughID: Int64)]) throws
    /// The sharing record of a run, nil when the run is not shared.
    func runShare(runID: Int64) throws -> RunShare?
    /// Claims the first chunk of run `runID` that is pending or whose lease expired, while the
    /// run is recorded as `running`, for `worker`, with a new claim token and a lease of the
    /// run's length on the server's clock; nil when there is none. Chunks another
    /// transaction is claiming are skipped, not waited for (`FOR UPDATE SKIP LOCKED`). Runs
    /// in a transaction of its own, outside the writers' turn.
    func claimRunChunk(runID: Int64, worker: String) throws -> RunChunk?
    /// Extends the lease of a chunk this claim still holds; false when another process took
    /// it over (or the run ended).
    func renewRunChunk(runID: Int64, _ chunk: RunChunk) throws -> Bool
    /// Marks a claimed chunk done and records its counts, inside the caller's write
    /// transaction (with the chunk's results); false, and nothing changed, when the claim no
    /// longer holds it or the run is no longer `running`.
    func commitRunChunk(runID: Int64, _ chunk: RunChunk, worker: String, counts: RunCounts) throws -> Bool
    /// How far the chunks of a run are, by the server's clock.
    func runChunkTally(runID: Int64) throws -> RunChunkTally

    // MARK: Reports (aggregated and streamed by the storage; see ReportRows.swift)

    /// Each failure of a run (of form `formID` when given): entry id, version judged, rule
    /// id, key (masked when secret), value (masked when secret), whether it is masked, and
    /// `FILE:LINE`. In entry order, or in the order of the groups of `groupedBy` (worst
    /// first, then entry id). Stops when `body` returns false. `multiForm` qualifies field
    /// keys with the form.
    func forEachReportFailure(
        runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets, groupedBy: ReportGroupKey?,
        _ body: (_ entryID: Int64, _ version: Int, _ ruleID: Int64, _ key: String?, _ value: String?,
                 _ valueSecret: Bool, _ source: String?) throws -> Bool) throws
    /// The groups of a run's failures by `key`, worst first; stops when `body` returns false.
    func forEachReportGroup(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                            by key: ReportGroupKey, _ body: (ReportGroupRow) throws -> Bool) throws
    /// The `limit` most frequent non-secret values of each group by `key`, most frequent first.
    func reportTopValues(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                         by key: ReportGroupKey, limit: Int) throws -> [ReportValueCount]
    /// Failures of a run (of one form) counted by group key.
    func reportGroupCounts(runID: Int64, formID: Int64?, multiForm: Bool, by key: ReportGroupKey) throws -> [String: Int]
    /// Newly failing (`newly`) or fixed entries of a form between two runs, by id, at most
    /// `limit`; returns how many there are in all.
    @discardableResult
    func forEachComparedEntry(runID: Int64, previousRunID: Int64, formID: Int64, newly: Bool,
                              previousJudgedThrough: Int64, judgedThrough: Int64, secrets: ReportSecrets,
                              limit: Int?, _ body: (ReportEntryRow) throws -> Void) throws -> Int
    /// Ids of the entries that failed in the given runs (each for one form), ascending and
    /// distinct; only those with an error unless `includeWarningsOnly`. Stops when `body`
    /// returns false.
    func forEachFailingEntryID(runsByForm: [(runID: Int64, formID: Int64)], includeWarningsOnly: Bool,
                               _ body: (Int64) throws -> Bool) throws
}

/// An `imports` row with its form's name.
package struct ImportHeader: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, formID: Int64, form: String, at: String, actor: String, source: String) {
        self.id = id
        self.formID = formID
        self.form = form
        self.at = at
        self.actor = actor
        self.source = source
    }

    package var id: Int64
    package var formID: Int64
    package var form: String
    package var at: String
    package var actor: String
    package var source: String
}

/// An entry as stored: its values still encoded (``EntryValues``), its layout by id.
package struct EntryRecord: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, form: String, key: String?, layoutID: Int64, values: [UInt8], version: Int, createdAt: String, updatedAt: String, createdIn: Int64, updatedIn: Int64?) {
        self.id = id
        self.form = form
        self.key = key
        self.layoutID = layoutID
        self.values = values
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.createdIn = createdIn
        self.updatedIn = updatedIn
    }

    package var id: Int64
    package var form: String
    package var key: String?
    package var layoutID: Int64
    package var values: [UInt8]
    package var version: Int
    package var createdAt: String
    package var updatedAt: String
    package var createdIn: Int64
    package var updatedIn: Int64?
}

/// An earlier version of an entry as stored.
package struct EarlierVersionRecord: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(entryID: Int64, version: Int, layoutID: Int64, values: [UInt8], writtenIn: Int64, replacedIn: Int64, writtenAt: String, replacedAt: String) {
        self.entryID = entryID
        self.version = version
        self.layoutID = layoutID
        self.values = values
        self.writtenIn = writtenIn
        self.replacedIn = replacedIn
        self.writtenAt = writtenAt
        self.replacedAt = replacedAt
    }

    package var entryID: Int64
    package var version: Int
    package var layoutID: Int64
    package var values: [UInt8]
    package var writtenIn: Int64
    package var replacedIn: Int64
    /// When the imports that wrote and replaced it ran.
    package var writtenAt: String
    package var replacedAt: String
}

/// One stored version of an entry, current or earlier, as digests read it.
package struct EntryVersionRow: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(entryID: Int64, version: Int64, formID: Int64, key: String?, layoutID: Int64, writtenIn: Int64, createdOrReplacedIn: Int64, isCurrent: Bool, sourceLine: Int64? = nil) {
        self.entryID = entryID
        self.version = version
        self.formID = formID
        self.key = key
        self.layoutID = layoutID
        self.writtenIn = writtenIn
        self.createdOrReplacedIn = createdOrReplacedIn
        self.isCurrent = isCurrent
        self.sourceLine = sourceLine
    }

    package var entryID: Int64
    package var version: Int64
    package var formID: Int64
    package var key: String?
    package var layoutID: Int64
    /// The import that wrote this version.
    package var writtenIn: Int64
    /// For the current version: the import that created the entry. For an earlier one: the
    /// import that replaced it.
    package var createdOrReplacedIn: Int64
    package var isCurrent: Bool
    /// The line of the import's file on which this version's record starts (nil before
    /// migration 5, and for versions no file line wrote).
    package var sourceLine: Int64? = nil
}

/// Writes the entries of one import, as ``EntryWriter`` asks.
package protocol EntryRowWriting: AnyObject {
    /// Stores a new entry and returns its id; `line` is where its record starts in the
    /// import's file (nil when no file line wrote it).
    func insert(key: String?, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws -> Int64
    /// The entry of the form with that key: its id, layout, whether its values are `values`,
    /// and its version.
    func find(key: String, layoutID: Int64, values: UnsafeRawBufferPointer) throws
        -> (id: Int64, sameValues: Bool, version: Int)?
    /// Keeps the entry's current version in its history (replaced by this import) and stores
    /// the new values as its next version, written from `line` of the import's file.
    func replace(id: Int64, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws
}

/// Reads entries for one validation worker, from a fixed snapshot.
package protocol EntryScanning: AnyObject {
    func forEachEntry(afterID: Int64, throughID: Int64, _ body: (EntryRowView) throws -> Void) throws
    /// Ends the snapshot.
    func end()
}

/// Writes one run's failed rules, results and progress, as ``RunResultWriter`` asks.
package protocol RunResultRowWriting: AnyObject {
    /// Stores a failed rule of the run (its `id` is ignored) and returns its id.
    func insertRule(_ rule: RunRule) throws -> Int64
    /// Stores one result; a writer may hold results back until ``progress(formID:judgedThrough:counts:)``.
    /// A repeated (entry, rule) keeps the first.
    func addResult(entryID: Int64, ruleID: Int64, entryVersion: Int64) throws
    /// Writes any results held back, then moves the form's progress marker (forward only: a
    /// form whose entries up to a base run's extent were carried forward keeps that marker
    /// while the scan goes through lower ids) and adds the batch's counts to the form's and
    /// the run's.
    func progress(formID: Int64, judgedThrough: Int64, counts: RunCounts) throws
    /// From now on no result added is stored already, except repeats within one entry's
    /// rules (see ``RunResultWriter/promiseNewRows()``): the writer may skip its check for
    /// stored repeats.
    func promiseNewRows()
}

extension RunResultRowWriting {
    /// Keeps checking for repeats: correct whatever the caller promised.
    package func promiseNewRows() {}
}
