import FormularyJSON
import FormularyRules

extension RegistryExport {
    /// `{LOCALE: {"types": {TYPE: {"label", "help", "placeholder", "rules": {RULE: MESSAGE}}},
    /// "forms": {FORM: {FIELD: {"label", "required_message"}, "*": {RULE: MESSAGE}},
    /// "*": {"*": {ITEM: TEXT}}}}}`: for each locale the registry has message catalogs for,
    /// the texts that differ from the exported ones, the catalogs' fallbacks already applied
    /// (a `pt-BR` entry holds what `pt` gives it, a `visa` what `credit-card`'s translation
    /// gives a rule it inherited), so that a runtime only replaces texts.
    ///
    /// The `*` members are the catalogs' keys of forms' rules as they are spelled (`form
    /// FORM.*.RULE`, `form *.*.ITEM`): templates a runtime fills with the fields' labels, as
    /// the judge does (``RuleTexts``), since a `compare`'s default depends on its types.
    static func locales(_ registry: Registry, types: [FieldTypeDefinition], forms: [FormDefinition]) -> JSONValue {
        var out = JSONObject()
        for tag in registry.locales {
            let messages = registry.messages(for: tag)
            var typeTexts = JSONObject()
            for definition in types {
                let localized = messages.localize(definition) { base in
                    if case .success(let d)? = registry.definition(named: base) { return d }
                    return nil
                }
                var o = JSONObject()
                for (key, own, translated) in [("label", definition.label, localized.label), ("help", definition.help, localized.help),
                                               ("placeholder", definition.placeholder, localized.placeholder)]
                where translated != own {
                    o[key] = optional(translated)
                }
                var rules = JSONObject()
                for (own, translated) in zip(definition.masks.map(\.options) + definition.checks.map(\.options),
                                             localized.masks.map(\.options) + localized.checks.map(\.options))
                where translated.message != own.message {
                    rules[own.name] = optional(translated.message)
                }
                if !rules.isEmpty { o["rules"] = .object(rules) }
                if !o.isEmpty { typeTexts[definition.name] = .object(o) }
            }
            var formTexts = JSONObject()
            for form in forms {
                var fields = JSONObject()
                for (own, translated) in zip(form.fields, messages.localize(form).fields) {
                    var o = JSONObject()
                    if translated.label != own.label { o["label"] = optional(translated.label) }
                    if translated.requiredText != own.requiredText { o["required_message"] = .string(translated.requiredText) }
                    if !o.isEmpty { fields[own.key] = .object(o) }
                }
                var rules = JSONObject()
                for rule in form.rules {
                    if let text = messages[MessageKey(form: form.name, rule: rule.options.name)] { rules[rule.options.name] = .string(text) }
                }
                if !rules.isEmpty { fields["*"] = .object(rules) }
                if !fields.isEmpty { formTexts[form.name] = .object(fields) }
            }
            var defaults = JSONObject()
            for item in RuleTexts.items {
                if let text = messages[MessageKey(anyForm: item)] { defaults[item] = .string(text) }
            }
            if !defaults.isEmpty { formTexts["*"] = ["*": .object(defaults)] }
            out[tag] = ["types": .object(typeTexts), "forms": .object(formTexts)]
        }
        return .object(out)
    }
}
