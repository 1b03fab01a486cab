/// A form ready to judge an app's values: each field's compiled type, `required`, and the
/// cross-field rules. Made by ``FieldCatalog/form(source:file:)``.
///
/// ```swift
/// let result = signup.judge(["name": "Ada", "email": "ada@example.com",
///                            "email-again": "ada@example.com", "age": "36"])
/// result.verdict          // .valid, .warnings or .invalid (live: also .incomplete)
/// result.fields["age"]    // FieldResult
/// result.formViolations   // same, require … when, unknown-field
/// ```
///
/// Judging runs the same code as `formulary validate` (the values are copied into one
/// buffer and handed to the judge batch validation uses), so the same values give the same
/// verdicts, rules and messages. An immutable value, safe to share between threads.
public struct FormValidator: Sendable {
    let judge: EntryJudge

    package init(form: FormDefinition, types: [CompiledFieldType]) {
        judge = EntryJudge(form: form, types: types)
    }

    /// The parsed form: its name, label, fields (with keys, types, labels) and rules.
    public var form: FormDefinition { judge.form }

    /// The form's name (`form NAME`).
    public var name: String { judge.form.name }

    /// The field keys, in the order the form declares them.
    public var fieldKeys: [String] { judge.fields.map(\.key) }

    /// The compiled type of field `key` (with the form's arguments): what a text field for
    /// it edits with.
    ///
    /// - Throws: ``FormularyError`` (`undeclared-field`) for a key the form does not
    ///   declare, with a "did you mean" when a declared key is near — as
    ///   ``FieldCatalog/fieldType(_:)`` throws for an unknown type, so that both are used
    ///   with `try`. ``fieldKeys`` lists the keys.
    public func fieldType(_ key: String) throws(FormularyError) -> CompiledFieldType {
        if let type = judge.fields.first(where: { $0.key == key })?.type { return type }
        let location = SourceLocation(file: "<field key>", line: 1, column: 1, length: max(1, key.count))
        let keys = fieldKeys
        let message = LanguageDiagnostic.undeclaredField.message(
            "form '\(name)' has no field '\(key)'",
            fixIts: Suggestion.fixIt(for: key, in: keys, replacing: location).map { [$0] } ?? [],
            notes: [Diagnostic.Note("its fields are \(Suggestion.list(keys))")])
        throw FormularyError([Diagnostic(message, at: location, sourceLine: key)])
    }

    /// Judges the values of one filled-in form, keyed by field key. A missing key, an empty
    /// value and one of only white space are all absent.
    ///
    /// - `final` (a submitted form): every field's final verdict, `required`, the
    ///   cross-field rules, and `unknown-field` warnings: what a validation run records.
    /// - `live` (a form being filled in): each present field's live verdict (a value still
    ///   being typed is `incomplete`, not invalid); `required` and the cross-field rules
    ///   wait for the final stage, since the user may not have got there yet. The form's
    ///   verdict then counts the live violations and `unknown-field` warnings, and is
    ///   `incomplete` rather than `valid` or `warnings` while a field is `incomplete` or a
    ///   required field is absent.
    public func judge(_ values: [String: String], stage: Stage = .final) -> FormResult {
        let keys = values.keys.sorted()
        // The values one after the other in one buffer, as a stored entry's are, located by
        // spans; a trailing byte so that the buffer has an address even when every value is
        // empty.
        var buffer: [UInt8] = []
        var spans: [ValueSpan] = []
        spans.reserveCapacity(keys.count)
        for key in keys {
            let start = buffer.count
            buffer += values[key]!.utf8
            spans.append(ValueSpan(offset: Int32(start), length: Int32(buffer.count - start)))
        }
        buffer.append(0)
        let layout = judge.layout(columns: keys)
        var found: [FormViolation] = []
        // The calling thread's engine scratch (byte buffers and NFA state sets made once per
        // thread, not once per call). The judge uses it only while screening, before it
        // calls anything that takes the thread's scratch itself.
        Scratch.withCurrent { engine in
            var scratch = judge.makeScratch(rememberValues: false, engine: engine)
            scratch.spans = spans
            buffer.withUnsafeBytes { judge.judge($0, layout: layout, scratch: &scratch, into: &found) }
        }

        let unknown = layout.unknownColumns.map(\.name)
        var fields: [String: FieldResult] = [:]
        switch stage {
        case .final:
            for field in judge.fields {
                let value = values[field.key]
                let own = found.filter { $0.type != nil && $0.field == field.key }
                let violations = own.map { Violation(rule: $0.rule, severity: $0.severity, message: $0.message) }
                let absent = value.map(Self.isAbsent) ?? true
                fields[field.key] = FieldResult(
                    formatted: value.map { absent ? $0 : field.type.format($0) } ?? "",
                    verdict: violations.contains { $0.severity == .error } ? .invalid : .valid,
                    violations: violations, isAbsent: absent)
            }
            let formViolations = found.filter { $0.type == nil }
            return FormResult(verdict: EntryVerdict(violations: found), fields: fields,
                              formViolations: formViolations, unknownFields: unknown, violations: found)
        case .live:
            var live: [FormViolation] = []
            for field in judge.fields {
                let result = field.type.validate(values[field.key] ?? "", stage: .live)
                fields[field.key] = result
                live += result.violations.map {
                    FormViolation(field: field.key, type: field.typeName, rule: $0.rule,
                                  severity: $0.severity, message: $0.message)
                }
            }
            // Unknown keys are exactly those the form does not declare: no cross-field rule
            // names one.
            let undeclared = Set(unknown)
            let formViolations = found.filter { $0.type == nil && $0.field.map(undeclared.contains) == true }
            live += formViolations
            var verdict = EntryVerdict(violations: live)
            // `valid` would tell the app the form can be sent: not while a value is still being
            // typed or a required field is still empty (its `required` check waits for the
            // final stage, but the form is not done).
            if verdict != .invalid && judge.fields.contains(where: { field in
                let result = fields[field.key]!
                return result.verdict == .incomplete || (field.required && result.isAbsent)
            }) {
                verdict = .incomplete
            }
            return FormResult(verdict: verdict, fields: fields,
                              formViolations: formViolations, unknownFields: unknown, violations: live)
        }
    }

    /// Empty or only white space, as the engine counts it.
    private static func isAbsent(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { CompiledFieldType.isAbsent(utf8: UnsafeRawBufferPointer($0)) }
    }
}
