import FormularyRules
import FormularyStore

/// One failed rule of one entry, as a run records it.
public struct EntryViolation: Sendable, Hashable {
    /// The field it concerns; nil for none.
    public var field: String?
    /// The field's type; nil for cross-field rules and `unknown-field`.
    public var type: String?
    public var rule: String
    public var severity: Severity
    /// The engine's message (secure values are never in it) or the form rule's.
    public var message: String
}

/// A form compiled for batch validation: its fields' compiled types, its cross-field rules
/// resolved to field positions, and for each entry layout, where each field's value lies.
///
/// Immutable once built, so one judge serves every worker thread (compiled types keep their
/// per-thread scratch themselves). Judging an entry whose values all pass builds no string.
public final class FormJudge: Sendable {
    public struct Field: Sendable {
        public var key: String
        public var typeName: String
        public var type: CompiledFieldType
        public var required: Bool
    }

    /// Where each form field lies in the columns of one layout, computed once per layout.
    ///
    /// A class, so that the per-entry call passes one borrowed reference instead of copying
    /// (and retaining) its arrays.
    public final class LayoutPlan: Sendable {
        /// Number of columns of the layout.
        public let columnCount: Int
        /// For each form field, its column, or -1 when the layout has no such column.
        public let columnOfField: [Int]
        /// Columns the form does not declare: reported as `unknown-field` when present.
        public let unknownColumns: [(column: Int, name: String)]

        init(columnCount: Int, columnOfField: [Int], unknownColumns: [(column: Int, name: String)]) {
            (self.columnCount, self.columnOfField, self.unknownColumns) = (columnCount, columnOfField, unknownColumns)
        }
    }

    enum Rule: Sendable {
        case same(Int, Int, RuleOptions)
        case require([Int], when: Int, RuleOptions)
    }

    public let formID: Int64
    public let form: FormDefinition
    public let fields: [Field]
    let rules: [Rule]
    let layouts: [Int64: LayoutPlan]
    // The per-entry loop reads these instead of copying `Field`s (each copy retains two
    // strings and a class): `fields` keeps the types alive.
    private let typeRefs: [Unmanaged<CompiledFieldType>]
    private let requiredFields: [Bool]
    // The cross-field rules as plain integers (field indices, and the rule's index in
    // `rules` for its options), so that walking them per entry copies no payloads.
    private let samePairs: [(a: Int, b: Int, rule: Int)]
    private let requireSpans: [(trigger: Int, start: Int, end: Int, rule: Int)]
    private let requiredByRules: [Int]

