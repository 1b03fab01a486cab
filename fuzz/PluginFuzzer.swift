// libFuzzer target for the rule language: parser, resolver, form checker, compiler and
// engine. Built by scripts/fuzz.sh (not a SwiftPM target).
//
// An input is a plugin file, optionally followed by two NUL bytes and values separated by
// single NUL bytes. The file is parsed as `fuzz.field`, or as `fuzz.form` when its last byte
// is odd (a file without a header takes its kind from the name). Then, as a `types add` or
// `forms add` would: the declaration is resolved against the built-in types (it may extend
// or shadow one), compiled with its defaults and with any arguments a form gives, its
// self-tests run, and values — the fuzzed ones, the examples, and each line of the file —
// are judged in both stages.
//
// A form whose fields (at most eight) all compile is also judged as batch validation does
// (`EntryJudge`), on entries made of the fuzzed values.
//
// Traps (findings) besides crashes, hangs and sanitizer reports:
// - a prefix of a value that passes the final stage is `invalid` in the live stage (the
//   spec's live-stage invariant);
// - `isValid` disagrees with `validate`, or the byte-level `screen(utf8:)` of batch
//   validation disagrees with it (absent, clean, failing);
// - a canonical source does not parse back to itself (the version hash relies on it);
// - `EntryJudge` gives different violations with and without its memo of repeated values,
//   or field violations other than each field's own `validate` (and `required`) give.

import FormularyKit
import FormularyRules
import FormularyStore

private let today = CivilDate(year: 2026, month: 11, day: 29)

/// The built-in declarations, parsed once.
private let builtinDeclarations: [String: FieldTypeDecl] = {
    var declarations: [String: FieldTypeDecl] = [:]
    for file in Registry.builtinFiles {
        if case .field(let decl) = PluginSource.parse(bytes: file.bytes, file: file.path).content {
            declarations[decl.name] = decl
        }
    }
    return declarations
}()

/// Prefixes longer than this are not all judged live: the check is quadratic.
private let maxPrefixCheckScalars = 32

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlugin(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    var source = Array(input)
    var fuzzedValues: [String] = []
    if let separator = (0..<max(0, size - 1)).first(where: { input[$0] == 0 && input[$0 + 1] == 0 }) {
        source = Array(input[..<separator])
        fuzzedValues = input[(separator + 2)...].split(separator: 0, omittingEmptySubsequences: false)
            .prefix(16).map { String(decoding: $0, as: UTF8.self) }
    }
    let file = size > 0 && input[size - 1] & 1 == 1 ? "fuzz.form" : "fuzz.field"

    let outcome = PluginSource.parse(bytes: source, file: file)
    var found = builtinDeclarations
    if case .field(let decl) = outcome.content { found[decl.name] = decl }
    let declarations = found
    let resolver = TypeResolver(knownNames: declarations.keys.sorted()) { declarations[$0] }
    let lineValues = source.split(separator: 0x0A).prefix(12).filter { $0.count <= 80 }
        .map { String(decoding: $0, as: UTF8.self) }

    switch outcome.content {
    case .field(let decl):
        guard !outcome.hasErrors, case .success(let definition)? = resolver.resolve(decl.name) else { break }
        checkRoundTrip(definition)
        let defaults = Dictionary(definition.parameters.map { ($0.name, $0.defaultValue) },
                                  uniquingKeysWith: { first, _ in first })
        exercise(definition, arguments: defaults, values: fuzzedValues, lineValues: lineValues)
    case .form(let form):
        let problems = FormChecker.check(form, source: outcome.source, knownTypes: declarations.keys.sorted()) {
            if case .success(let d)? = resolver.resolve($0) { return d }
            return nil
        }
        guard !outcome.hasErrors else { break }
        checkRoundTrip(form)
        guard !problems.containsErrors else { break }
        var types: [CompiledFieldType] = []
        for (index, field) in form.fields.enumerated() {
            guard case .success(let definition)? = resolver.resolve(field.type.name),
                  case .success(let arguments) = ParameterBinding.bind(
                    definition.parameters, arguments: field.type.arguments, typeName: definition.name,
                    source: outcome.source) else { continue }
            if index < 4 { exercise(definition, arguments: arguments, values: fuzzedValues, lineValues: []) }
            if form.fields.count <= 8, let type = FieldCompiler.compile(definition, arguments: arguments, today: today).compiled {
                types.append(type)
            }
        }
        if !form.fields.isEmpty && types.count == form.fields.count {
            judgeEntries(form, types: types, values: fuzzedValues)
        }
    case .none:
        break
    }
    return 0
}

/// Compiles `definition`, runs its self-tests and judges `values`, its examples and
/// `lineValues` (the file's lines: judged, but too many to check all their prefixes).
private func exercise(_ definition: FieldTypeDefinition, arguments: [String: ParameterValue],
                      values: [String], lineValues: [String]) {
    guard let type = FieldCompiler.compile(definition, arguments: arguments, today: today).compiled else { return }
    _ = SelfTests.run(type)
    for value in values + definition.examples.map(\.value) {
        judge(value, with: type, checkingPrefixes: true)
    }
    for value in lineValues {
        judge(value, with: type, checkingPrefixes: false)
    }
}

