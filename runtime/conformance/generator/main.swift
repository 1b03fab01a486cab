// Writes the conformance vectors of formulary.js (runtime/js) from the Swift engine: the export
// document of the built-in and generated types and forms, and what the engine answers for
// seeded values, keystroke scripts and filled-in forms. runtime/conformance/README.md says
// what each file holds; `make conformance` (run by `make test`) writes them into
// .build/conformance and runs them in Node.
//
//   FormularyConformance [--out DIR] [--seed N] [--scale X] [--tables runtime/js/formulary.js]
#if canImport(Glibc)
import Glibc
#endif
import FormularyJSON
import FormularyKit
import FormularyRules

struct Options {
    var out = ".build/conformance"
    var seed: UInt64 = 20261129
    var scale = 1.0
    var tables: String?
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--out": options.out = arguments.popFirst() ?? options.out
    case "--seed": options.seed = arguments.popFirst().flatMap { UInt64($0) } ?? options.seed
    case "--scale": options.scale = arguments.popFirst().flatMap { Double($0) } ?? options.scale
    case "--tables": options.tables = arguments.popFirst()
    default:
        FileOutput.fail("unknown argument \(argument); usage: FormularyConformance [--out DIR] [--seed N] [--scale X] [--tables FILE]")
    }
}

if let path = options.tables {
    UnicodeTables.rewrite(path)
    exit(0)
}

let today = CivilDate(year: 2026, month: 11, day: 29)
/// A second "today" on a leap day, for `today±N` clamping and two-digit-year windows.
let leapToday = CivilDate(year: 2024, month: 2, day: 29)
let started = Clock.now
FileOutput.makeFolder(options.out)

// MARK: The registry: built-in types, generated types and forms

var random = SeededRandom(seed: options.seed)
let folder = PluginFolder(path: "generated", origin: .option)
var sources = GeneratedTypes.plain + GeneratedTypes.patterns
let randomTypes = Int(60 * options.scale)
for index in 0..<randomTypes { sources.append(GeneratedTypes.random(index, &random)) }

func registryOf(_ sources: [String], forms: [String], catalog: String? = nil) -> Registry {
    var files = Registry.builtinFiles + Registry.builtinCatalogFiles
    for (k, source) in sources.enumerated() {
        files.append(PluginFile(path: "generated/t\(k).field", bytes: Array(source.utf8), source: .folder(folder)))
    }
    for (k, source) in forms.enumerated() {
        files.append(PluginFile(path: "generated/f\(k).form", bytes: Array(source.utf8), source: .folder(folder)))
    }
    if let catalog {
        files.append(PluginFile(path: "generated/de-CH.messages", bytes: Array(catalog.utf8), source: .folder(folder)))
    }
    return Registry(files: files)
}

/// Whether a type can be judged in the vectors: it lints without errors on both days (a
/// relative date range can be empty on the leap day only).
func usable(_ registry: Registry, _ name: String) -> FieldTypeDefinition? {
    guard !registry.lint(type: name, today: today).containsErrors,
          !registry.lint(type: name, today: leapToday).containsErrors,
          case .success(let definition)? = registry.definition(named: name) else { return nil }
    return definition
}

var registry = registryOf(sources, forms: [])
var typeNames: [String] = []
var definitions: [String: FieldTypeDefinition] = [:]
for name in registry.typeNames {
    guard let definition = usable(registry, name) else { continue }
    typeNames.append(name)
    definitions[name] = definition
}

