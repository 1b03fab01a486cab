/// Rows of a run's report as the store hands them out, one at a time: reports aggregate in
/// the database and stream, so that memory does not grow with the number of failures.

/// What a report groups failures by, as the store computes group keys.
public enum ReportGroupKey: String, Sendable, Hashable, CaseIterable {
    /// The failed rule's name.
    case rule
    /// The field (`FORM.FIELD` when the report spans several forms); `(form)` for rules of
    /// the whole entry.
    case field
    /// The field's type name, without arguments; `(form)` for cross-field rules and
    /// `(undeclared)` for fields the form does not declare.
    case type
    /// The entry, by id.
    case entry
}

/// Which stored values a report must not show, by form id: the secure fields of each form,
/// or every field of a form no registry knows. Values of a field whose judging type version
/// was `secure` are masked whatever this says.
public struct ReportSecrets: Sendable, Hashable {
    /// Form id → its secure fields (nil: every field is secret).
    public var byForm: [Int64: Set<String>?]
    /// What a report shows in place of a secret value.
    public var mask: String

    /// Makes the secrets of a report.
    public init(byForm: [Int64: Set<String>?], mask: String) {
        self.byForm = byForm
        self.mask = mask
    }

    /// `{"FORM_ID": ["field", …] | "*"}`, the shape the report statements read.
    package var json: String {
        var out = "{"
        for (i, (form, fields)) in byForm.sorted(by: { $0.key < $1.key }).enumerated() {
            if i > 0 { out += "," }
            out += "\"\(form)\":"
            if let fields {
                out += "[" + fields.sorted().map(Self.quoted).joined(separator: ",") + "]"
            } else {
                out += "\"*\""
            }
        }
        return out + "}"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

/// One failed rule of one entry, with the value it judged and where the entry came from.
public struct ReportFailureRow: Sendable, Hashable {
    /// The entry that failed.
    public var entryID: Int64
    /// The entry version judged.
    public var entryVersion: Int
    /// The entry's key (nil without one; the mask when it is a secret value).
    public var key: String?
    /// The failed rule.
    public var rule: RunRule
    /// The value of the failure's field in the version judged: nil when the rule has no
    /// field or the value was absent, the mask for a secret value.
    public var value: String?
    /// Whether ``value`` is masked.
    public var valueIsSecret: Bool
    /// `FILE:LINE` of the import that wrote the version (`FILE` alone when the line is not
    /// known); nil when no import is recorded.
    public var source: String?
}

/// A group of failures as the store counts them.
public struct ReportGroupRow: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(key: String, entryID: Int64?, entryKey: String?, failures: Int, entries: Int, errors: Int, warnings: Int, message: String, rules: [String], values: [String?] = [], source: String? = nil) {
        self.key = key
        self.entryID = entryID
        self.entryKey = entryKey
        self.failures = failures
        self.entries = entries
        self.errors = errors
        self.warnings = warnings
        self.message = message
        self.rules = rules
        self.values = values
        self.source = source
    }

    /// The group key (for entries, the id in decimal).
    public var key: String
    /// For entry groups: the entry's id and key (the mask when secret).
    public var entryID: Int64?
    /// For entry groups: the entry's key (the mask when secret), nil without one.
    public var entryKey: String?
    /// Failed rules in the group.
    public var failures: Int
    /// Distinct entries in the group.
    public var entries: Int
    /// Failed rules of error severity.
    public var errors: Int
    /// Failed rules of warning severity.
    public var warnings: Int
    /// The most frequent message (for entry groups, that of its first failed rule).
    public var message: String
    /// Distinct rules in the order first seen (`field.rule` for entry groups).
    public var rules: [String]
    /// For entry groups: the value of each of ``rules`` (nil when absent or the rule has no
    /// field; the mask when secret), and the entry's source `FILE:LINE`.
    public var values: [String?] = []
    public var source: String? = nil
}

/// How often one value failed in a group (a rule or a field).
public struct ReportValueCount: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(key: String, value: String, count: Int) {
        self.key = key
        self.value = value
        self.count = count
    }

    /// The group (rule or field) key.
    public var key: String
    /// The value as stored.
    public var value: String
    /// Failures of the group with this value.
    public var count: Int
}

/// An entry named by a comparison of two runs.
public struct ReportEntryRow: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(entryID: Int64, key: String?, judgedBefore: Bool) {
        self.entryID = entryID
        self.key = key
        self.judgedBefore = judgedBefore
    }

    /// The entry.
    public var entryID: Int64
    /// The entry's key (the mask when secret), nil without one.
    public var key: String?
    /// For a newly failing entry: whether the previous run judged it.
    public var judgedBefore: Bool
}