private func judge(_ value: String, with type: CompiledFieldType, checkingPrefixes: Bool) {
    let final = type.validate(value, stage: .final)
    _ = type.validate(value, stage: .live)
    _ = type.format(value)
    if type.isValid(value) != (final.verdict == .valid) {
        fatalError("isValid(\(debug(value))) is \(type.isValid(value)) but validate says \(final.verdict) in type \(type.definition.name)")
    }
    var text = value
    let screening = text.withUTF8 { type.screen(utf8: UnsafeRawBufferPointer($0)) }
    let expected: CompiledFieldType.Screening = final.isAbsent ? .absent : final.violations.isEmpty ? .clean : .failing
    if screening != expected {
        fatalError("screen(\(debug(value))) is \(screening) but validate says \(expected) in type \(type.definition.name)")
    }
    guard checkingPrefixes, final.verdict == .valid, !final.isAbsent else { return }
    let scalars = Array(value.unicodeScalars)
    guard scalars.count <= maxPrefixCheckScalars else { return }
    var prefix = String.UnicodeScalarView()
    for scalar in scalars.dropLast() {
        prefix.append(scalar)
        let live = type.validate(String(prefix), stage: .live)
        if live.verdict == .invalid {
            fatalError("\(debug(String(prefix))) is live-invalid (\(live.violations.map(\.rule))) but \(debug(value)) is valid in type \(type.definition.name)")
        }
    }
}

/// Judges entries made of `values` with the form, as a validation run does: each entry twice
/// with a memo of repeated values and once without. They must agree, and each field's
/// violations must be its type's own.
private func judgeEntries(_ form: FormDefinition, types: [CompiledFieldType], values: [String]) {
    let columns = form.fields.map(\.key) + ["fuzz-extra"]
    let judge = EntryJudge(form: form, types: types)
    let plan = judge.layout(columns: columns)
    var remembering = judge.makeScratch(rememberValues: true)
    var plain = judge.makeScratch(rememberValues: false)
    let pool: [String?] = values.isEmpty ? [nil, ""] : values.map { $0 } + [nil]
    for entry in 0..<6 {
        let row: [String?] = (0..<columns.count).map { pool[(entry + $0 * (entry + 1)) % pool.count] }
        let encoded = EntryValues.encode(row)
        var first: [FormViolation] = [], second: [FormViolation] = [], reference: [FormViolation] = []
        encoded.withUnsafeBytes { bytes in
            // As a validation run does: locate the stored values, then judge them.
            func judgeOnce(_ scratch: inout EntryJudge.Scratch, into found: inout [FormViolation]) {
                scratch.fit(plan)
                do {
                    try EntryValues.locate(bytes, into: &scratch.spans)
                } catch {
                    fatalError("locating an encoded entry's values failed: \(error)")
                }
                judge.judge(bytes, layout: plan, scratch: &scratch, into: &found)
            }
            judgeOnce(&remembering, into: &first)
            judgeOnce(&remembering, into: &second)
            judgeOnce(&plain, into: &reference)
        }
        if first != reference || second != reference {
            fatalError("the memo changed a verdict on \(row.map { $0.map(debug) }):\n\(first)\n\(second)\n---\n\(reference)")
        }
        // The violations of the fields' types (cross-field rules and unknown fields aside).
        var expected: [String] = []
        for (i, field) in form.fields.enumerated() {
            let result = row[i].map { types[i].validate($0) }
            if result == nil || result!.isAbsent {
                if field.required { expected.append("\(field.key) required") }
                continue
            }
            expected += result!.violations.map { "\(field.key) \($0.rule)" }
        }
        let found = reference.filter { $0.type != nil }.map { "\($0.field ?? "-") \($0.rule)" }
        if found.sorted() != expected.sorted() {
            fatalError("entry \(row.map { $0.map(debug) }): the form judge found \(found), the types \(expected)")
        }
    }
}

/// The canonical source parses and resolves back to a definition with the same text.
private func checkRoundTrip(_ definition: FieldTypeDefinition) {
    let text = definition.canonicalSource
    let outcome = PluginSource.parse(bytes: Array(text.utf8), file: "canonical.field")
    guard case .field(let decl) = outcome.content, !outcome.hasErrors else {
        fatalError("canonical source does not parse: \(outcome.diagnostics.map(\.message))\n\(text)")
    }
    switch TypeResolver(declarations: [decl.name: decl]).resolve(decl) {
    case .success(let again):
        if again.canonicalSource != text {
            fatalError("canonical source is not stable:\n\(text)\n---\n\(again.canonicalSource)")
        }
    case .failure(let problems):
        fatalError("canonical source does not resolve: \(problems.diagnostics.map(\.message))\n\(text)")
    }
}

private func checkRoundTrip(_ form: FormDefinition) {
    let text = form.canonicalSource
    let outcome = PluginSource.parse(bytes: Array(text.utf8), file: "canonical.form")
    guard case .form(let again) = outcome.content, !outcome.hasErrors else {
        fatalError("canonical form source does not parse: \(outcome.diagnostics.map(\.message))\n\(text)")
    }
    if again.canonicalSource != text {
        fatalError("canonical form source is not stable:\n\(text)\n---\n\(again.canonicalSource)")
    }
}

private func debug(_ value: String) -> String {
    "\"" + value.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
}
