extension MessageFile {
    /// The placeholders any message may use whose English text is a default one (a check
    /// without `message`): the value, the check's bounds and the type's parameters.
    static let defaultPlaceholders = ["value", "min", "max"]

    /// Warnings about what the file's keys name among the types and forms it is used with:
    /// a type, rule, form or field there is not (with a "did you mean"), and placeholders the
    /// English text of the key does not have, which would show as written. Fix-its replace
    /// the key as spelled, after `form` for a form's key.
    ///
    /// - Parameters:
    ///   - typeNames: every type's name, for suggestions.
    ///   - type: a type's resolved definition, nil when it has none (or does not resolve).
    ///   - formNames: every form's name.
    ///   - form: a form's definition.
    package func lint(typeNames: [String], type: (String) -> FieldTypeDefinition?,
                      formNames: [String], form: (String) -> FormDefinition?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        func warn(_ message: DiagnosticMessage, _ entry: Entry) {
            out.append(source.diagnostic(message, at: entry.location))
        }
        func unknown(_ what: String, _ word: String, in candidates: [String], _ entry: Entry,
                     replace: (String) -> String) {
            let fixIt = Suggestion.nearest(to: word, in: candidates).map {
                Diagnostic.FixIt(Suggestion.didYouMean($0), replacing: entry.location, with: replace($0))
            }
            warn(MessagesDiagnostic.unknownKey(what, fixIt: fixIt, note: nil), entry)
        }
        for entry in entries {
            let key = entry.key
            let english: [String?]
            var allowed: [String] = []
            if key.form == "*" {
                guard let text = RuleTexts.englishText(key.item) else {
                    unknown("'\(key.item)' is not a default message of forms' rules", key.item, in: RuleTexts.items, entry) {
                        "*.*.\($0)"
                    }
                    continue
                }
                english = [text]
            } else if let formName = key.form {
                guard let definition = form(formName) else {
                    unknown("no form '\(formName)'", formName, in: formNames, entry) { "\($0).\(key.owner).\(key.item)" }
                    continue
                }
                let ruleNames = definition.rules.map(\.options.name).reduce(into: [String]()) {
                    if !$0.contains($1) { $0.append($1) }
                }
                if key.owner == "*" {
                    let rules = definition.rules.filter { $0.options.name == key.item }
                    guard !rules.isEmpty else {
                        unknown("form '\(formName)' has no rule '\(key.item)'", key.item, in: ruleNames, entry) {
                            "\(formName).*.\($0)"
                        }
                        continue
                    }
                    english = rules.map(\.options.message)
                    allowed = rules.flatMap { RuleTexts.placeholders(of: $0.kind) }
                    check(entry, allowed: allowed + english.compactMap { $0 }.flatMap(Self.placeholders))
                    continue
                }
                guard let field = definition.fields.first(where: { $0.key == key.owner }) else {
                    unknown("form '\(formName)' has no field '\(key.owner)'", key.owner, in: definition.fields.map(\.key),
                            entry) { "\(formName).\($0).\(key.item)" }
                    continue
                }
                let items = ["required", "label"]
                guard items.contains(key.item) else {
                    let what = "'\(key.item)' is not a message of a form field: they are \(items.map { "'\($0)'" }.joined(separator: ", "))"
                    if ruleNames.contains(key.item) {
                        // A rule's message is the form's, whichever field it is reported on.
                        let fixIt = Diagnostic.FixIt(Suggestion.didYouMean("form \(formName).*.\(key.item)"),
                                                     replacing: entry.location, with: "\(formName).*.\(key.item)")
                        warn(MessagesDiagnostic.unknownKey(what, fixIt: fixIt, note: nil), entry)
                    } else {
                        unknown(what, key.item, in: items, entry) { "\(formName).\(key.owner).\($0)" }
                    }
                    continue
                }
                english = [key.item == "label" ? field.label ?? field.key : field.requiredMessage]
                allowed = key.item == "required" ? ["label"] : []
            } else {
                guard let definition = type(key.owner) else {
                    unknown("no type '\(key.owner)'", key.owner, in: typeNames, entry) { "\($0).\(key.item)" }
                    continue
                }
                if MessageKey.texts.contains(key.item) {
                    let text = key.item == "label" ? definition.label : key.item == "help" ? definition.help : definition.placeholder
                    guard let text else {
                        warn(MessagesDiagnostic.unknownKey("type '\(key.owner)' has no \(key.item) to translate", fixIt: nil, note: nil), entry)
                        continue
                    }
                    english = [text]
                } else {
                    let rules = TypeResolver.ruleNames(of: definition)
                    guard rules.contains(key.item) else {
                        unknown("'\(key.item)' is not a rule of type '\(key.owner)'", key.item, in: rules + MessageKey.texts,
                                entry) { "\(key.owner).\($0)" }
                        continue
                    }
                    english = definition.ruleOptions(named: key.item).map(\.message)
                    if english.contains(where: { $0 == nil }) {
                        allowed = Self.defaultPlaceholders + definition.parameters.map(\.name)
                    }
                }
            }
            check(entry, allowed: allowed + english.compactMap { $0 }.flatMap(Self.placeholders))
        }
        return out

        /// Warns about each placeholder of the entry's text that is not `allowed`.
        func check(_ entry: Entry, allowed: [String]) {
            for name in Self.placeholders(in: entry.text) where !allowed.contains(name) {
                var seen = Set<String>()
                warn(MessagesDiagnostic.unknownPlaceholder(name, key: entry.key.description,
                                                           known: allowed.filter { seen.insert($0).inserted }), entry)
            }
        }
    }

    /// The `{NAME}` placeholders of a text, in order, each once.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        MessageTemplate.scan(text, text: { _ in }, placeholder: { name in
            if NameRules.isValid(name), !names.contains(name) { names.append(name) }
        })
        return names
    }
}
