import FormularyJSON
import FormularyRules
import FormularyStore

/// Batch validation of stored entries (`validate`), recorded as a validation run.
public struct ValidationService {
    let workspace: Workspace

    /// The service for `workspace`'s database and registry.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// A recorded run and how long it took.
    public struct Outcome: JSONObjectRepresentable, Sendable {
        /// The run as recorded: status, counts, forms and their versions.
        public var run: RunRecord
        /// The time the validation took, in seconds.
        public var seconds: Double
        /// `--max-failing`, when given.
        public var threshold: FailureThreshold? = nil

        /// Whether the run fails (exit status 1): without a threshold, when any entry is
        /// invalid; with one, only when more than its share of the entries checked (carried
        /// forward ones included) is invalid. Warnings never fail a run.
        public var failed: Bool {
            guard let threshold else { return run.counts.entriesInvalid > 0 }
            return threshold.isExceeded(by: run.counts)
        }

        /// The runs the results were carried forward from, ascending.
        public var carriedFrom: [Int64] {
            Array(Set(run.forms.compactMap(\.carriedFrom))).sorted()
        }

        /// `{"run", "status", "started_at", "ended_at", "actor", "today", "locale", counts…,
        /// "entries_judged", "entries_carried", "forms": [{"form", "form_version", counts…,
        /// "entries_judged", "entries_carried", "carried_from"}]}`: of `entries_checked`, how
        /// many the run judged and how many it carried forward (from run `carried_from`, null
        /// when the form was judged in full).
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("run", Int(run.id))
            o.field("status", run.status.rawValue)
            o.field("started_at", run.startedAt)
            if let end = run.endedAt { o.field("ended_at", end) } else { o.nullField("ended_at") }
            o.field("actor", run.actor)
            o.field("today", run.today)
            if let locale = run.locale { o.field("locale", locale) } else { o.nullField("locale") }
            Self.write(run.counts, into: &o)
            o.field("entries_judged", run.entriesJudged)
            o.field("entries_carried", run.entriesCarried)
            if let threshold {
                o.field("max_failing", JSONValue.number(threshold.description))
                o.field("max_failing_exceeded", threshold.isExceeded(by: run.counts))
            }
            o.array("forms") { a in
                for f in run.forms {
                    a.object { fo in
                        fo.field("form", f.form)
                        fo.field("form_version", f.formVersionHash)
                        Self.write(f.counts, into: &fo)
                        fo.field("entries_judged", f.entriesJudged)
                        fo.field("entries_carried", f.entriesCarried)
                        if let from = f.carriedFrom { fo.field("carried_from", Int(from)) } else { fo.nullField("carried_from") }
                    }
                }
            }
        }

        static func write(_ counts: RunCounts, into o: inout JSONObjectWriter) {
            o.field("entries_checked", counts.entriesChecked)
            o.field("entries_valid", counts.entriesValid)
            o.field("entries_invalid", counts.entriesInvalid)
            o.field("entries_warned", counts.entriesWarned)
            o.field("errors", counts.errors)
            o.field("warnings", counts.warnings)
        }
    }

    /// Checks every stored entry of `forms` (of every form with entries when nil) as of
    /// `today`, and records the run, its counts and every failed rule. A form's entries that
    /// did not change since its last complete run keep that run's results (carried forward,
    /// see ``ValidationOptions/carryForward``) unless `all` is true; the results are the same
    /// either way. `maxFailing` decides ``Outcome/failed``. `progress`, when given, is called as batches complete.
    ///
    /// - Throws: a ``ServiceError`` (bad input, nothing validated) when a form cannot be
    ///   used, with its diagnostics.
    ///
    /// On PostgreSQL the run is shared: `shared` is called with its id as soon as other
    /// processes can join it (``join(runID:progress:)``), with chunks of `chunkSize` entry ids
    /// whose claims last `leaseSeconds` (docs/scale-out.md, "Running N validators").
    public func run(forms: [String]?, today: CivilDate, all: Bool = false, maxFailing: FailureThreshold? = nil,
                    chunkSize: Int = ValidationOptions.defaultChunkSize,
                    leaseSeconds: Double = ValidationOptions.defaultLeaseSeconds,
                    shared: ((Int64) -> Void)? = nil,
                    progress: ((ValidationProgress) -> Void)? = nil) throws -> Outcome {
        let store = try workspace.store(.write)
        let registry = try workspace.registry(store: store)
        var options = ValidationOptions(forms: forms, today: today, actor: workspace.settings.actor, carryForward: !all,
                                        chunkSize: chunkSize, leaseSeconds: leaseSeconds)
        options.locale = registry.locale
        let validation = ValidationRun(store: store, registry: registry, options: options)
        validation.progress = progress
        validation.shared = shared
        let clock = ContinuousClock()
        let started = clock.now
        let run: RunRecord
        do {
            run = RunRecord(try validation.run())
        } catch let error as ValidationSetupError {
            throw ServiceError(.badInput, error.description + "; nothing was validated",
                               details: .diagnostics(error.diagnostics, lines: []))
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Outcome(run: run, seconds: seconds, threshold: maxFailing)
    }

    /// What `validate --join` did for another process's run.
    public struct JoinOutcome: JSONObjectRepresentable, Sendable {
        /// The run joined.
        public var runID: Int64
        /// Chunks and entries this process judged and committed, and chunks it lost.
        public var done: SharedWorkDone
        /// The run's status when this process left: `running` while the starter (or another
        /// joiner) still works on it; the starter ends it.
        public var status: RunStatus
        /// The time this process worked, in seconds.
        public var seconds: Double

        /// `{"run", "joined": true, "chunks", "entries_checked", "chunks_lost", "status"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("run", Int(runID))
            o.field("joined", true)
            o.field("chunks", done.chunks)
            o.field("entries_checked", done.entries)
            o.field("chunks_lost", done.lost)
            o.field("status", status.rawValue)
        }
    }

    /// Takes part in run `runID`, which another process started on this PostgreSQL database:
    /// judges its chunks, with the run's recorded form and type versions and its "today",
    /// until none is free. `progress` is called with the entries checked so far.
    ///
    /// - Throws: a ``ServiceError`` (bad input, nothing done) when the store is an SQLite
    ///   file, or the run is unknown, not running, or its starter no longer holds its snapshot.
    public func join(runID: Int64, progress: ((Int) -> Void)? = nil) throws -> JoinOutcome {
        let store = try workspace.store(.write)
        let join = ValidationJoin(store: store, runID: runID)
        join.catalogs = try workspace.registry(store: store).messageFiles
        join.progress = progress
        let clock = ContinuousClock()
        let started = clock.now
        let done: SharedWorkDone
        do {
            done = try join.run()
        } catch let error as JoinError {
            throw ServiceError(.badInput, error.description + "; nothing was validated")
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let status = try store.run(id: runID).map { RunStatus($0.status) } ?? .incomplete
        return JoinOutcome(runID: runID, done: done, status: status, seconds: seconds)
    }
}
