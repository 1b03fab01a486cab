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

        /// `{"run", "status", "started_at", "ended_at", "actor", "today", counts…,
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
    public func run(forms: [String]?, today: CivilDate, all: Bool = false, maxFailing: FailureThreshold? = nil,
                    progress: ((ValidationProgress) -> Void)? = nil) throws -> Outcome {
        let store = try workspace.store(.write)
        let registry = try workspace.registry(store: store)
        let options = ValidationOptions(forms: forms, today: today, actor: workspace.settings.actor, carryForward: !all)
        let validation = ValidationRun(store: store, registry: registry, options: options)
        validation.progress = progress
        let clock = ContinuousClock()
        let started = clock.now
        let run: RunRecord
        do {
            run = try validation.run()
        } catch let error as ValidationSetupError {
            throw ServiceError(.badInput, error.description + "; nothing was validated",
                               details: .diagnostics(error.diagnostics, lines: []))
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Outcome(run: run, seconds: seconds, threshold: maxFailing)
    }
}
