import Foundation
import FormularyRules
import FormularyStore

/// Why a run cannot be joined; nothing was written.
package enum JoinError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store is an SQLite file.
    case needsServer
    case unknownRun(Int64)
    case runEnded(Int64, FormularyStore.RunStatus, String?)
    /// A running run that was not split into chunks (nothing to claim).
    case notShared(Int64)
    /// The starting process no longer holds the run's snapshot (it ended or died).
    case starterGone(Int64)

    /// What stands in the way, and what to do about it.
    package var description: String {
        switch self {
        case .needsServer:
            "--join needs a PostgreSQL store (--db postgres://…): on an SQLite file one process validates alone"
        case .unknownRun(let id):
            "no run \(id) in this database; 'formulary runs list' shows the runs"
        case let .runEnded(id, status, error):
            "run \(id) is \(status.rawValue)" + (error.map { " (\($0))" } ?? "")
                + "; only a running run can be joined — start a new one with 'formulary validate'"
        case .notShared(let id):
            "run \(id) has no chunks to share (it judged nothing but what it carried forward, or another version of formulary started it)"
        case .starterGone(let id):
            "run \(id) cannot be joined: the process that started it no longer holds the snapshot of its entries (it ended or died); start a new run with 'formulary validate'"
        }
    }
}

/// A process's part in another process's run on PostgreSQL (`validate --join RUN`): judges
/// chunks of it until none is free, with the run's recorded form and type versions and its
/// "today" (never this process's registry or plugin folders), reading the entries through
/// the snapshot the starter shares.
package final class ValidationJoin {
    package let store: Store
    package let runID: Int64
    package let workers: Int
    package let rememberValues: Bool
    /// Claim at most this many chunks (tests).
    package var maxChunks: Int?
    /// Called after each committed chunk with the entries checked so far.
    package var progress: ((Int) -> Void)?
    /// The message catalogs a run with a locale is judged in: this process's (built-in and
    /// plugin folders'), the one thing not taken from the run's records, which keep the
    /// locale but not the catalogs' texts.
    package var catalogs: [MessageFile] = []

    package init(store: Store, runID: Int64, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                 rememberValues: Bool = true) {
        self.store = store
        self.runID = runID
        self.workers = max(1, workers)
        self.rememberValues = rememberValues
    }

    /// Joins the run and works until no chunk is free; returns what this process did.
    ///
    /// - Throws: ``JoinError`` when the run cannot be joined; store errors as they come
    ///   (the chunks this process holds then go to others when their lease expires).
    package func run() throws -> SharedWorkDone {
        guard store.sharesRuns else { throw JoinError.needsServer }
        guard let run = try store.run(id: runID) else { throw JoinError.unknownRun(runID) }
        guard run.status == .running else { throw JoinError.runEnded(runID, run.status, run.error) }
        guard let share = try store.runShare(runID: runID) else { throw JoinError.notShared(runID) }
        guard let today = CivilDate(iso: run.today) else {
            throw StoreError.corrupt("run \(runID) has no valid today ('\(run.today)')")
        }
        let (judges, carriedThrough) = try Self.judges(of: run, share: share, today: today, store: store,
                                                       catalogs: catalogs)
        let snapshots: [EntrySnapshot]
        do {
            snapshots = try store.joinEntrySnapshots(id: share.snapshot, count: workers)
        } catch StoreError.snapshotGone {
            // The run may have ended between the check above and now.
            if let now = try store.run(id: runID), now.status != .running {
                throw JoinError.runEnded(runID, now.status, now.error)
            }
            throw JoinError.starterGone(runID)
        }
        defer { for snapshot in snapshots { snapshot.end() } }
        var work = SharedChunkWork(store: store, runID: runID, judges: judges, carriedThrough: carriedThrough,
                                   rememberValues: rememberValues, leaseSeconds: share.leaseSeconds)
        work.maxChunks = maxChunks
        work.progress = progress
        return try work.run(snapshots: snapshots)
    }

    /// The judges of the run's chunked forms (those without `unique` rules), rebuilt from the
    /// versions the run recorded, and how far each form's results were carried forward.
    static func judges(of run: FormularyStore.RunRecord, share: RunShare, today: CivilDate,
                       store: Store, catalogs: [MessageFile] = []) throws -> (judges: [FormJudge], carriedThrough: [Int64]) {
        let layouts = try store.entryLayouts()
        var judges: [FormJudge] = []
        var carriedThrough: [Int64] = []
        for form in run.forms {
            guard let formVersion = try store.version(.form, id: form.formVersionID) else {
                throw StoreError.corrupt("run \(run.id): form version \(form.formVersionID) is missing")
            }
            var files = [PluginFile(path: "form \(form.form) (version \(formVersion.id))",
                                    bytes: Array(formVersion.source.utf8), source: .database)]
            var seen = Set<String>()
            for fieldType in try store.fieldTypes(ofRun: run.id, formID: form.formID)
            where seen.insert(fieldType.version.name).inserted {
                files.append(PluginFile(path: "type \(fieldType.version.name) (version \(fieldType.version.id))",
                                        bytes: Array(fieldType.version.source.utf8), source: .database))
            }
            // Only the recorded versions: no built-in type, no folder, no database type of now.
            let registry = Registry(files: files)
            registry.localize(run.locale, catalogs: catalogs)
            guard let definition = registry.forms[form.form]?.form else {
                throw StoreError.corrupt("run \(run.id): the recorded version of form '\(form.form)' does not parse")
            }
            let masked = share.masked[form.formID] ?? []
            var types: [CompiledFieldType] = []
            for field in definition.fields {
                switch registry.compile(field.type, today: today) {
                case .failure(let problems):
                    throw StoreError.corrupt("run \(run.id): the recorded type of field '\(field.key)' of form "
                        + "'\(form.form)' does not compile: \(problems.diagnostics.first.map { "\($0.message)" } ?? "")")
                case .success(let type):
                    types.append(masked.contains(field.key)
                                 ? try ValidationRun.masked(type, today: today, form: form.form) : type)
                }
            }
            let judge = FormJudge(formID: form.formID, form: registry.localized(definition), types: types, layouts: layouts)
            guard judge.core.uniqueRules.isEmpty else { continue }   // judged by the starter
            var through: Int64 = 0
            if let base = form.carriedFrom, let baseRun = try store.run(id: base),
               let baseForm = baseRun.forms.first(where: { $0.formID == form.formID }) {
                through = baseForm.lastID
            }
            judges.append(judge)
            carriedThrough.append(through)
        }
        return (judges, carriedThrough)
    }
}
