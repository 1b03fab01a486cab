import Foundation
import FormularyJSON
import FormularyRules
import FormularyStore

/// The registry as the API serves it, loaded once per change of the database.
///
/// A request asks for the snapshot; the state compares the audit log's newest record with
/// the one the snapshot was loaded at (every change to types and forms is audited, by this
/// process or another) and reloads only when it moved, or when the date checks use changed.
/// One lock guards the check and the reload: the check is one indexed read.
final class RegistryState: @unchecked Sendable {
    private let lock = NSLock()
    private let workspace: Workspace
    private var current: RegistrySnapshot?

    init(settings: WorkspaceSettings) {
        workspace = Workspace(settings: settings)
    }

    /// The registry as of now, for date checks as of `today`.
    func snapshot(today: CivilDate) throws -> RegistrySnapshot {
        lock.lock()
        defer { lock.unlock() }
        let generation = try databaseGeneration()
        if let current, current.generation == generation, current.today == today { return current }
        let tokens = workspace.databaseExists ? try workspace.store(.read).tokens().filter { $0.revokedAt == nil } : []
        let snapshot = try RegistrySnapshot(registry: try workspace.registry(), generation: generation, today: today,
                                            tokens: tokens)
        current = snapshot
        return snapshot
    }

    /// The newest audit record's sequence number, or -1 without a database.
    private func databaseGeneration() throws -> Int64 {
        guard workspace.databaseExists else { return -1 }
        return try workspace.store(.read).auditHead().seq
    }
}

/// One loaded registry and what the API answers from it, computed once: the export
/// document and its hash, each type's and form's object, the lists, the working tokens
/// (token changes are audited, so they too make a new snapshot), and the type references
/// compiled so far.
final class RegistrySnapshot: @unchecked Sendable {
    let generation: Int64
    let today: CivilDate
    let registry: Registry
    /// The `formulary export` document, newline-terminated.
    let export: [UInt8]
    /// Its SHA-256, hex: the `ETag`.
    let exportHash: String
    /// Each type's object as in the export, newline-terminated, by name.
    let types: [String: [UInt8]]
    /// Each form's object as in the export, newline-terminated, by name.
    let forms: [String: [UInt8]]
    /// `{"types": [{"name", "version", "source", "label"}…]}`.
    let typeList: [UInt8]
    /// `{"forms": [{"name", "version", "source", "label"}…]}`.
    let formList: [UInt8]

    /// The working tokens by their SHA-256 (hex): name and scope.
    let tokens: [String: (name: String, scope: TokenScope)]

    private let lock = NSLock()
    private var compiled: [String: CompiledFieldType] = [:]
    private var preparedForms: [String: JudgeService.PreparedForm] = [:]

    init(registry: Registry, generation: Int64, today: CivilDate, tokens: [StoredToken] = []) throws {
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

    /// The type a reference (`age(min: 21)`) names, compiled once per snapshot.
    ///
    /// Compiled under the lock: the registry keeps caches of its own and is not safe to
    /// use from two threads at once. Only a reference not seen before waits for it.
    func compile(_ reference: String) throws -> CompiledFieldType {
        lock.lock()
        defer { lock.unlock() }
        if let type = compiled[reference] { return type }
        let type = try RegistryService.compile(reference: reference, in: registry, today: today)
        // A bounded cache: references come from clients, so a flood of distinct ones must
        // not grow memory without end.
        if compiled.count >= 1_000 { compiled.removeAll() }
        compiled[reference] = type
        return type
    }

    /// Form `name` ready to judge values, prepared once per snapshot; nil for a name the
    /// registry has no form of (only known names are kept, so the cache is bounded).
    ///
    /// - Throws: a ``ServiceError`` (bad input) for a form with errors.
    func judge(form name: String) throws -> JudgeService.PreparedForm? {
        lock.lock()
        defer { lock.unlock() }
        if let form = preparedForms[name] { return form }
        guard registry.forms[name] != nil else { return nil }
        let form = try JudgeService.prepare(form: name, in: registry, today: today)
        preparedForms[name] = form
        return form
    }
}
