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

        /// `{"run", "status", "started_at", "ended_at", "actor", "today", counts…,
        /// "forms": [{"form", "form_version", counts…}]}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("run", Int(run.id))
            o.field("status", run.status.rawValue)
            o.field("started_at", run.startedAt)
            if let end = run.endedAt { o.field("ended_at", end) } else { o.nullField("ended_at") }
            o.field("actor", run.actor)
            o.field("today", run.today)
            Self.write(run.counts, into: &o)
            o.array("forms") { a in
                for f in run.forms {
                    a.object { fo in
                        fo.field("form", f.form)
                        fo.field("form_version", f.formVersionHash)
                        Self.write(f.counts, into: &fo)
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

    /// Judges every stored entry of `forms` (of every form with entries when nil) as of
    /// `today`, and records the run, its counts and every failed rule. `progress`, when
    /// given, is called as batches complete.
    ///
    /// - Throws: a ``ServiceError`` (bad input, nothing validated) when a form cannot be
    ///   used, with its diagnostics.
    public func run(forms: [String]?, today: CivilDate,
                    progress: ((ValidationProgress) -> Void)? = nil) throws -> Outcome {
        let store = try workspace.store(.write)
        let registry = try workspace.registry(store: store)
        let options = ValidationOptions(forms: forms, today: today, actor: workspace.settings.actor)
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
        return Outcome(run: run, seconds: seconds)
    }
}