    /// - Parameters:
    ///   - types: the compiled type of each field of `form`, in order.
    ///   - layouts: every layout entries may have (id → column names).
    public init(formID: Int64, form: FormDefinition, types: [CompiledFieldType], layouts: [Int64: [String]]) {
        precondition(types.count == form.fields.count)
        self.formID = formID
        self.form = form
        fields = zip(form.fields, types).map {
            Field(key: $0.key, typeName: $0.type.name, type: $1, required: $0.required)
        }
        typeRefs = types.map { Unmanaged.passUnretained($0) }
        requiredFields = form.fields.map(\.required)
        let index = Dictionary(form.fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { a, _ in a })
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
            }
        }
        var pairs: [(a: Int, b: Int, rule: Int)] = []
        var spans: [(trigger: Int, start: Int, end: Int, rule: Int)] = []
        var list: [Int] = []
        for (r, rule) in rules.enumerated() {
            switch rule {
            case let .same(a, b, _): pairs.append((a, b, r))
            case let .require(required, trigger, _):
                spans.append((trigger, list.count, list.count + required.count, r))
                list += required
            }
        }
        (samePairs, requireSpans, requiredByRules) = (pairs, spans, list)
        self.layouts = layouts.mapValues { columns in
            var columnOfField = [Int](repeating: -1, count: form.fields.count)
            var unknown: [(Int, String)] = []
            for (column, name) in columns.enumerated() {
                if let f = index[name] {
                    if columnOfField[f] < 0 { columnOfField[f] = column }
                } else {
                    unknown.append((column, name))
                }
            }
            return LayoutPlan(columnCount: columns.count, columnOfField: columnOfField, unknownColumns: unknown)
        }
    }

    /// The plan of a layout, or nil for a layout this judge was not given.
    public func plan(layoutID: Int64) -> LayoutPlan? { layouts[layoutID] }

    /// One thread's working memory for ``judge(_:plan:scratch:into:)`` with this judge (make
    /// it with ``makeScratch()``; it remembers this form's fields' values).
    public struct Scratch {
        var spans: [EntryValueSpan] = []
        /// Per field of the entry being judged: 0 absent, 1 clean, 2 failing.
        var states: [UInt8] = []
        /// The engine's buffers and regex state, passed to every value's screening so that
        /// none looks up its thread's own.
        let engine = FormularyRules.Scratch()
        let memo: ScreeningMemo
    }

    /// Working memory for one thread judging this form's entries; with `rememberValues`,
    /// it remembers how short values screened (see ``ScreeningMemo``).
    public func makeScratch(rememberValues: Bool = true) -> Scratch {
        Scratch(memo: ScreeningMemo(fieldCount: fields.count, enabled: rememberValues))
    }

    /// Judges one entry's encoded values (laid out by `plan`) and appends every failed rule
    /// to `violations`. Throws when the encoded values are malformed.
    public func judge(_ values: UnsafeRawBufferPointer, plan: LayoutPlan, scratch: inout Scratch,
                      into violations: inout [EntryViolation]) throws {
        if scratch.spans.count != plan.columnCount {
            scratch.spans = [EntryValueSpan](repeating: .absent, count: plan.columnCount)
        }
        if scratch.states.count != fields.count {
            scratch.states = [UInt8](repeating: 0, count: fields.count)
        }
        try EntryValues.locate(values, into: &scratch.spans)
        // First every field's screening, through plain buffers (no per-field bounds or
        // uniqueness checks): most entries pass and need nothing else.
        let engine = scratch.engine, memo = scratch.memo
        let allClean = scratch.spans.withUnsafeBufferPointer { spans in
            plan.columnOfField.withUnsafeBufferPointer { columns in
                scratch.states.withUnsafeMutableBufferPointer { states in
                    var clean = true
                    for f in 0..<columns.count {
                        let column = columns[f]
                        let span = column >= 0 ? spans[column] : EntryValueSpan(offset: 0, length: -1)
                        guard span.isPresent else {
                            states[f] = 0
                            clean = clean && !requiredFields[f]
                            continue
                        }
                        let bytes = UnsafeRawBufferPointer(start: values.baseAddress! + Int(span.offset), count: Int(span.length))
                        let screening = typeRefs[f]._withUnsafeGuaranteedRef { type in
                            memo.screening(field: f, of: bytes) { type.screen(utf8: $0, scratch: engine) }
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
                let column = plan.columnOfField[f]
                let bytes = column >= 0 ? scratch.spans[column].bytes(in: values) : nil
                guard let bytes, scratch.states[f] == 2 else {
                    if requiredFields[f] {
                        let field = fields[f]
                        violations.append(EntryViolation(field: field.key, type: field.typeName, rule: "required",
                                                         severity: .error, message: "'\(field.key)' is required"))
                    }
                    continue
                }
                let field = fields[f]
                let result = field.type.validate(String(decoding: bytes, as: UTF8.self))
                for v in result.violations {
                    violations.append(EntryViolation(field: field.key, type: field.typeName, rule: v.rule,
                                                     severity: v.severity,
                                                     message: v.message))
                }
            }
        }
        for (a, b, r) in samePairs {
            guard scratch.states[a] != 0, scratch.states[b] != 0,
                  let x = scratch.spans[plan.columnOfField[a]].bytes(in: values),
                  let y = scratch.spans[plan.columnOfField[b]].bytes(in: values) else { continue }
            // Equal bytes judged by the same type are equal canonical values: the common
            // case (an email typed twice) needs no canonical copies.
            if typeRefs[a].toOpaque() == typeRefs[b].toOpaque() && x.elementsEqual(y) { continue }
            if fields[a].type.canonicalUTF8(x) != fields[b].type.canonicalUTF8(y) {
                guard case let .same(_, _, options) = rules[r] else { continue }
                violations.append(EntryViolation(
                    field: fields[b].key, type: nil, rule: options.name, severity: options.severity,
                    message: options.message ?? "'\(fields[a].key)' and '\(fields[b].key)' differ"))
            }
        }
        for (trigger, start, end, r) in requireSpans where scratch.states[trigger] != 0 {
            for i in start..<end where scratch.states[requiredByRules[i]] == 0 {
                guard case let .require(_, _, options) = rules[r] else { continue }
                let missing = requiredByRules[i]
                violations.append(EntryViolation(
                    field: fields[missing].key, type: nil, rule: options.name, severity: options.severity,
                    message: options.message ?? "'\(fields[missing].key)' is required when '\(fields[trigger].key)' is given"))
            }
        }
        for (column, name) in plan.unknownColumns {
            guard let bytes = scratch.spans[column].bytes(in: values),
                  !CompiledFieldType.isAbsent(utf8: bytes) else { continue }
            violations.append(EntryViolation(field: name, type: nil, rule: "unknown-field", severity: .warning,
                                             message: "'\(name)' is not a field of form '\(form.name)'"))
        }
    }
}