/// References the vectors use: every usable type, and some with other arguments.
var references: [String] = typeNames
let argumentReferences = [
    "age(min: 18)", "age(min: 21, max: 99)", "age(max: 0)", "cvv(digits: 4)", "decimal(places: 0)",
    "g-params(min: 1, max: 30, places: 0, low: 5, high: 6.5)", "g-params(low: -1, high: 1.000)",
    "g-params(word: \"bye {value}\", min: 0)", "g-period(from: \"today-1y\", to: \"today\")",
    "g-period(from: \"2024-02-29\")", "g-messages(limit: 8)", "g-comma(limit: 2.75)", "g-comma(limit: 7)",
    // Built-in types that read arguments: `mask-one-of $brands`, `if $region = …`.
    "credit-card(brands: \"visa mastercard\")", "credit-card(brands: \"amex\")", "credit-card(brands: \"maestro visa unionpay\")",
    "phone-intl(region: \"GB\")", "phone-intl(region: \"US\")", "phone-intl(region: \"NU\")", "phone-intl(region: \"DE\")",
    "p-brands(brands: \"five\")", "p-brands(brands: \"letters  four\", region: \"y\")", "p-brands(region: \"z\")",
    "p-brands(brands: \"other\", region: \"z\")", "p-brands-sub(region: \"x\")",
    "p-only-if(mode: \"letters\")", "p-only-if(mode: \"date\")",
] + typeNames.filter { $0.hasPrefix("r-") && definitions[$0]!.parameters.contains { $0.name == "v" } }.map { "\($0)(v: \"b\")" }
for reference in argumentReferences {
    guard case .success(let parsed) = PluginSource.parseTypeReference(reference),
          definitions[parsed.name] != nil,
          case .success = registry.compile(parsed, today: today) else {
        // A hand-written reference must compile: one that does not is a mistake here.
        if !reference.hasPrefix("r-") { FileOutput.fail("\(reference) does not compile") }
        continue
    }
    references.append(reference)
}

@MainActor func compiled(_ reference: String, _ day: CivilDate) -> CompiledFieldType {
    guard case .success(let parsed) = PluginSource.parseTypeReference(reference),
          case .success(let type) = registry.compile(parsed, today: day) else {
        FileOutput.fail("\(reference) does not compile")
    }
    return type
}

// Forms over the usable types.
let formSources = FormGenerator.forms(count: Int(40 * options.scale), types: references, definitions: definitions, &random)
    + [FormGenerator.handWritten]
registry = registryOf(sources, forms: formSources)
let formNames = registry.forms.keys.sorted().filter { !registry.lint(form: $0).containsErrors }
let usableForms = formNames.filter { name in
    registry.forms[name]?.form?.fields.allSatisfy { field in definitions[field.type.name] != nil } ?? false
}
// The forms' own catalog, then the registry with it: forms are judged in these locales too.
let formCatalog = FormGenerator.catalog(usableForms.compactMap { registry.forms[$0]?.form }, &random)
registry = registryOf(sources, forms: formSources, catalog: formCatalog)
/// nil: the types' and forms' own texts. de-CH: its catalog, then de; de-AT: de; pt-PT: no catalog.
let formLocales: [String?] = [nil, nil, "de-CH", "de-AT", "fr", "es", "pt-BR", "pt-PT"]

// MARK: The export document

let export = RegistryExport.make(registry, today: today)
FileOutput.write(options.out + "/export.json", export.bytes)

// MARK: Values

var valueCount = 0
var values = FileOutput(options.out + "/values.jsonl")
let valuesPerType = Int(1_400 * options.scale)
for reference in references {
    let name = String(reference.prefix { $0 != "(" })
    let pool = ValuePool(definition: definitions[name]!)
    let dates = definitions[name]!.checks.contains { if case .date = $0.kind { true } else { false } }
    for day in dates ? [today, leapToday] : [today] {
        let type = compiled(reference, day)
        for _ in 0..<(day == today ? valuesPerType : valuesPerType / 4) {
            let value = pool.value(&random)
            let line: JSONValue = [
                "t": .string(reference), "d": .string(day.description), "v": .string(value),
                "F": Encode.result(type.validate(value, stage: .final)),
                "L": Encode.result(type.validate(value, stage: .live)),
                "f": .string(type.format(value)), "fl": .string(type.format(value, stage: .live)),
                "u": .string(type.unformat(value)), "n": .integer(type.length(of: value)),
            ]
            values.append(line)
            valueCount += 1
        }
    }
}
values.close()

// MARK: Types: what each definition says, and the length limit

var typesOut = FileOutput(options.out + "/types.jsonl")
for reference in references {
    let type = compiled(reference, today)
    let d = type.definition
    let limit = type.lengthLimit
    typesOut.append([
        "t": .string(reference),
        "label": Encode.optional(d.label), "help": Encode.optional(d.help), "placeholder": Encode.optional(d.placeholder),
        "keyboard": Encode.optional(d.keyboard?.rawValue), "autocapitalize": Encode.optional(d.autocapitalize?.rawValue),
        "autocomplete": Encode.optional(d.autocomplete?.rawValue), "secure": .bool(d.secure), "timing": .string(type.timing.rawValue),
        "decimal_separator": .string(type.decimalSeparator.rawValue),
        "arguments": .object(JSONObject(type.arguments.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.text)) })),
        "limit": limit.map { l in
            ["min": .integer(l.min), "max": l.max.map { .integer($0) } ?? .null, "unit": .string(l.unit.rawValue),
             "rule": .string(l.rule), "severity": .string(l.severity.rawValue)]
        } ?? .null,
    ])
}
typesOut.close()

