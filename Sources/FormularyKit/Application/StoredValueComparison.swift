import FormularyJSON
import FormularyRules
import FormularyStore

/// The stored values of one type's fields, judged by its current version and by a proposed
/// one: how many the proposed version newly rejects (valid before, an error now) and newly
/// accepts (an error before, valid now), with the entries they are in.
///
/// Values, not entries: a value that becomes invalid in an entry already invalid for another
/// field still counts, since an app using the type would now refuse it. Only ids leave:
/// values are never reported, so secure types are safe.
public struct StoredValueComparison: JSONObjectRepresentable, Sendable, Equatable {
    /// One value that changes verdict: its entry, form and field.
    public struct Example: Sendable, Equatable {
        /// The entry's id.
        public var entry: Int64
        /// Its form.
        public var form: String
        /// The field holding the value.
        public var field: String
    }

    /// Values judged by both versions (present, not blank).
    public var valuesChecked = 0
    /// Valid under the current version, invalid under the proposed one.
    public var newlyRejected = 0
    /// Invalid under the current version, valid under the proposed one.
    public var newlyAccepted = 0
    /// The first few newly rejected values, in entry order.
    public var rejectedExamples: [Example] = []
    /// The first few newly accepted values, in entry order.
    public var acceptedExamples: [Example] = []

    static let examplesKept = 5

    /// `{"values_checked", "newly_rejected", "newly_accepted", "newly_rejected_examples":
    /// [{"entry","form","field"}], "newly_accepted_examples": […]}`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("values_checked", valuesChecked)
        o.field("newly_rejected", newlyRejected)
        o.field("newly_accepted", newlyAccepted)
        for (name, list) in [("newly_rejected_examples", rejectedExamples), ("newly_accepted_examples", acceptedExamples)] {
            o.array(name) { a in
                for e in list {
                    a.object { eo in
                        eo.field("entry", Int(e.entry))
                        eo.field("form", e.form)
                        eo.field("field", e.field)
                    }
                }
            }
        }
    }

    /// Judges every stored value of the fields of type `name` in `current` (the registry as
    /// it is) and in `proposed` (with the new version), form by form, a page of entries at
    /// a time. Forms that cannot be compiled in either registry are left out: `impact` and
    /// `validate` say why.
    static func compare(type name: String, store: Store, current: Registry, proposed: Registry,
                        today: CivilDate) throws -> StoredValueComparison {
        var out = StoredValueComparison()
        for formName in try store.formNamesWithEntries() {
            guard let entry = current.forms[formName], let form = entry.form else { continue }
            var judges: [String: (old: CompiledFieldType, new: CompiledFieldType)] = [:]
            for field in form.fields where field.type.name == name && judges[field.key] == nil {
                guard case .success(let old) = current.compile(field.type, today: today, source: entry.text),
                      case .success(let new) = proposed.compile(field.type, today: today, source: entry.text) else { continue }
                judges[field.key] = (old, new)
            }
            guard !judges.isEmpty else { continue }
            try store.forEachEntry(form: formName) { stored in
                for (i, field) in stored.fields.enumerated() {
                    guard let (old, new) = judges[field], let value = stored.values[i],
                          !value.allSatisfy(\.isWhitespace) else { continue }
                    out.valuesChecked += 1
                    let wasValid = old.isValid(value), isValid = new.isValid(value)
                    guard wasValid != isValid else { continue }
                    let example = Example(entry: stored.id, form: formName, field: field)
                    if wasValid {
                        out.newlyRejected += 1
                        if out.rejectedExamples.count < Self.examplesKept { out.rejectedExamples.append(example) }
                    } else {
                        out.newlyAccepted += 1
                        if out.acceptedExamples.count < Self.examplesKept { out.acceptedExamples.append(example) }
                    }
                }
            }
        }
        return out
    }
}
