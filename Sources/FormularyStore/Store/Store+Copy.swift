import Foundation

/// What ``Store/copyRegistry(to:progress:)`` copied.
package struct RegistryCopySummary: Sendable, Equatable {
    /// Rows copied per table, in copy order (tables without rows included, with 0).
    package var rows: [(table: RegistryTable, count: Int)]
    /// The audit log's head, the same in both databases afterwards.
    package var auditHead: (seq: Int64, hash: String)

    /// Rows copied of one table.
    package func count(_ table: RegistryTable) -> Int {
        rows.first { $0.table == table }?.count ?? 0
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.rows.elementsEqual(b.rows) { $0.table == $1.table && $0.count == $1.count }
            && a.auditHead == b.auditHead
    }
}

/// Why a registry was not copied; nothing was written to the target.
package enum RegistryCopyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target holds data (what kind, by ``RegistryTable/noun``).
    case targetNotEmpty(target: String, holds: [String])
    /// The target has the source's data-digest key: it is the source itself, or a copy of it.
    case sameDatabase(target: String)
    /// The target's audit head is not the source's after the copy (a bug: nothing was committed).
    case headsDiffer(source: String, target: String)

    package var description: String {
        switch self {
        case let .targetNotEmpty(target, holds):
            "\(target) already holds data (\(holds.joined(separator: ", "))); copy writes only into a new "
                + "or empty database, so nothing was written. Name a new database, or one that 'formulary init' just made"
        case .sameDatabase(let target):
            "\(target) has the audit key of the database being copied: it is that database itself, or already "
                + "a copy of it; nothing was written. Name a new or empty database"
        case let .headsDiffer(source, target):
            "after the copy the audit heads differ (source \(source), copy \(target)); nothing was written"
        }
    }
}

/// A failure of one of the two databases of a copy, saying which, so that the message can
/// name the right one (both may be on PostgreSQL servers).
package struct RegistryCopyFailure: Error, CustomStringConvertible {
    /// Which database failed.
    package enum Side: Sendable { case source, target }
    /// Which database failed.
    package var side: Side
    /// Its error (a `DatabaseError`, a ``PostgresError``, a ``StoreError``…).
    package var underlying: any Error

    package var description: String { "\(side == .source ? "source" : "target"): \(underlying)" }

    /// Runs `body`, marking an error it throws as `side`'s unless it is already marked (or
    /// is a ``RegistryCopyError``, which is about the copy as a whole).
    static func on<T>(_ side: Side, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RegistryCopyFailure {
            throw error
        } catch let error as RegistryCopyError {
            throw error
        } catch {
            throw RegistryCopyFailure(side: side, underlying: error)
        }
    }
}

extension Store {
    /// Copies the whole registry — type and form versions and events, form names, layouts,
    /// imports, entries and their earlier versions (with source lines), runs with their forms,
    /// field types, rules and results, tokens (hashes only), the audit log and its data-digest
    /// key — into `target`, a database of either kind that holds no data, with every id kept.
    /// Afterwards both have the same audit head, and `audit verify` passes on the copy as on
    /// the source (the digests recorded in the log are recomputed with the copied key).
    ///
    /// The source is read in one read transaction (one snapshot: a writer meanwhile is not
    /// seen half); the target is written in one write transaction, table by table, each
    /// streamed from the source's rows (no table is held in memory). A target without a
    /// schema, or with migrations pending, gets them in the same transaction, so that a copy
    /// that fails leaves the target as it was. The copy appends no audit record: one written
    /// only to the target would make the heads differ, which is how a copy proves itself.
    ///
    /// `progress` is called after each table with its row count.
    ///
    /// - Throws: ``RegistryCopyError`` when the target holds data or is the source itself
    ///   (nothing written), and ``RegistryCopyFailure`` with the error of either database
    ///   (the target rolled back).
    @discardableResult
    package func copyRegistry(to target: Store,
                             progress: (RegistryTable, Int) -> Void = { _, _ in }) throws -> RegistryCopySummary {
        typealias On = RegistryCopyFailure
        try On.on(.source) { try requireCurrentSchema() }
        let status = try On.on(.target) { try target.migrationStatus() }
        let applied = Set(status.compactMap { if case .applied(let m) = $0 { m.id } else { nil } })
        let pending = status.contains { if case .pending = $0 { true } else { false } }
        // The same database (or a copy of it) has the same key: refused before anything is
        // opened for writing, also when the source holds no data.
        if applied.contains(Self.dataDigestsMigration) {
            let key = try On.on(.source) { try read { try backend.auditKeyBytes() } }
            if try On.on(.target, { try target.read { try target.backend.auditKeyBytes() } }) == key {
                throw RegistryCopyError.sameDatabase(target: target.backend.location)
            }
        }
        return try On.on(.source) {
            try read {
                try On.on(.target) {
                    if pending {
                        var summary: RegistryCopySummary?
                        _ = try target.backend.applyMigrations(now: target.clock) { _ in
                            summary = try copyRows(into: target, progress: progress)
                        }
                        // Another process applied them first: then the transaction below.
                        if let summary { return summary }
                    }
                    return try target.transaction { try copyRows(into: target, progress: progress) }
                }
            }
        }
    }

    /// The copy itself, inside the source's read transaction and the target's write one.
    private func copyRows(into target: Store, progress: (RegistryTable, Int) -> Void) throws -> RegistryCopySummary {
        typealias On = RegistryCopyFailure
        let location = target.backend.location
        let holds = try On.on(.target) {
            try RegistryTable.allCases.filter { try !target.backend.registryTableIsEmpty($0) }.map(\.noun)
        }
        if !holds.isEmpty { throw RegistryCopyError.targetNotEmpty(target: location, holds: holds) }
        if let head = try On.on(.target, { try target.backend.auditHead() }), head.seq != 0 {
            throw RegistryCopyError.targetNotEmpty(target: location, holds: ["an audit head at record \(head.seq)"])
        }
        let key = try On.on(.source) { try backend.auditKeyBytes() }
        try On.on(.target) { try target.backend.replaceAuditKey(key) }
        var rows: [(table: RegistryTable, count: Int)] = []
        for table in RegistryTable.allCases {
            let writer = try On.on(.target) { try target.backend.makeRegistryRowWriter(table) }
            var count = 0
            try On.on(.source) {
                try backend.forEachRegistryRow(table) { row in
                    try On.on(.target) { try writer.write(row) }
                    count += 1
                }
            }
            try On.on(.target) { try writer.finish() }
            rows.append((table, count))
            progress(table, count)
        }
        let zero = (seq: Int64(0), hash: String(repeating: "0", count: 64))
        let head = try On.on(.source) { try backend.auditHead() } ?? zero
        let copied = try On.on(.target) { try target.backend.auditHead() } ?? zero
        guard copied == head else {
            throw RegistryCopyError.headsDiffer(source: "\(head.seq) \(head.hash)", target: "\(copied.seq) \(copied.hash)")
        }
        target.clearLayoutCache()
        target.cachedAuditKey = nil
        return RegistryCopySummary(rows: rows, auditHead: head)
    }
}