// MARK: Keystroke scripts

var stepCount = 0
var edits = FileOutput(options.out + "/edits.jsonl")
let scriptsPerType = Int(110 * options.scale)
for reference in references {
    let name = String(reference.prefix { $0 != "(" })
    let pool = ValuePool(definition: definitions[name]!)
    let type = compiled(reference, today)
    for _ in 0..<scriptsPerType {
        let (script, steps) = EditScripts.script(type, reference: reference, pool: pool, &random)
        edits.append(script)
        stepCount += steps
    }
}
edits.close()

// MARK: Forms

var judgementCount = 0
var formsOut = FileOutput(options.out + "/forms.jsonl")
let judgementsPerForm = Int(260 * options.scale)
for name in usableForms {
    var prepared: [JudgeService.PreparedForm] = []
    for locale in formLocales {
        do {
            prepared.append(try JudgeService.prepare(form: name, in: registry, today: today,
                                                     messages: locale.map { registry.messages(for: $0) }))
        } catch {
            FileOutput.fail("form \(name) (\(locale ?? "own texts")): \(error)")
        }
    }
    let form = registry.forms[name]!.form!
    let pools = Dictionary(uniqueKeysWithValues: form.fields.map { ($0.key, ValuePool(definition: definitions[$0.type.name]!)) })
    for _ in 0..<judgementsPerForm {
        var entry: [String: String] = [:]
        for field in form.fields {
            switch random.weighted([70, 12, 6, 12]) {
            case 0:
                let near = name == "hf-compare" && random.chance(0.8) ? FormGenerator.handValues[field.key] : nil
                entry[field.key] = near.map { random.pick($0) } ?? pools[field.key]!.value(&random)
            case 1: break
            case 2: entry[field.key] = random.pick(["", " ", "\t"])
            default:
                // A value another field of the form has: `same` and `compare` meet equal values.
                let other = random.pick(form.fields)
                entry[field.key] = entry[other.key] ?? pools[other.key]!.value(&random)
            }
        }
        if random.chance(0.1) { entry[random.pick(["extra", "Zebra", "émile", "k0 ", "😀"])] = random.pick(["x", "", " "]) }
        let k = random.below(formLocales.count), validator = prepared[k].validator
        let final = validator.judge(entry, stage: .final)
        let live = validator.judge(entry, stage: .live)
        formsOut.append([
            "f": .string(name), "l": formLocales[k].map(JSONValue.string) ?? .null,
            "v": .object(JSONObject(entry.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            "F": Encode.form(final, keys: validator.fieldKeys),
            "L": Encode.form(live, keys: validator.fieldKeys),
        ])
        judgementCount += 1
    }
}
formsOut.close()

// MARK: Unicode

let unicode = UnicodeTables.document(&random)
FileOutput.write(options.out + "/unicode.json", unicode.serializedBytes() + [0x0A])

let summary: JSONValue = [
    "seed": .string(String(options.seed)), "today": .string(today.description),
    "export_version": .integer(RegistryExport.formatVersion),
    "types": .integer(references.count), "forms": .integer(usableForms.count),
    "values": .integer(valueCount), "edit_scripts": .integer(references.count * scriptsPerType),
    "edit_steps": .integer(stepCount), "judgements": .integer(judgementCount),
    "cases": .integer(valueCount + stepCount + judgementCount),
]
FileOutput.write(options.out + "/summary.json", summary.serializedBytes() + [0x0A])
let seconds = Double((Clock.now - started).components.seconds) + Double((Clock.now - started).components.attoseconds) / 1e18
print("conformance: \(references.count) types, \(usableForms.count) forms; \(valueCount) values, "
      + "\(stepCount) edit steps, \(judgementCount) judgements (\(valueCount + stepCount + judgementCount) cases) "
      + "in \(options.out), \(Int(seconds * 1000)) ms")

enum Clock {
    static var now: ContinuousClock.Instant { ContinuousClock.now }
}
