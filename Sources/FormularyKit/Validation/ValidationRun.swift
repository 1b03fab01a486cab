import Foundation
import FormularyRules
import FormularyStore

/// What a validation run judges and how.
@usableFromInline package struct ValidationOptions: Sendable {
    /// Forms to judge; nil: every form with entries.
    package var forms: [String]?
    /// The date that date checks use.
    package var today: CivilDate
    /// Who runs it, for the run record and the audit log.
    package var actor: String
    /// Entries per committed batch (approximately: batches are id ranges).
    package var batchSize: Int
    /// Threads that read and judge entries; the calling thread writes the results.
    package var workers: Int
    /// Whether workers remember how short values screened (``ScreeningMemo``) instead of
    /// judging a repeated value again. The verdicts are the same either way; off, every
    /// value is judged (the benchmark measures both).
    package var rememberValues: Bool
    /// Whether a form's unchanged entries may have their results carried forward from the
    /// form's last complete run (see docs/storage.md, "Incremental runs"); false judges every
    /// entry (`validate --all`). The results are the same either way.
    package var carryForward: Bool
    /// On a store that shares runs (PostgreSQL): entry ids per chunk that a process claims
    /// (`validate --join`; see docs/scale-out.md, "Running N validators").
    package var chunkSize: Int
    /// On a store that shares runs: how long a claim on a chunk lasts unless renewed, in
    /// seconds; a process that dies leaves its chunk to others after this long.
    package var leaseSeconds: Double
    /// The locale the registry's types were compiled in, recorded with the run (its
    /// messages are in it); nil for the types' own texts.
    package var locale: String?

    /// The chunk size of a shared run: at a million entries, 20 chunks, so that several
    /// processes find work and a chunk lost with a process costs little.
    @usableFromInline package static let defaultChunkSize = 50_000
    /// A claim's lease: renewed every third of it while the chunk is judged.
    @usableFromInline package static let defaultLeaseSeconds: Double = 60

    /// Options for a run; by default one worker per processor, the value memo on, and
    /// unchanged entries carried forward.
    package init(forms: [String]? = nil, today: CivilDate, actor: String, batchSize: Int = 20_000,
                workers: Int = ProcessInfo.processInfo.activeProcessorCount, rememberValues: Bool = true,
                carryForward: Bool = true, chunkSize: Int = ValidationOptions.defaultChunkSize,
                leaseSeconds: Double = ValidationOptions.defaultLeaseSeconds) {
        self.chunkSize = max(1, chunkSize)
        self.leaseSeconds = leaseSeconds > 0 ? leaseSeconds : ValidationOptions.defaultLeaseSeconds
        self.forms = forms
        self.today = today
        self.actor = actor
        self.batchSize = max(1, batchSize)
        self.workers = max(1, workers)
        self.rememberValues = rememberValues
        self.carryForward = carryForward
    }
}

/// How far a run has got, for progress displays.
public struct ValidationProgress: Sendable {
    /// Entries checked so far (judged or carried forward).
    public var entriesChecked: Int
    /// The part of the id space gone through, 0...1.
    public var fraction: Double
}

/// A form or type that stands in the way of a run; nothing was written.
package enum ValidationSetupError: Error, Sendable, CustomStringConvertible {
    case unknownForm(String, suggestion: String?)
    case formHasErrors(String, [Diagnostic])
    case entriesWithoutForm([String])

    /// What stands in the way, and what to do about it.
    package var description: String {
        switch self {
        case let .unknownForm(name, suggestion):
            "unknown form '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case let .formHasErrors(name, _):
            "form '\(name)' cannot be used"
        case .entriesWithoutForm(let names):
            "entries are filed under \(names.count == 1 ? "a form" : "forms") that no source defines: "
                + names.map { "'\($0)'" }.joined(separator: ", ")
                + "; add \(names.count == 1 ? "it" : "them") with 'formulary forms add' or --plugins, or name the forms to validate with --form"
        }
    }

    /// The form's problems, for ``formHasErrors``; otherwise none.
    package var diagnostics: [Diagnostic] {
        if case .formHasErrors(_, let d) = self { return d }
        return []
    }
}

