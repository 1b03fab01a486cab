import FormularyJSON

/// Audit actions whose records carry a data digest, and the `details` members that hold it.
///
/// Records written before migration 3 carry none; the `audit.seal` record that migration 3
/// appends to a database with data holds the digests of everything written before it.
enum AuditAction {
    static let importEntries = "import"
    /// `canonicalize`: an import of new entry versions, digested like one.
    static let canonicalize = "canonicalize"
    static let runStart = "validate.start"
    static let runEnd = "validate"
    static let seal = "audit.seal"
    /// Tokens of `formulary serve`: since migration 11 their records hold the token's id and
    /// the digest of its row; older ones hold neither and are not compared with anything.
    static let tokenAdd = "token.add"
    static let tokenRevoke = "token.revoke"
}

/// The digests the log recorded, by what they cover: what `audit verify` compares the
/// tables against.
struct RecordIndex {
    struct Digested {
        var seq: Int64
        var digest: String
        /// From the seal of migration 3, which a run's own end record may follow.
        var isSeal = false
    }

    /// What the newest record of a token says of it.
    struct TokenRecord {
        var seq: Int64
        /// `token.add`, `token.revoke`, or `audit.seal` for the baseline of migration 11.
        var action: String
        var name: String
        var scope: String?
        var revokedAt: String?
        var digest: String
    }

    struct ImportRecord {
        var seq: Int64
        var digest: String
        var created: Int
        var updated: Int
    }

    private(set) var imports: [Int64: ImportRecord] = [:]
    private(set) var events: [DefinitionKind: [Int64: Digested]] = [:]
    private(set) var runStarts: [Int64: Digested] = [:]
    /// The newest record that ends (or seals) each run.
    private(set) var runEnds: [Int64: Digested] = [:]
    /// The newest record of each token, by token id.
    private(set) var tokens: [Int64: TokenRecord] = [:]
    /// The `token.add` record of each token (at most one per token: a second was forged).
    private var tokenAdds: [Int64: Int64] = [:]
    /// The `token.revoke` record of each token (a token is revoked once).
    private var tokenRevokes: [Int64: Int64] = [:]
    /// Two records claiming the same import, event or run start: one was forged.
    private(set) var problems: [AuditProblem] = []

    init(_ records: [AuditRecord]) {
        for record in records {
            guard let details = try? JSONValue(parsing: record.details) else { continue }
            switch record.action {
            case AuditAction.importEntries, AuditAction.canonicalize:
                if let id = details["import"]?.intValue, let digest = details["digest"]?.stringValue {
                    addImport(Int64(id), ImportRecord(seq: record.seq, digest: digest,
                                                      created: details["added"]?.intValue ?? -1,
                                                      updated: details["updated"]?.intValue ?? -1))
                }
            case AuditAction.runStart:
                if let id = Int64(record.subject), let digest = details["digest"]?.stringValue {
                    addRunStart(id, Digested(seq: record.seq, digest: digest))
                }
            case AuditAction.runEnd:
                if let id = Int64(record.subject), let digest = details["digest"]?.stringValue {
                    if let earlier = runEnds[id], !earlier.isSeal {
                        duplicate("run \(id)", earlier.seq, record.seq, area: .runs)
                    }
                    runEnds[id] = Digested(seq: record.seq, digest: digest)
                }
            case AuditAction.seal:
                addSeal(details, seq: record.seq)
            case AuditAction.tokenAdd, AuditAction.tokenRevoke:
                addToken(record, details)
            default:
                for kind in [DefinitionKind.type, .form] where record.action.hasPrefix("\(kind.auditNoun).") {
                    if let id = details["event"]?.intValue, let digest = details["digest"]?.stringValue {
                        addEvent(kind, Int64(id), Digested(seq: record.seq, digest: digest))
                    }
                }
            }
        }
    }

    private mutating func addImport(_ id: Int64, _ record: ImportRecord) {
        if let earlier = imports[id] { return duplicate("import \(id)", earlier.seq, record.seq, area: .imports) }
        imports[id] = record
    }

    private mutating func addEvent(_ kind: DefinitionKind, _ id: Int64, _ record: Digested) {
        if let earlier = events[kind]?[id] {
            return duplicate("\(kind.rawValue) event \(id)", earlier.seq, record.seq, area: kind == .type ? .types : .forms)
        }
        events[kind, default: [:]][id] = record
    }

    private mutating func addRunStart(_ id: Int64, _ record: Digested) {
        if let earlier = runStarts[id] { return duplicate("the start of run \(id)", earlier.seq, record.seq, area: .runs) }
        runStarts[id] = record
    }

    private mutating func addToken(_ record: AuditRecord, _ details: JSONValue) {
        guard let id = details["token"]?.intValue.map(Int64.init), let digest = details["digest"]?.stringValue else { return }
        let isAdd = record.action == AuditAction.tokenAdd
        if let earlier = isAdd ? tokenAdds[id] : tokenRevokes[id] {
            return duplicate("the \(isAdd ? "creation" : "revocation") of token '\(record.subject)' (id \(id))",
                             earlier, record.seq, area: .tokens)
        }
        if isAdd { tokenAdds[id] = record.seq } else { tokenRevokes[id] = record.seq }
        tokens[id] = TokenRecord(seq: record.seq, action: record.action, name: record.subject,
                                 scope: details["scope"]?.stringValue, revokedAt: details["revoked_at"]?.stringValue,
                                 digest: digest)
    }

    private mutating func addSeal(_ details: JSONValue, seq: Int64) {
        for (id, value) in details["imports"]?.objectValue ?? JSONObject() {
            guard let id = Int64(id), let digest = value["digest"]?.stringValue else { continue }
            addImport(id, ImportRecord(seq: seq, digest: digest, created: value["added"]?.intValue ?? -1,
                                       updated: value["updated"]?.intValue ?? -1))
        }
        for (kind, member) in [(DefinitionKind.type, "type_events"), (.form, "form_events")] {
            for (id, value) in details[member]?.objectValue ?? JSONObject() {
                guard let id = Int64(id), let digest = value.stringValue else { continue }
                addEvent(kind, id, Digested(seq: seq, digest: digest))
            }
        }
        for (id, value) in details["runs"]?.objectValue ?? JSONObject() {
            guard let id = Int64(id), let start = value["start"]?.stringValue,
                  let end = value["end"]?.stringValue else { continue }
            addRunStart(id, Digested(seq: seq, digest: start))
            runEnds[id] = Digested(seq: seq, digest: end, isSeal: true)
        }
        // Migration 11's baseline of the tokens made before their records held digests.
        for (id, value) in details["tokens"]?.objectValue ?? JSONObject() {
            guard let id = Int64(id), let name = value["name"]?.stringValue,
                  let digest = value["digest"]?.stringValue else { continue }
            tokens[id] = TokenRecord(seq: seq, action: AuditAction.seal, name: name, scope: value["scope"]?.stringValue,
                                     revokedAt: value["revoked_at"]?.stringValue, digest: digest)
        }
    }

    private mutating func duplicate(_ what: String, _ first: Int64, _ second: Int64, area: AuditProblem.Area) {
        problems.append(AuditProblem(area: area, message:
            "audit records \(first) and \(second) both record \(what): one of them was not written by formulary", seq: second))
    }
}
