#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyJSON
import FormularyStore

/// `copy --to DB`: the whole registry of the workspace's database — types, forms, entries and
/// their versions, runs, results, tokens, the audit log and its key — into another database
/// of either kind that holds no data, ids and all, so that `audit head` is the same on both
/// and `audit verify` passes on both. The copy is not itself audited (see
/// ``FormularyStore/Store/copyRegistry(to:progress:)``).
public struct CopyService {
    let workspace: Workspace

    /// The service for `workspace`'s database (the source).
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// What a copy did.
    public struct Outcome: JSONObjectRepresentable, Sendable {
        /// The source and the target, as the user named them (without a password).
        public var source: String, target: String
        /// Rows copied per kind of record, in copy order (``RegistryTable/noun``).
        public var rows: [(what: String, count: Int)]
        /// The audit head both databases now have.
        public var auditSeq: Int64, auditHash: String

        /// How many rows of a kind (`"entries"`, `"audit records"`…) were copied.
        public func count(_ what: String) -> Int { rows.first { $0.what == what }?.count ?? 0 }

        /// `{"source", "target", "rows": {KIND: N…}, "audit_head": {"seq", "hash"}}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("source", source)
            o.field("target", target)
            o.object("rows") { counts in
                for (what, count) in rows { counts.field(what, count) }
            }
            o.object("audit_head") { head in
                head.field("seq", Int(auditSeq))
                head.field("hash", auditHash)
            }
        }
    }

    /// Copies the registry into `target` (a path, or a URL where the workspace opens those),
    /// creating or initialising it when needed. `progress` hears each kind of record as it is
    /// done, with its count.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the target holds data or is the source
    ///   itself, with nothing written; an environment failure when either database fails
    ///   (the target rolled back; a target file this call created is removed again).
    public func copy(to target: String, progress: (String, Int) -> Void = { _, _ in }) throws -> Outcome {
        let source = try workspace.store(.read)
        let targetWorkspace = Workspace(settings: WorkspaceSettings(databasePath: target, pluginFolders: [],
                                                                    actor: workspace.settings.actor))
        // A database file this call creates goes again if the copy fails: nothing is left behind.
        let createdFile = !targetWorkspace.isServerDatabase && !targetWorkspace.databaseExists
        do {
            let store: Store
            do {
                store = try targetWorkspace.open(.write, create: true, requireSchema: false)
            } catch {
                throw Self.namingTarget(targetWorkspace.serviceError(for: error, command: ["copy"])) ?? error
            }
            return try copy(from: source, to: store, target: targetWorkspace.databaseName, progress: progress)
        } catch let failure as RegistryCopyFailure {
            if createdFile { Self.remove(target) }
            // Each side's failure said with that side's name.
            if failure.side == .source {
                throw workspace.serviceError(for: failure.underlying, command: ["copy"]) ?? failure.underlying
            }
            throw Self.namingTarget(targetWorkspace.serviceError(for: failure.underlying, command: ["copy"]))
                ?? failure.underlying
        } catch {
            if createdFile { Self.remove(target) }
            throw error
        }
    }

    /// A target's failure says what to check in `--to`, where the messages of opening a
    /// database name `--db`.
    private static func namingTarget(_ error: ServiceError?) -> ServiceError? {
        guard var error else { return nil }
        error.message = error.message.replacingOccurrences(of: "--db (or FORMULARY_DB)", with: "--to")
            .replacingOccurrences(of: "--db", with: "--to")
        return error
    }

    /// Removes an SQLite file (and its companions) that a failed copy created.
    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// Copies from an open source store into an open target store; the failure of either
    /// comes back as a ``RegistryCopyFailure`` saying which.
    func copy(from source: Store, to store: Store, target: String,
              progress: (String, Int) -> Void = { _, _ in }) throws -> Outcome {
        do {
            let summary = try source.copyRegistry(to: store) { table, count in progress(table.noun, count) }
            return Outcome(source: workspace.databaseName, target: target,
                           rows: summary.rows.map { ($0.table.noun, $0.count) },
                           auditSeq: summary.auditHead.seq, auditHash: summary.auditHead.hash)
        } catch let error as RegistryCopyError {
            switch error {
            case .targetNotEmpty, .sameDatabase:
                throw ServiceError(.badInput, error.description)
            case .headsDiffer:
                throw ServiceError(.environment, error.description)
            }
        }
    }
}
