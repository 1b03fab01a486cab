/// The one form judge: the fields' compiled types, `required`, the cross-field rules and
/// undeclared keys, applied to one entry whose values lie in one byte buffer.
///
/// Batch validation (FormularyKit, values read straight from the store's row buffers) and
/// ``FormValidator`` (an app's `[String: String]`, copied into one buffer) both call
/// ``judge(_:layout:scratch:into:)``: only the way values are located differs, so the two
/// give the same violations, rules and messages for the same values.
///
/// Immutable once built, so one judge serves every thread (compiled types keep their
/// per-thread scratch themselves). Judging an entry whose values all pass builds no string.
package final class EntryJudge: Sendable {
    package struct Field: Sendable {
        package var key: String
        package var typeName: String
        package var type: CompiledFieldType
        package var required: Bool
        /// What `required` says when the field is left empty (``FormField/requiredText``).
        package var requiredMessage: String
        /// How the messages of rules name the field: its label, else its key in quotes.
        package var name: String
    }

    /// Where each form field lies among the values of entries with one list of keys (the
    /// columns of a stored layout, or the keys an app passed), computed once per list.
    ///
    /// A class, so that the per-entry call passes one borrowed reference instead of copying
    /// (and retaining) its arrays.
    package final class Layout: Sendable {
        /// Number of values (columns) of the layout.
        package let columnCount: Int
        /// For each form field, its column, or -1 when the layout has no such column.
        package let columnOfField: [Int]
        /// Columns the form does not declare: reported as `unknown-field` when present.
        package let unknownColumns: [(column: Int, name: String)]

        init(columnCount: Int, columnOfField: [Int], unknownColumns: [(column: Int, name: String)]) {
            (self.columnCount, self.columnOfField, self.unknownColumns) = (columnCount, columnOfField, unknownColumns)
        }
    }

    enum Rule: Sendable {
        case same(Int, Int, RuleOptions)
        case require([Int], when: Int, RuleOptions)
        case compare(Int, ComparisonOperator, Int, ComparisonReading, RuleOptions)
        /// Judged across entries by batch validation (``uniqueKeys``), never here.
        case unique([Int], RuleOptions)
    }

    package let form: FormDefinition
    package let fields: [Field]
    let rules: [Rule]
    let fieldIndex: [String: Int]
    // The per-entry loop reads these instead of copying `Field`s (each copy retains two
    // strings and a class): `fields` keeps the types alive.
    let typeRefs: [Unmanaged<CompiledFieldType>]
    private let requiredFields: [Bool]
    // The cross-field rules as plain integers (field indices, and the rule's index in
    // `rules` for its options), so that walking them per entry copies no payloads.
    private let samePairs: [(a: Int, b: Int, rule: Int)]
    private let requireSpans: [(trigger: Int, start: Int, end: Int, rule: Int)]
    private let requiredByRules: [Int]
    private let comparisons: [(a: Int, b: Int, rule: Int)]
    /// The message of each `same` and `compare` rule (by index into `rules`), and of each
    /// field of a `require` rule (parallel to `requiredByRules`): filled in once, since they
    /// name fields, never values.
    private let ruleMessages: [String]
    private let requireMessages: [String]
    /// The fields of each `unique` rule, in form order.
    let uniqueFields: [[Int]]

    /// - Parameter types: the compiled type of each field of `form`, in order.
    package init(form: FormDefinition, types: [CompiledFieldType]) {
        precondition(types.count == form.fields.count)
        self.form = form
        fields = zip(form.fields, types).map {
            Field(key: $0.key, typeName: $0.type.name, type: $1, required: $0.required, requiredMessage: $0.requiredText,
                  name: RuleTexts.name($0))
        }
        typeRefs = types.map { Unmanaged.passUnretained($0) }
        requiredFields = form.fields.map(\.required)
        let index = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { a, _ in a })
        fieldIndex = index
        // The form checker refuses rules naming undeclared fields; a rule that still does
        // (a form that was never linted) cannot be judged and is left out.
        rules = form.rules.compactMap { rule in
            switch rule.kind {
            case .same(let a, let b):
                guard let i = index[a], let j = index[b] else { return nil }
                return .same(i, j, rule.options)
            case .require(let required, let trigger):
                guard let t = index[trigger] else { return nil }
                let r = required.compactMap { index[$0] }
                return .require(r, when: t, rule.options)
            case .compare(let a, let op, let b):
                guard let i = index[a], let j = index[b] else { return nil }
                let reading = types[i].comparisonReading.common(with: types[j].comparisonReading)
                return .compare(i, op, j, reading, rule.options)
            case .unique(let keys):
                let f = keys.compactMap { index[$0] }
                guard f.count == keys.count else { return nil }
                return .unique(f, rule.options)
            }
        }
        var pairs: [(a: Int, b: Int, rule: Int)] = []
        var spans: [(trigger: Int, start: Int, end: Int, rule: Int)] = []
        var list: [Int] = []
        var compared: [(a: Int, b: Int, rule: Int)] = []
        var unique: [[Int]] = []
        var messages = [String](repeating: "", count: rules.count)
        var requireMessages: [String] = []
        let name = fields.map(\.name)
        func text(_ options: RuleOptions, _ item: String, _ names: [String: String]) -> String {
            RuleTexts.fill(RuleTexts.template(options, item: item, in: form), names)
        }
        for (r, rule) in rules.enumerated() {
            switch rule {
            case let .same(a, b, options):
                pairs.append((a, b, r))
                messages[r] = text(options, "same", ["a": name[a], "b": name[b]])
            case let .require(required, trigger, options):
                spans.append((trigger, list.count, list.count + required.count, r))
                list += required
                requireMessages += required.map { text(options, "require", ["label": name[$0], "when": name[trigger]]) }
            case let .compare(a, op, b, reading, options):
                compared.append((a, b, r))
                messages[r] = text(options, RuleTexts.compareItem(op, reading), ["a": name[a], "b": name[b]])
            case let .unique(fields, _): unique.append(fields)
            }
        }
        (samePairs, requireSpans, requiredByRules, comparisons, uniqueFields) = (pairs, spans, list, compared, unique)
        (ruleMessages, self.requireMessages) = (messages, requireMessages)
    }

    /// The layout of entries whose values come as `columns`, in that order.
    package func layout(columns: [String]) -> Layout {
        var columnOfField = [Int](repeating: -1, count: fields.count)
        var unknown: [(Int, String)] = []
        for (column, name) in columns.enumerated() {
            if let f = fieldIndex[name] {
                if columnOfField[f] < 0 { columnOfField[f] = column }
            } else {
                unknown.append((column, name))
            }
        }
        return Layout(columnCount: columns.count, columnOfField: columnOfField, unknownColumns: unknown)
    }

    /// One thread's working memory for ``judge(_:layout:scratch:into:)`` with this judge
    /// (make it with ``makeScratch(rememberValues:)``; it remembers this form's fields'
    /// values). The caller puts the entry's value spans in `spans` before each call.
    package struct Scratch {
        /// Where each value of the entry being judged lies, one per column of its layout.
        package var spans: [ValueSpan] = []
        /// Per field of the entry being judged: 0 absent, 1 clean, 2 failing.
        var states: [UInt8] = []
        /// The engine's buffers and regex state, passed to every value's screening so that
        /// none looks up its thread's own.
        let engine: FormularyRules.Scratch
        let memo: ScreeningMemo

        /// Makes `spans` hold one absent span per column of `layout` (a no-op when it does).
        @inline(__always)
        package mutating func fit(_ layout: Layout) {
            if spans.count != layout.columnCount {
                spans = [ValueSpan](repeating: .absent, count: layout.columnCount)
            }
        }
    }

    /// Working memory for one thread judging this form's entries; with `rememberValues`,
    /// it remembers how short values screened (see ``ScreeningMemo``). `engine` is the
    /// engine's scratch to screen with (default: a new one, for a worker thread of its own).
    package func makeScratch(rememberValues: Bool = true, engine: FormularyRules.Scratch? = nil) -> Scratch {
        Scratch(engine: engine ?? FormularyRules.Scratch(),
                memo: ScreeningMemo(fieldCount: fields.count, enabled: rememberValues))
    }

    /// Judges one entry: its values lie in `values` where `scratch.spans` says (one span per
    /// column of `layout`). Appends every failed rule to `violations`, in this order: each
    /// field's (form order; a type's checks in rule order, or `required`), the `same` rules,
    /// the `require … when` rules, the `compare` rules, then `unknown-field` for each present
    /// undeclared value. (`unique` needs other entries: batch validation judges it.)
    package func judge(_ values: UnsafeRawBufferPointer, layout: Layout, scratch: inout Scratch,
                       into violations: inout [FormViolation]) {
        precondition(scratch.spans.count == layout.columnCount, "spans must be located for the layout")
        if scratch.states.count != fields.count {
            scratch.states = [UInt8](repeating: 0, count: fields.count)
        }
        // First every field's screening, through plain buffers (no per-field bounds or
        // uniqueness checks): most entries pass and need nothing else.
        let engine = scratch.engine, memo = scratch.memo
        let allClean = scratch.spans.withUnsafeBufferPointer { spans in
            layout.columnOfField.withUnsafeBufferPointer { columns in
                scratch.states.withUnsafeMutableBufferPointer { states in
                    var clean = true
                    for f in 0..<columns.count {
                        let column = columns[f]
                        let span = column >= 0 ? spans[column] : ValueSpan(offset: 0, length: -1)
                        guard span.isPresent else {
                            states[f] = 0
                            clean = clean && !requiredFields[f]
                            continue
                        }
                        let bytes = UnsafeRawBufferPointer(start: values.baseAddress! + Int(span.offset), count: Int(span.length))
                        // The type is reached only on a miss: around the memo's lookup, the
                        // closure was compiled out of line, a call per value.
                        let screening = memo.screening(field: f, of: bytes) { bytes in
                            typeRefs[f]._withUnsafeGuaranteedRef { $0.screen(utf8: bytes, scratch: engine) }
                        }
                        switch screening {
                        case .absent:
                            states[f] = 0
                            clean = clean && !requiredFields[f]
                        case .clean:
                            states[f] = 1
                        case .failing:
                            states[f] = 2
                            clean = false
                        }
                    }
                    return clean
                }
            }
        }
        if !allClean {
            for f in 0..<fields.count where scratch.states[f] != 1 {
                let column = layout.columnOfField[f]
                let bytes = column >= 0 ? scratch.spans[column].bytes(in: values) : nil
                guard let bytes, scratch.states[f] == 2 else {
                    if requiredFields[f] {
                        let field = fields[f]
                        violations.append(FormViolation(field: field.key, type: field.typeName, rule: "required",
                                                        severity: .error, message: field.requiredMessage))
                    }
                    continue
                }
                let found = typeRefs[f]._withUnsafeGuaranteedRef {
                    $0.finalViolations(utf8: bytes, scratch: scratch.engine)
                }
                for v in found {
                    violations.append(FormViolation(field: fields[f].key, type: fields[f].typeName, rule: v.rule,
                                                    severity: v.severity, message: v.message))
                }
            }
        }
        for (a, b, r) in samePairs {
            guard scratch.states[a] != 0, scratch.states[b] != 0,
                  let x = scratch.spans[layout.columnOfField[a]].bytes(in: values),
                  let y = scratch.spans[layout.columnOfField[b]].bytes(in: values) else { continue }
            // Equal bytes judged by the same type are equal canonical values: the common
            // case (an email typed twice) needs no canonical copies.
            if typeRefs[a].toOpaque() == typeRefs[b].toOpaque() && x.elementsEqual(y) { continue }
            if fields[a].type.canonicalUTF8(x) != fields[b].type.canonicalUTF8(y) {
                guard case let .same(_, _, options) = rules[r] else { continue }
                violations.append(FormViolation(
                    field: fields[b].key, type: nil, rule: options.name, severity: options.severity,
                    message: ruleMessages[r]))
            }
        }
        for (trigger, start, end, r) in requireSpans where scratch.states[trigger] != 0 {
            for i in start..<end where scratch.states[requiredByRules[i]] == 0 {
                guard case let .require(_, _, options) = rules[r] else { continue }
                let missing = requiredByRules[i]
                violations.append(FormViolation(
                    field: fields[missing].key, type: nil, rule: options.name, severity: options.severity,
                    message: requireMessages[i]))
            }
        }
        for (a, b, r) in comparisons where scratch.states[a] != 0 && scratch.states[b] != 0 {
            guard case let .compare(_, op, _, reading, options) = rules[r],
                  let x = scratch.spans[layout.columnOfField[a]].bytes(in: values),
                  let y = scratch.spans[layout.columnOfField[b]].bytes(in: values) else { continue }
            // An invalid side is reported by its own field; comparing it would say nothing.
            if scratch.states[a] == 2 && !fields[a].type.isValid(utf8: x) { continue }
            if scratch.states[b] == 2 && !fields[b].type.isValid(utf8: y) { continue }
            guard let order = CompiledFieldType.compare(x, of: fields[a].type, y, of: fields[b].type, as: reading),
                  !op.holds(order: order) else { continue }
            violations.append(FormViolation(
                field: fields[b].key, type: nil, rule: options.name, severity: options.severity,
                message: ruleMessages[r]))
        }
        for (column, name) in layout.unknownColumns {
            guard let bytes = scratch.spans[column].bytes(in: values),
                  !CompiledFieldType.isAbsent(utf8: bytes) else { continue }
            violations.append(FormViolation(field: name, type: nil, rule: "unknown-field", severity: .warning,
                                            message: "'\(name)' is not a field of form '\(form.name)'"))
        }
    }
}
