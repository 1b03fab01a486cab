import FormularyStore
import Foundation
import FormularyJSON
import FormularyRules

/// The registry as the API serves it, loaded once per change of the database.
///
/// A request asks for the snapshot; the state compares the audit log's newest record with
/// the one the snapshot was loaded at (every change to types, forms and tokens is audited,
/// by this process or another) and reloads only when it moved, or when the date checks use
/// changed. When the records since are only imports and runs (a posted entry, a
/// `validate`), the snapshot is kept: they change no type, form or token.
///
/// The check runs on every request, so it must not serialize them: each request borrows
/// one of a few ``HeadProbe``s (its own reading connection; on SQLite it reads the head
/// only when the wal-index header or `PRAGMA data_version` says another connection
/// committed), and the lock around the current snapshot is held only to read or swap it.
/// Reloads take a second lock, so that one change is loaded once.
package final class RegistryState: @unchecked Sendable {
    /// Guards `current`, `confirmedSeq` and the probes; never held across I/O.
    private let lock = NSCondition()
    private var current: RegistrySnapshot?
    /// The audit head `current` is known to be right for: its generation, or a later head
    /// when the records since changed nothing it holds.
    private var confirmedSeq: Int64 = -1
    private var idleProbes: [HeadProbe] = []
    private var probeCount = 0
    /// Most probes at once: on PostgreSQL each is a connection to the server.
    static let maxProbes = 8

    /// Serializes reloads; `workspace` is used only under it.
    private let reloadLock = NSLock()
    private let settings: WorkspaceSettings
    /// Kept between reloads (its connection with it); replaced after a failure.
    private var workspace: Workspace

    /// The actions that change no type, form or token: imports and validation runs.
    package static let dataOnlyActions: Set<String> = ["import", "canonicalize", "validate.start", "validate"]

    package init(settings: WorkspaceSettings) {
        self.settings = settings
        workspace = Workspace(settings: settings)
    }

    /// The registry as of now, for date checks as of `today`.
    package func snapshot(today: CivilDate) throws -> RegistrySnapshot {
        let head = try readHead()
        lock.lock()
        let known = current, seq = confirmedSeq
        lock.unlock()
        if let known, seq == head, known.today == today { return known }
        return try reload(head: head, today: today)
    }

    /// The audit head now (-1 without a database), read through an idle probe.
    private func readHead() throws -> Int64 {
        lock.lock()
        while idleProbes.isEmpty && probeCount >= Self.maxProbes { lock.wait() }
        let probe: HeadProbe
        if let idle = idleProbes.popLast() {
            probe = idle
        } else {
            probe = HeadProbe(settings: settings)
            probeCount += 1
        }
        lock.unlock()
        do {
            let head = try probe.head()
            lock.lock()
            idleProbes.append(probe)
            lock.signal()
            lock.unlock()
            return head
        } catch {
            // A probe that failed (the database unreachable, or not a current Formulary
            // database yet) is dropped: the next request opens a fresh one.
            lock.lock()
            probeCount -= 1
            lock.signal()
            lock.unlock()
            throw error
        }
    }

    /// Makes the snapshot right for `head`: keeps it when only data changed since, else loads
    /// the registry again (once, however many requests ask at the same time).
    private func reload(head: Int64, today: CivilDate) throws -> RegistrySnapshot {
        reloadLock.lock()
        defer { reloadLock.unlock() }
        do {
            return try reloadLocked(head: head, today: today)
        } catch {
            // The kept connection may have died with its server (PostgreSQL restarted, the
            // probes already opened new ones): once more on a new one. If the server is still
            // down this fails too, and the next request tries again.
            workspace = Workspace(settings: settings)
            return try reloadLocked(head: head, today: today)
        }
    }

    private func reloadLocked(head: Int64, today: CivilDate) throws -> RegistrySnapshot {
        lock.lock()
        let known = current, seq = confirmedSeq
        lock.unlock()
        if let known, known.today == today {
            if seq == head { return known }
            if seq >= 0, head > seq, workspace.databaseExists,
               try workspace.store(.read).auditActions(after: seq).isSubset(of: Self.dataOnlyActions) {
                confirm(known, head)
                return known
            }
        }
        let tokens = workspace.databaseExists ? try workspace.store(.read).tokens().filter { $0.revokedAt == nil } : []
        let snapshot = try RegistrySnapshot(registry: try workspace.registry(), generation: head, today: today,
                                            tokens: tokens)
        confirm(snapshot, head)
        return snapshot
    }

    private func confirm(_ snapshot: RegistrySnapshot, _ head: Int64) {
        lock.lock()
        current = snapshot
        confirmedSeq = head
        lock.unlock()
    }
}

