import FormularyJSON
import FormularyRules

/// The whole registry as one JSON document, for client apps that drive their text fields
/// from the same definitions (`formulary export`; the format is documented in
/// `docs/export.md`).
///
/// Every type is exported resolved (after `extends`), with its descriptive directives,
/// parameters, normalization, mask and checks; every form with its fields and cross-field
/// rules. Members are written in a fixed order and types and forms are sorted by name, so
/// exporting the same registry twice gives the same bytes.
public enum RegistryExport {
    /// The value of `formulary_export_version`. Raised when a change could break a client
    /// that reads the previous format; adding members does not raise it.
    package static let formatVersion = 2

    /// A type or form that could not be exported because its definition has errors.
    public struct Unavailable: Sendable, Hashable {
        /// Whether a type or a form was left out.
        public enum Kind: String, Sendable { case type, form }
        /// A type or a form.
        public var kind: Kind
        /// Its name.
        public var name: String
        /// The file that declares it, as diagnostics show it.
        public var file: String
        /// The error messages, `file:line:column: message`.
        public var problems: [String]
    }

    /// The export document, and what had to be left out of it.
    public struct Export: Sendable {
        /// The document: `formulary_export_version`, `types`, `forms`, `unavailable` and
        /// `locales`.
        public var document: JSONValue
        /// The types and forms left out, by kind and name.
        public var unavailable: [Unavailable]

        /// The document as compact JSON text followed by a newline.
        public var bytes: [UInt8] {
            var out = document.serializedBytes()
            out.append(0x0A)
            return out
        }
    }

    /// Builds the export of `registry`.
    ///
    /// - Parameter today: used only to compile each type once with its default arguments,
    ///   so that a type whose checks cannot compile (a bad regex, a contradiction) is listed
    ///   under `unavailable` rather than handed to clients. Date ranges are exported as
    ///   written (`today-12y`), not resolved.
    package static func make(_ registry: Registry, today: CivilDate) -> Export {
        var types: [JSONValue] = []
        var forms: [JSONValue] = []
        var unavailable: [Unavailable] = []
        var exported: (types: [FieldTypeDefinition], forms: [FormDefinition]) = ([], [])

        for name in registry.typeNames {
            let entry = registry.type(named: name)!
            let errors = registry.lint(type: name, today: today).filter { $0.severity == .error }
            guard errors.isEmpty, case .success(let definition)? = registry.definition(named: name) else {
                unavailable.append(Unavailable(kind: .type, name: name, file: entry.file,
                                               problems: errors.map(describe)))
                continue
            }
            types.append(type(definition, source: entry.source))
            exported.types.append(definition)
        }

        for name in registry.forms.keys.sorted() {
            let entry = registry.forms[name]!
            let errors = registry.lint(form: name).filter { $0.severity == .error }
            guard errors.isEmpty, let form = entry.form else {
                unavailable.append(Unavailable(kind: .form, name: name, file: entry.file,
                                               problems: errors.map(describe)))
                continue
            }
            forms.append(self.form(form, source: entry.source, registry: registry))
            exported.forms.append(form)
        }

        let document: JSONValue = [
            "formulary_export_version": .integer(formatVersion),
            "types": .array(types),
            "forms": .array(forms),
            "unavailable": .array(unavailable.map { u in
                ["kind": .string(u.kind.rawValue), "name": .string(u.name), "file": .string(u.file),
                 "problems": .array(u.problems.map(JSONValue.string))]
            }),
            "locales": locales(registry, types: exported.types, forms: exported.forms),
        ]
        return Export(document: document, unavailable: unavailable)
    }

    // MARK: Types

    /// One resolved type. Examples of `secure` types are left out: they are values of a
    /// secret type, and no output may carry those.
    static func type(_ d: FieldTypeDefinition, source: TypeSource) -> JSONValue {
        var o = JSONObject()
        o["name"] = .string(d.name)
        o["version"] = .string(Registry.version(of: d))
        o["source"] = .string(source.kind)
        o["extends"] = .array(d.bases.map(JSONValue.string))
        o["label"] = optional(d.label)
        o["help"] = optional(d.help)
        o["placeholder"] = optional(d.placeholder)
        o["keyboard"] = optional(d.keyboard?.rawValue)
        o["autocapitalize"] = optional(d.autocapitalize?.rawValue)
        o["autocomplete"] = optional(d.autocomplete?.rawValue)
        o["secure"] = .bool(d.secure)
        o["timing"] = .string((d.timing ?? .leaving).rawValue)
        // Always the separator in effect, so that a runtime needs no default of its own.
        o["decimal_separator"] = .string((d.decimalSeparator ?? .point).rawValue)
        o["parameters"] = .array(d.parameters.map { p in
            ["name": .string(p.name), "kind": .string(p.defaultValue.kind.rawValue),
             "default": parameterValue(p.defaultValue), "default_text": .string(p.defaultValue.text)]
        })
        o["normalize"] = .array(d.normalization.map(normalizeStep))
        // `mask` is the last mask (the default, and for most types the only one), as before
        // masks could be chosen by the value; `masks` lists them all with their conditions.
        o["mask"] = d.mask.map { mask($0, withCondition: false) } ?? .null
        o["masks"] = .array(d.masks.map { mask($0, withCondition: true) })
        o["checks"] = .array(d.checks.map { check in
            var c = JSONObject()
            c["rule"] = .string(check.options.name)
            c["kind"] = .string(kindName(check.kind))
            c["arguments"] = arguments(check.kind)
            for (key, value) in ruleOptions(check.options) where key != "rule" { c[key] = value }
            c["if"] = check.options.condition.map { ["parameter": .string($0.parameter), "equals": .string($0.value)] } ?? .null
            return .object(c)
        })
        o["examples"] = .array(d.secure ? [] : d.examples.map(example))
        return .object(o)
    }