/// One batch validation run: checks every stored entry of the chosen forms and records the run
/// (see docs/storage.md, "Validation runs").
///
/// A form whose last complete run still applies (same form and type versions; see
/// ``carryPlan(_:judge:index:messages:formVersionID:typeVersionIDs:)``) has that run's results copied
/// for its unchanged entries in a first batch, its changed entries judged by id in the same
/// batch; the scan then starts after that run's extent (docs/storage.md, "Incremental runs").
///
/// The work is split into id ranges of about ``ValidationOptions/batchSize`` entries. Worker
/// threads, each with its own read connection, claim ranges in order, read the encoded rows
/// straight from SQLite's buffers and judge them; the calling thread writes each range's
/// failures, progress marker and counts in one transaction, in range order, so that the
/// committed part of a run is always a prefix of the id space. Every reader starts its
/// snapshot while the run holds the write lock, so all of them see the same entries.
///
/// When anything fails mid-run the committed batches stay, the run is marked incomplete, and
/// the error is rethrown. A killed run stays `running` in the database and reads as
/// incomplete (``RunProcess``); the next run marks it so.
package final class ValidationRun {
    package let store: Store
    package let registry: Registry
    package let options: ValidationOptions
    /// Called on the calling thread after each committed batch.
    package var progress: ((ValidationProgress) -> Void)?
    /// On a store that shares runs: called once the run's chunks are recorded, with the run's
    /// id, before this process judges any (so that others can join it).
    package var shared: ((Int64) -> Void)?

    package init(store: Store, registry: Registry, options: ValidationOptions) {
        self.store = store
        self.registry = registry
        self.options = options
    }

    /// A form prepared for the run.
    struct PreparedForm {
        var name: String
        var definition: FormDefinition
        var origin: String
        var types: [CompiledFieldType]
        var typeVersions: [(field: String, name: String, source: String, origin: String)]
        /// Whether a field is masked because an earlier version of its type was `secure`
        /// (``masked(_:today:form:)``): its messages may differ from an earlier run's.
        var maskedByHistory = false
        /// The fields judged with a masked type whose recorded version is not `secure`.
        var maskedFields: Set<String> = []
    }

    /// The digest of the translations this run's messages come from (``LocaleMessages/canonicalText``),
    /// recorded with it; nil without a locale (the types' own texts, which their versions cover).
    var messagesDigest: String? {
        guard options.locale != nil else { return nil }
        return SHA256.hex(registry.messages?.canonicalText ?? "")
    }

    /// Runs the validation and returns the finished run as recorded.
    package func run() throws -> FormularyStore.RunRecord {
        let prepared = try prepareForms()
        let messages = messagesDigest   // once: it hashes every translation of the locale
        try store.abandonDeadRuns(actor: options.actor)

        var judges: [FormJudge] = []
        var chunks: [Chunk] = []
        var carries: [CarryPlan] = []
        let runID: Int64
        var snapshots: [EntrySnapshot] = []
        var bounds: (firstID: Int64, lastID: Int64) = (0, 0)
        do {
            runID = try store.transaction {
                // The snapshots begin while this connection holds the write lock, so that they
                // and the run's own bookkeeping see the same entries and imports.
                snapshots = try store.beginEntrySnapshots(count: options.workers)
                let layouts = try store.entryLayouts()
                let run = try store.insertRun(actor: options.actor, today: options.today.description,
                                              locale: options.locale, messages: messages)
                bounds = try store.entryIDBounds()
                for form in prepared {
                    let formID = try store.ensureFormID(named: form.name)
                    let formVersion = try store.recordVersion(.form, name: form.name, source: form.definition.canonicalSource,
                                                              origin: form.origin, actor: options.actor)
                    try store.insertRunForm(runID: run.id, formID: formID, formVersionID: formVersion.id,
                                            lastID: bounds.lastID)
                    var typeVersionIDs: [String: Int64] = [:]
                    for t in form.typeVersions {
                        let version = try store.recordVersion(.type, name: t.name, source: t.source,
                                                              origin: t.origin, actor: options.actor)
                        try store.insertRunFieldType(runID: run.id, formID: formID, field: t.field,
                                                     typeVersionID: version.id)
                        typeVersionIDs[t.field] = version.id
                    }
                    let judge = FormJudge(formID: formID, form: registry.localized(form.definition), types: form.types,
                                          layouts: layouts,
                                          tuned: bounds.lastID - bounds.firstID >= FormJudge.tuningThreshold)
                    if let carry = try carryPlan(form, judge: judge, index: judges.count, messages: messages,
                                                 formVersionID: formVersion.id, typeVersionIDs: typeVersionIDs) {
                        carries.append(carry)
                    }
                    judges.append(judge)
                }
                // Entries up to the lowest base run's extent are carried or judged by id;
                // the scan starts after them (at the first entry when a form is judged in full).
                var carriedThrough = [Int64](repeating: 0, count: judges.count)
                for carry in carries { carriedThrough[carry.judge] = carry.throughID }
                chunks = Self.chunks(bounds, batchSize: options.batchSize,
                                     startingAfter: carriedThrough.min() ?? 0, taperingFor: options.workers)
                try store.recordRunStart(id: run.id, actor: options.actor)
                return run.id
            }
        } catch {
            for snapshot in snapshots { snapshot.end() }
            throw error
        }

        let written: WrittenResults
        do {
            // The snapshots stay open for the whole run: checkpoint once, after they are gone.
            if store.sharesRuns {
                defer { for snapshot in snapshots { snapshot.end() } }
                // Ended inside: the last chunk is only known done there.
                try runShared(runID: runID, prepared: prepared, judges: judges, carries: carries, bounds: bounds,
                              snapshots: snapshots)
                guard let record = try store.run(id: runID) else { throw StoreError.corrupt("run \(runID) is missing") }
                return record
            }
            written = try store.withCheckpointsDeferred {
                defer { for snapshot in snapshots { snapshot.end() } }
                return try judgeAndRecord(runID: runID, judges: judges, carries: carries, chunks: chunks,
                                          snapshots: snapshots)
            }
        } catch {
            try? store.finishRun(id: runID, status: .incomplete, error: "\(error)", actor: options.actor)
            throw error
        }
        try store.finishRun(id: runID, status: .complete, error: nil, actor: options.actor, written: written)
        guard let record = try store.run(id: runID) else { throw StoreError.corrupt("run \(runID) is missing") }
        return record
    }

    // MARK: Preparation

    func prepareForms() throws -> [PreparedForm] {
        let names: [String]
        if let forms = options.forms {
            names = Array(NSOrderedSet(array: forms).array as! [String])
        } else {
            let withEntries = try store.formNamesWithEntries().filter { try store.hasEntries(form: $0) }
            let undefined = withEntries.filter { registry.forms[$0]?.form == nil }
            if !undefined.isEmpty { throw ValidationSetupError.entriesWithoutForm(undefined) }
            names = withEntries
        }
        let secureFields = SecureFields(store: store, registry: registry)
        return try names.map { name in
            guard let entry = registry.forms[name] else {
                throw ValidationSetupError.unknownForm(name, suggestion: Suggestion.nearest(to: name, in: registry.forms.keys.sorted()))
            }
            let problems = registry.lint(form: name).filter { $0.severity == .error }
            guard problems.isEmpty, let form = entry.form else {
                throw ValidationSetupError.formHasErrors(name, registry.lint(form: name))
            }
            var types: [CompiledFieldType] = []
            var versions: [(field: String, name: String, source: String, origin: String)] = []
            var maskedByHistory = false
            var maskedFields: Set<String> = []
            let secure = try secureFields.of(form: name)
            for field in form.fields {
                switch registry.compile(field.type, today: options.today, source: entry.text) {
                case .failure(let problems):
                    throw ValidationSetupError.formHasErrors(name, problems.diagnostics)
                case .success(let type):
                    types.append(secure.contains(field.key) ? try Self.masked(type, today: options.today, form: name) : type)
                    if secure.contains(field.key) && !type.definition.secure {
                        maskedByHistory = true
                        maskedFields.insert(field.key)
                    }
                    let origin = registry.type(named: field.type.name).map { Self.origin($0.source) } ?? "builtin"
                    // The version recorded is the type as it is, masked or not, and in its own
                    // words: the compiled one carries the locale's (the run records the locale).
                    var source = type.definition.canonicalSource
                    if case .success(let own)? = registry.definition(named: field.type.name) { source = own.canonicalSource }
                    versions.append((field.key, field.type.name, source, origin))
                }
            }
            return PreparedForm(name: name, definition: form, origin: Self.origin(entry.source),
                                types: types, typeVersions: versions, maskedByHistory: maskedByHistory,
                                maskedFields: maskedFields)
        }
    }

    /// The type compiled as `secure`, whatever its definition says: a field whose values are
    /// secret by ``SecureFields`` (say the built-in `cvv` judged it before, and a plugin
    /// folder now redefines `cvv` without `secure`) gets messages with `{value}` shown as
    /// `•••`, so that the run stores no secret in its results.
    static func masked(_ type: CompiledFieldType, today: CivilDate, form: String) throws -> CompiledFieldType {
        guard !type.definition.secure else { return type }
        var definition = type.definition
        definition.secure = true
        // The definition and arguments that compiled a moment ago: this compiles too. Should
        // it not, the run stops rather than judge with the unmasked type.
        let (compiled, diagnostics) = FieldCompiler.compile(definition, arguments: type.arguments, today: today)
        guard let compiled else { throw ValidationSetupError.formHasErrors(form, diagnostics) }
        return compiled
    }

    /// How a version's origin is recorded: `builtin`, `database`, `folder:PATH`.
    static func origin(_ source: TypeSource) -> String {
        switch source {
        case .builtin: "builtin"
        case .database: "database"
        case .folder(let folder): "folder:\(folder.path)"
        }
    }

    /// Splits the id span into ranges of `batchSize` ids. Entries are read in one pass in id
    /// order, every chosen form at once: a rowid range scan is SQLite's fastest read, and a
    /// form's entries need no index of their own.
    /// With `startingAfter`, ids up to it are left out (every form's entries up to there are
    /// carried forward or judged by id).
    ///
    /// With `taperingFor` workers (more than one), the last ranges shrink: each is about a
    /// `2 × workers`-th of the ids left, down to a sixteenth of `batchSize`. Workers take the
    /// next range as they finish one, so with equal ranges one could start the last while the
    /// others had nothing left, and the writer's last batch waited for it: at 1M entries, up
    /// to a range's time (a worker's 1/25) of the run's wall time went to one core.
    static func chunks(_ bounds: (firstID: Int64, lastID: Int64), batchSize: Int,
                       startingAfter: Int64 = 0, taperingFor workers: Int = 1) -> [Chunk] {
        guard bounds.lastID > 0 else { return [] }
        var out: [Chunk] = []
        var after = max(bounds.firstID - 1, startingAfter)
        let smallest = Int64(max(batchSize / 16, 1))
        while after < bounds.lastID {
            var size = Int64(batchSize)
            if workers > 1 {
                size = min(size, max((bounds.lastID - after) / Int64(2 * workers), smallest))
            }
            let through = min(bounds.lastID, after + size)
            out.append(Chunk(afterID: after, throughID: through, fraction: 0))
            after = through
        }
        // By ids, not by count: tapered ranges are not equal.
        let start = out.first?.afterID ?? 0, span = Double(max(bounds.lastID - start, 1))
        for i in out.indices { out[i].fraction = Double(out[i].throughID - start) / span }
        return out
    }
}

/// A range of entry ids: `afterID < id <= throughID`.
struct Chunk: Sendable {
    var afterID: Int64
    var throughID: Int64
    /// The part of the run done once this range is written.
    var fraction: Double
}
