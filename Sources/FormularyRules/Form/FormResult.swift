/// The outcome of judging a whole form's values (``FormValidator/judge(_:stage:)``).
public struct FormResult: Sendable {
    /// `invalid` when any rule of error severity failed, `warnings` when only warnings did,
    /// `valid` otherwise: how `formulary validate` counts an entry. Judged live, `incomplete`
    /// instead of `valid` or `warnings` while a field is `incomplete` or a required field is
    /// absent.
    public var verdict: EntryVerdict
    /// One result per field the form declares, by key; a field without a value is
    /// `isAbsent`, and `invalid` with the violation `required` when the form requires it.
    public var fields: [String: FieldResult]
    /// The violations that belong to no single field's type: cross-field rules (`same`,
    /// `require … when`, `compare`, under their `as` names) reported on the field they name
    /// (`unique` needs other entries: only batch validation judges it), and
    /// `unknown-field` warnings for values under keys the form does not declare.
    public var formViolations: [FormViolation]
    /// Keys of the values given that the form does not declare, sorted.
    public var unknownFields: [String]
    /// Every violation in the order the judge found them (fields in form order, then the
    /// cross-field rules, then unknown keys): in the final stage, exactly what a validation
    /// run records for an entry with these values.
    public var violations: [FormViolation]

    /// A result as the judge builds it.
    public init(verdict: EntryVerdict, fields: [String: FieldResult], formViolations: [FormViolation],
                unknownFields: [String], violations: [FormViolation]) {
        self.verdict = verdict
        self.fields = fields
        self.formViolations = formViolations
        self.unknownFields = unknownFields
        self.violations = violations
    }
}
