/// The translations one locale sees, merged from message catalogs: a key takes the text of
/// the most specific tag that has it (`pt-BR`, then `pt`), and among catalogs of one tag the
/// text of the later one (a plugin folder's over the built-in catalog). A key no catalog
/// gives keeps the type's own text.
///
/// Translations are put into a type's definition before it is compiled
/// (``localize(_:base:)``): a compiled type's message templates are already the
/// translated ones, so judging a value does no lookup at all.
package struct LocaleMessages: Sendable {
    /// The locale asked for, canonical (`pt-BR`).
    package let locale: String
    /// The merged translations.
    package let texts: [MessageKey: String]
    /// The translations of the defaults of every form's rules (`form *.*.ITEM`), by ITEM.
    let ruleTexts: [String: String]

    /// The translations for `locale` among `files`, given lowest precedence first.
    package init(locale: String, files: [MessageFile]) {
        self.locale = locale
        var texts: [MessageKey: String] = [:]
        for tag in LocaleTag.fallbacks(of: locale).reversed() {
            for file in files where file.locale == tag {
                for entry in file.entries { texts[entry.key] = entry.text }
            }
        }
        self.texts = texts
        ruleTexts = Dictionary(uniqueKeysWithValues: texts.compactMap { key, text in
            key.form == "*" && key.owner == "*" ? (key.item, text) : nil
        })
    }

    /// Every translation, key and text, sorted by key and kept apart by control characters no
    /// key or catalog text holds: what a digest of the translations in force is made of (a
    /// validation run records one, so that results judged in older words are not carried
    /// forward).
    package var canonicalText: String {
        texts.map { "\($0.key)\u{1F}\($0.value)" }.sorted().joined(separator: "\u{1E}")
    }

    /// The translation of `key`, or nil.
    package subscript(key: MessageKey) -> String? { texts[key] }

    /// `definition` with its messages, label, help and placeholder translated where a
    /// catalog has them.
    ///
    /// A rule or text the type inherited unchanged from a base also takes the base's
    /// translation (`visa extends credit-card` shows `credit-card.luhn`'s), but one the type
    /// rewrote does not: the base's words would translate another text. `base` gives a
    /// base's resolved definition.
    package func localize(_ definition: FieldTypeDefinition,
                          base: (String) -> FieldTypeDefinition?) -> FieldTypeDefinition {
        guard !texts.isEmpty else { return definition }
        var bases: [FieldTypeDefinition]?
        func translation(_ item: String, sameIn: (FieldTypeDefinition) -> Bool) -> String? {
            if let text = texts[MessageKey(type: definition.name, item: item)] { return text }
            if bases == nil { bases = definition.bases.compactMap(base) }
            for ancestor in bases ?? [] {
                guard sameIn(ancestor) else { return nil }
                if let text = texts[MessageKey(type: ancestor.name, item: item)] { return text }
            }
            return nil
        }
        func rule(_ options: RuleOptions) -> String? {
            translation(options.name) { $0.ruleOptions(named: options.name).contains { $0.message == options.message } }
        }
        var out = definition
        for k in out.masks.indices { out.masks[k].options.message = rule(out.masks[k].options) ?? out.masks[k].options.message }
        for k in out.checks.indices { out.checks[k].options.message = rule(out.checks[k].options) ?? out.checks[k].options.message }
        out.label = translation("label") { $0.label == definition.label } ?? out.label
        out.help = translation("help") { $0.help == definition.help } ?? out.help
        out.placeholder = translation("placeholder") { $0.placeholder == definition.placeholder } ?? out.placeholder
        return out
    }
}

extension LocaleMessages {
    /// `form` with its fields' labels and `required` messages translated: `form
    /// FORM.FIELD.label` and `form FORM.FIELD.required`, else for a field whose form gives no
    /// `required message` of its own, the default's translation (`form *.*.required`). Its
    /// cross-field rules' messages likewise: `form FORM.*.RULE` replaces the message of
    /// every rule called RULE, and the translated defaults (`form *.*.same`…) go into
    /// ``FormDefinition/ruleTexts`` for rules without a message of their own, whose wording
    /// the judge chooses (a `compare`'s depends on its fields' types). The form's own
    /// definition (its version) is left as it was: a judge is built from this one.
    package func localize(_ form: FormDefinition) -> FormDefinition {
        guard !texts.isEmpty else { return form }
        var out = form
        out.ruleTexts = ruleTexts
        for k in out.rules.indices {
            if let text = texts[MessageKey(form: form.name, rule: out.rules[k].options.name)] { out.rules[k].options.message = text }
        }
        let anyRequired = texts[MessageKey.anyRequired]
        for k in out.fields.indices {
            let key = out.fields[k].key
            if let label = texts[MessageKey(form: form.name, field: key, item: "label")] { out.fields[k].label = label }
            if let required = texts[MessageKey(form: form.name, field: key, item: "required")]
                ?? (out.fields[k].requiredMessage == nil ? anyRequired : nil) {
                out.fields[k].requiredMessage = required
            }
        }
        return out
    }
}

extension FieldTypeDefinition {
    /// The options of every mask and check called `name` (several masks may share one).
    package func ruleOptions(named name: String) -> [RuleOptions] {
        masks.map(\.options).filter { $0.name == name } + checks.map(\.options).filter { $0.name == name }
    }
}