    /// `{"pattern", "typing_pattern", "checks_fill", "rule", "severity", "final_only", "message"}`,
    /// and with `withCondition` `"when"`: null or `{"pattern", "flags", "automaton"}` (`i`,
    /// `x`, `ix` or empty).
    static func mask(_ mask: MaskRule, withCondition: Bool) -> JSONValue {
        var m = JSONObject()
        // Number groups are a typing aid of FieldEditor; a runtime that formats sees digit slots.
        m["pattern"] = .string(mask.slotPattern)
        // As written, number groups included: what an editor pads while the user types.
        m["typing_pattern"] = .string(mask.pattern)
        m["checks_fill"] = .bool(mask.checksFill)
        for (key, value) in ruleOptions(mask.options) { m[key] = value }
        if withCondition {
            m["when"] = mask.condition.map { condition -> JSONValue in
                ["pattern": .string(condition.source), "flags": .string(flagText(condition.flags)),
                 "automaton": automaton(condition.source, condition.flags)]
            } ?? .null
        }
        return .object(m)
    }

    /// `rule`, `severity`, `final_only`, `message` (the template, or null for the default).
    static func ruleOptions(_ options: RuleOptions) -> JSONObject {
        ["rule": .string(options.name), "severity": .string(options.severity.rawValue),
         "final_only": .bool(options.finalOnly), "message": optional(options.message)]
    }

    static func normalizeStep(_ step: NormalizeStep) -> JSONValue {
        switch step {
        case .trim: ["step": "trim"]
        case .collapseSpaces: ["step": "collapse-spaces"]
        case .stripSpaces: ["step": "strip-spaces"]
        case .strip(let characters): ["step": "strip", "characters": .string(characters)]
        case .uppercase: ["step": "uppercase"]
        case .lowercase: ["step": "lowercase"]
        case .capitalize: ["step": "capitalize"]
        }
    }

    static func example(_ e: Example) -> JSONValue {
        var o = JSONObject()
        o["value"] = .string(e.value)
        o["stage"] = .string(e.live ? "live" : "final")
        switch e.expectation {
        case .accept(let formats):
            o["expect"] = "accept"
            o["formats"] = optional(formats)
        case .reject(let rules):
            o["expect"] = "reject"
            o["rules"] = .array(rules.map(JSONValue.string))
        }
        return .object(o)
    }

    // MARK: Forms

    static func form(_ f: FormDefinition, source: TypeSource, registry: Registry) -> JSONValue {
        var o = JSONObject()
        o["name"] = .string(f.name)
        o["version"] = .string(Registry.version(of: f))
        o["source"] = .string(source.kind)
        o["label"] = optional(f.label)
        o["fields"] = .array(f.fields.map { field in
            var (secure, autocomplete) = (false, Autocomplete?.none)
            if case .success(let d)? = registry.definition(named: field.type.name) {
                (secure, autocomplete) = (d.secure, d.autocomplete)
            }
            return [
                "key": .string(field.key),
                "type": .string(field.type.name),
                "arguments": .object(JSONObject(field.type.arguments.map { ($0.name, parameterValue($0.value)) })),
                "type_reference": .string(field.type.description),
                // The arguments' exact texts and kinds (JSON numbers lose `1.50`'s zero).
                "argument_list": .array(field.type.arguments.map { argument in
                    ["name": .string(argument.name), "kind": .string(argument.value.kind.rawValue),
                     "text": .string(argument.value.text)]
                }),
                "required": .bool(field.required),
                "required_message": .string(field.requiredText),
                "label": optional(field.label),
                "secure": .bool(secure),
                "autocomplete": optional(autocomplete?.rawValue),
                "timing": optional(field.timing?.rawValue),
            ]
        })
        o["rules"] = .array(f.rules.map { rule in
            var r = JSONObject()
            r["rule"] = .string(rule.options.name)
            var op = JSONValue.null
            switch rule.kind {
            case .same(let a, let b):
                r["kind"] = "same"
                r["fields"] = [.string(a), .string(b)]
                r["when"] = .null
            case .require(let fields, let trigger):
                r["kind"] = "require"
                r["fields"] = .array(fields.map(JSONValue.string))
                r["when"] = .string(trigger)
            case .compare(let a, let comparison, let b):
                r["kind"] = "compare"
                r["fields"] = [.string(a), .string(b)]
                r["when"] = .null
                op = .string(comparison.rawValue)
            case .unique(let fields):
                r["kind"] = "unique"
                r["fields"] = .array(fields.map(JSONValue.string))
                r["when"] = .null
            }
            r["operator"] = op
            for (key, value) in ruleOptions(rule.options) where key != "rule" { r[key] = value }
            return .object(r)
        })
        return .object(o)
    }

    // MARK: Values

    static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// Integers and decimals as JSON numbers with their exact source text; strings as strings.
    static func parameterValue(_ value: ParameterValue) -> JSONValue {
        switch value {
        case .integer(let text), .decimal(let text): number(text)
        case .string(let text): .string(text)
        }
    }

    /// The text as a JSON number when it is one (`-12`, `0.5`), else as a string, so the
    /// document is valid JSON whatever the rule language accepts.
    static func number(_ text: String) -> JSONValue {
        if let parsed = try? JSONValue(parsing: text), parsed.numberText == text { return .number(text) }
        return .string(text)
    }

    static func describe(_ d: Diagnostic) -> String {
        "\(d.location.file):\(d.location.line):\(d.location.column): \(d.text)"
    }
}
