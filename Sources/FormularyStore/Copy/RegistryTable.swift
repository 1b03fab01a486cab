/// The tables of a registry as `copy --to` moves them between databases of either kind:
/// every table whose rows are the registry's data, in an order in which each row's references
/// are already written (versions before events and runs, entries before their earlier
/// versions, runs before their forms and results, the audit log last).
///
/// Both backends' migrations create these tables with the same names and columns; only the
/// column types are spelled in each dialect (``RegistryColumnKind`` is what the copy needs to
/// know of them). Left out on purpose: the migrations' bookkeeping (`schema_migrations`, each
/// database's own), the audit head (kept by a trigger as records are appended) and the audit
/// key (copied by ``StoreBackend/replaceAuditKey(_:)``, which has to go around its guards).
package enum RegistryTable: String, CaseIterable, Sendable {
    case typeVersions = "type_versions"
    case typeEvents = "type_events"
    case formVersions = "form_versions"
    case formEvents = "form_events"
    case forms
    case entryLayouts = "entry_layouts"
    case imports
    case entries
    case entryVersions = "entry_versions"
    case runs
    case runForms = "run_forms"
    case runTypeVersions = "run_type_versions"
    case runRules = "run_rules"
    case runResults = "run_results"
    case runRejudged = "run_rejudged"
    case apiTokens = "api_tokens"
    case auditLog = "audit_log"

    /// The table's name in both schemas.
    package var name: String { rawValue }

    /// The columns copied, in the order rows are read and written.
    package var columns: [RegistryColumn] {
        switch self {
        case .typeVersions:
            [.int("id"), .text("name"), .text("hash"), .text("source"), .text("origin"), .text("recorded_at"),
             .text("actor"), .flag("secure")]
        case .formVersions:
            [.int("id"), .text("name"), .text("hash"), .text("source"), .text("origin"), .text("recorded_at"),
             .text("actor")]
        case .typeEvents, .formEvents:
            [.int("id"), .text("name"), .text("action"), .int("version_id"), .text("at"), .text("actor")]
        case .forms:
            [.int("id"), .text("name")]
        case .entryLayouts:
            [.int("id"), .bytes("fields")]
        case .imports:
            [.int("id"), .int("form_id"), .text("at"), .text("actor"), .text("source")]
        case .entries:
            [.int("id"), .int("form_id"), .text("key"), .int("layout_id"), .bytes("vals"), .int("version"),
             .int("created_in"), .int("updated_in"), .int("source_line")]
        case .entryVersions:
            [.int("entry_id"), .int("version"), .int("layout_id"), .bytes("vals"), .int("written_in"),
             .int("replaced_in"), .int("source_line")]
        case .runs:
            [.int("id"), .text("started_at"), .text("ended_at"), .text("actor"), .text("today"), .int("last_import"),
             .text("status"), .text("host"), .int("pid"), .text("process_start"), .text("error"),
             .int("entries_checked"), .int("entries_invalid"), .int("entries_warned"), .int("errors"),
             .int("warnings"), .int("entries_carried"), .text("locale"), .text("messages")]
        case .runForms:
            [.int("run_id"), .int("form_id"), .int("form_version_id"), .int("last_id"), .int("judged_through"),
             .int("entries_checked"), .int("entries_invalid"), .int("entries_warned"), .int("errors"),
             .int("warnings"), .int("entries_carried"), .int("carried_from"), .int("shares_from")]
        case .runTypeVersions:
            [.int("run_id"), .int("form_id"), .text("field"), .int("type_version_id")]
        case .runRules:
            [.int("id"), .int("run_id"), .int("form_id"), .text("field"), .text("type"), .text("rule"),
             .text("severity"), .text("message")]
        case .runResults:
            [.int("run_id"), .int("entry_id"), .int("rule_id"), .int("entry_version")]
        case .runRejudged:
            [.int("run_id"), .int("form_id"), .int("entry_id")]
        case .apiTokens:
            [.int("id"), .text("name"), .text("scope"), .text("hash"), .text("created_at"), .text("created_by"),
             .text("revoked_at")]
        case .auditLog:
            [.int("seq"), .text("at"), .text("actor"), .text("action"), .text("subject"), .text("details"),
             .text("prev_hash"), .text("hash")]
        }
    }

    /// The integer columns rows are read in the order of (their key, or its integer part):
    /// the audit log must be appended in `seq` order, and entries land in id order, the order
    /// validation scans them in. Text never takes part, since the two databases may sort it
    /// differently.
    package var orderColumns: [String] {
        switch self {
        case .entryVersions: ["entry_id", "version"]
        case .runForms, .runTypeVersions: ["run_id", "form_id"]
        case .runResults: ["run_id", "entry_id", "rule_id"]
        case .runRejudged: ["run_id", "form_id", "entry_id"]
        case .auditLog: ["seq"]
        default: ["id"]
        }
    }

    /// What the rows are, for messages ("entries", "audit records").
    package var noun: String {
        switch self {
        case .typeVersions: "type versions"
        case .typeEvents: "type events"
        case .formVersions: "form versions"
        case .formEvents: "form events"
        case .forms: "form names"
        case .entryLayouts: "entry layouts"
        case .imports: "imports"
        case .entries: "entries"
        case .entryVersions: "earlier entry versions"
        case .runs: "validation runs"
        case .runForms: "run forms"
        case .runTypeVersions: "run field types"
        case .runRules: "run rules"
        case .runResults: "run results"
        case .runRejudged: "entries runs judged again"
        case .apiTokens: "tokens"
        case .auditLog: "audit records"
        }
    }
}

/// How a copied column's values are kept, in terms both backends map to their own types.
package enum RegistryColumnKind: Sendable {
    /// A 64-bit integer (SQLite `INTEGER`, PostgreSQL `BIGINT`).
    case integer
    /// UTF-8 text.
    case text
    /// Bytes (SQLite `BLOB`, PostgreSQL `BYTEA`).
    case bytes
    /// A yes/no flag: 0 or 1 as an integer on SQLite, `BOOLEAN` on PostgreSQL; read and
    /// written as the integer 0 or 1.
    case flag
}

/// One copied column: its name in both schemas and its kind. Any column may be NULL where
/// the schema allows it; the copy writes what it reads.
package struct RegistryColumn: Sendable, Hashable {
    /// The column's name.
    package var name: String
    /// How its values are kept.
    package var kind: RegistryColumnKind

    static func int(_ name: String) -> Self { Self(name: name, kind: .integer) }
    static func text(_ name: String) -> Self { Self(name: name, kind: .text) }
    static func bytes(_ name: String) -> Self { Self(name: name, kind: .bytes) }
    static func flag(_ name: String) -> Self { Self(name: name, kind: .flag) }
}

/// One row being copied, as the reading backend holds it (valid only during the call that
/// hands it over): the writing backend pulls each column by the kind its table names.
package protocol RegistryRowReading {
    /// Whether column `column` (0-based, in ``RegistryTable/columns`` order) is NULL.
    func isNull(_ column: Int) -> Bool
    /// An integer or flag column (a flag reads 0 or 1).
    func integer(_ column: Int) -> Int64
    /// A text column's UTF-8 bytes or a bytes column's bytes, valid only during `body`.
    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

/// Writes the rows of one table of a registry copy into the target database, in the open
/// write transaction; rows may be held back until ``finish()``.
package protocol RegistryRowWriting: AnyObject {
    /// Writes one row, read in the table's column order.
    func write(_ row: any RegistryRowReading) throws
    /// Writes whatever is held back; the table's rows are all in the database afterwards.
    func finish() throws
}