/// One loaded registry and what the API answers from it, computed once: the export
/// document and its hash, each type's and form's object, the lists, the working tokens
/// (token changes are audited, so they too make a new snapshot), and the type references
/// compiled so far.
package final class RegistrySnapshot: @unchecked Sendable {
    package let generation: Int64
    package let today: CivilDate
    package let registry: Registry
    /// The `formulary export` document, newline-terminated.
    package let export: [UInt8]
    /// Its SHA-256, hex: the `ETag`.
    package let exportHash: String
    /// Each type's object as in the export, newline-terminated, by name.
    package let types: [String: [UInt8]]
    /// Each form's object as in the export, newline-terminated, by name.
    package let forms: [String: [UInt8]]
    /// `{"types": [{"name", "version", "source", "label"}…]}`.
    package let typeList: [UInt8]
    /// `{"forms": [{"name", "version", "source", "label"}…]}`.
    package let formList: [UInt8]

    /// The working tokens by their SHA-256 (hex): name and scope.
    package let tokens: [String: (name: String, scope: TokenScope)]

    private let lock = NSLock()
    private var compiled: [String: CompiledFieldType] = [:]
    private var preparedForms: [String: JudgeService.PreparedForm] = [:]
    private var localeMessages: [String: LocaleMessages] = [:]

    package init(registry: Registry, generation: Int64, today: CivilDate, tokens: [StoredToken] = []) throws {
        self.registry = registry
        var byHash: [String: (name: String, scope: TokenScope)] = [:]
        for token in tokens {
            if let scope = TokenScope(rawValue: token.scope) { byHash[token.hash] = (token.name, scope) }
        }
        self.tokens = byHash
        self.generation = generation
        self.today = today
        let made = RegistryExport.make(registry, today: today)
        export = made.bytes
        exportHash = SHA256.hex(export)
        (types, typeList) = Self.members(made.document["types"], list: "types")
        (forms, formList) = Self.members(made.document["forms"], list: "forms")
    }

    /// Each object of an export array by its name, and the short list of them all.
    private static func members(_ array: JSONValue?, list: String) -> ([String: [UInt8]], [UInt8]) {
        var byName: [String: [UInt8]] = [:]
        var writer = JSONWriter()
        writer.object { o in
            o.array(list) { a in
                for member in array?.arrayValue ?? [] {
                    guard let name = member["name"]?.stringValue else { continue }
                    byName[name] = member.serializedBytes() + [0x0A]
                    a.object { m in
                        m.field("name", name)
                        for key in ["version", "source", "label"] {
                            if let value = member[key], !value.isNull { m.field(key, value) } else { m.nullField(key) }
                        }
                    }
                }
            }
        }
        writer.newline()
        return (byName, writer.bytes)
    }

    /// The type a reference (`age(min: 21)`) names, compiled once per snapshot and locale
    /// (``answerLocale(field:acceptLanguage:)``; nil: the server's).
    ///
    /// Compiled under the lock: the registry keeps caches of its own and is not safe to
    /// use from two threads at once. Only a reference not seen before waits for it.
    package func compile(_ reference: String, locale: String? = nil) throws -> CompiledFieldType {
        lock.lock()
        defer { lock.unlock() }
        let key = locale.map { reference + "#" + $0 } ?? reference
        if let type = compiled[key] { return type }
        let type = try RegistryService.compile(reference: reference, in: registry, today: today,
                                               messages: messages(for: locale))
        // A bounded cache: references come from clients, so a flood of distinct ones must
        // not grow memory without end.
        if compiled.count >= 1_000 { compiled.removeAll() }
        compiled[key] = type
        return type
    }

    /// The translations of `locale` (nil: the server's own), made once per snapshot; the
    /// caller holds the lock. Only locales with catalogs, and `en`, reach here.
    private func messages(for locale: String?) -> LocaleMessages? {
        guard let locale else { return nil }
        if let made = localeMessages[locale] { return made }
        let made = registry.messages(for: locale)
        localeMessages[locale] = made
        return made
    }

    /// Form `name` ready to judge values, prepared once per snapshot; nil for a name the
    /// registry has no form of (only known names are kept, so the cache is bounded).
    ///
    /// - Throws: a ``ServiceError`` (bad input) for a form with errors.
    package func judge(form name: String, locale: String? = nil) throws -> JudgeService.PreparedForm? {
        lock.lock()
        defer { lock.unlock() }
        let key = locale.map { name + "#" + $0 } ?? name
        if let form = preparedForms[key] { return form }
        guard registry.forms[name] != nil else { return nil }
        let form = try JudgeService.prepare(form: name, in: registry, today: today, messages: messages(for: locale))
        preparedForms[key] = form
        return form
    }
}
