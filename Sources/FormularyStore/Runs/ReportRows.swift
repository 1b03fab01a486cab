/// Rows of a run's report as the store hands them out, one at a time: reports aggregate in
/// the database and stream, so that memory does not grow with the number of failures.

/// What a report groups failures by, as the store computes group keys.
package enum ReportGroupKey: String, Sendable, Hashable, CaseIterable {
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
package struct ReportSecrets: Sendable, Hashable {
    /// Form id → its secure fields (nil: every field is secret).
    package var byForm: [Int64: Set<String>?]
    /// What a report shows in place of a secret value.
    package var mask: String

    /// Makes the secrets of a report.
    package init(byForm: [Int64: Set<String>?], mask: String) {
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
package struct ReportFailureRow: Sendable, Hashable {
    /// The entry that failed.
    package var entryID: Int64
    /// The entry version judged.
    package var entryVersion: Int
    /// The entry's key (nil without one; the mask when it is a secret value).
    package var key: String?
    /// The failed rule.
    package var rule: RunRule
    /// The value of the failure's field in the version judged: nil when the rule has no
    /// field or the value was absent, the mask for a secret value.
    package var value: String?
    /// Whether ``value`` is masked.
    package var valueIsSecret: Bool
    /// `FILE:LINE` of the import that wrote the version (`FILE` alone when the line is not
    /// known); nil when no import is recorded.
    package var source: String?
}

/// A group of failures as the store counts them.
package struct ReportGroupRow: Sendable, Hashable {
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
    package var key: String
    /// For entry groups: the entry's id and key (the mask when secret).
    package var entryID: Int64?
    /// For entry groups: the entry's key (the mask when secret), nil without one.
    package var entryKey: String?
    /// Failed rules in the group.
    package var failures: Int
    /// Distinct entries in the group.
    package var entries: Int
    /// Failed rules of error severity.
    package var errors: Int
    /// Failed rules of warning severity.
    package var warnings: Int
    /// The most frequent message (for entry groups, that of its first failed rule).
    package var message: String
    /// Distinct rules in the order first seen (`field.rule` for entry groups).
    package var rules: [String]
    /// For entry groups: the value of each of ``rules`` (nil when absent or the rule has no
    /// field; the mask when secret), and the entry's source `FILE:LINE`.
    package var values: [String?] = []
    package var source: String? = nil
}

/// How often one value failed in a group (a rule or a field).
package struct ReportValueCount: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(key: String, value: String, count: Int) {
        self.key = key
        self.value = value
        self.count = count
    }

    /// The group (rule or field) key.
    package var key: String
    /// The value as stored.
    package var value: String
    /// Failures of the group with this value.
    package var count: Int
}

/// An entry named by a comparison of two runs.
package struct ReportEntryRow: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(entryID: Int64, key: String?, judgedBefore: Bool) {
        self.entryID = entryID
        self.key = key
        self.judgedBefore = judgedBefore
    }

    /// The entry.
    package var entryID: Int64
    /// The entry's key (the mask when secret), nil without one.
    package var key: String?
    /// For a newly failing entry: whether the previous run judged it.
    package var judgedBefore: Bool
}
