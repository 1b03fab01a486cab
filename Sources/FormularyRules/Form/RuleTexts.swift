/// The messages of a form's own rules (`required` and the cross-field rules): their English
/// defaults, the placeholders each fills in, and how a failed rule's message is made.
///
/// A field is named by its form `label`, else by its key in quotes (`'email'`), so that a
/// message speaks as the form does. A message catalog translates the defaults for every
/// form with `form *.*.ITEM` (ITEM one of ``english``'s items) and one form's rule, by the
/// rule's name, with `form FORM.*.RULE` (``LocaleMessages/localize(_:)``).
package enum RuleTexts {
    /// The English defaults, by catalog item, in the order the docs and the lint list them.
    package static let english: [(item: String, text: String)] = [
        ("required", "{label} is required"),
        ("same", "{a} and {b} differ"),
        ("require", "{label} is required when {when} is given"),
        ("compare-before", "{a} must be before {b}"),
        ("compare-on-or-before", "{a} must be on or before {b}"),
        ("compare-after", "{a} must be after {b}"),
        ("compare-on-or-after", "{a} must be on or after {b}"),
        ("compare-same-date", "{a} must be the same date as {b}"),
        ("compare-other-date", "{a} must be another date than {b}"),
        ("compare-less", "{a} must be less than {b}"),
        ("compare-at-most", "{a} must be at most {b}"),
        ("compare-greater", "{a} must be greater than {b}"),
        ("compare-at-least", "{a} must be at least {b}"),
        ("compare-equal", "{a} must equal {b}"),
        ("compare-differ", "{a} must differ from {b}"),
        // `unique`'s `{entries}` is one of the three below: English, like most languages,
        // words one other entry and several differently.
        ("unique", "the same {fields} as {entries}"),
        ("unique-entry", "entry {ids}"),
        ("unique-entries", "entries {ids}"),
        ("unique-more", "entries {ids} and {more} more"),
    ]

    /// ``english`` by item.
    static let englishByItem = Dictionary(uniqueKeysWithValues: english.map { ($0.item, $0.text) })

    /// The items of ``english``.
    package static var items: [String] { english.map(\.item) }

    /// The English default of `item`, or nil for an item there is not.
    package static func englishText(_ item: String) -> String? { englishByItem[item] }

    /// The placeholders a rule of `kind` fills in, in its own message and its translations.
    package static func placeholders(of kind: CrossFieldRule.Kind) -> [String] {
        switch kind {
        case .same, .compare: ["a", "b"]
        case .require: ["label", "when"]
        case .unique: ["fields", "entries"]
        }
    }

    /// The placeholders the default text `item` fills in.
    package static func placeholders(ofItem item: String) -> [String] {
        englishText(item).map(MessageFile.placeholders(in:)) ?? []
    }

    /// The item of a `compare` rule's default: by the operator, worded for dates when both
    /// sides are read as dates, else for numbers (and text).
    package static func compareItem(_ op: ComparisonOperator, _ reading: ComparisonReading) -> String {
        let dates = reading == .date
        let wording = switch op {
        case .less: dates ? "before" : "less"
        case .lessOrEqual: dates ? "on-or-before" : "at-most"
        case .greater: dates ? "after" : "greater"
        case .greaterOrEqual: dates ? "on-or-after" : "at-least"
        case .equal: dates ? "same-date" : "equal"
        case .notEqual: dates ? "other-date" : "differ"
        }
        return "compare-" + wording
    }

    /// How a message names a field: its label, else its key in quotes.
    package static func name(_ field: FormField) -> String { field.label ?? "'\(field.key)'" }

    /// `template` with the `{NAME}`s of `names` filled in. Any other `{…}` is left as
    /// written (`{value}` too: a rule's message names fields, never a value).
    package static func fill(_ template: String, _ names: [String: String]) -> String {
        var out = ""
        MessageTemplate.scan(template, text: { out += $0 }, placeholder: { out += names[$0] ?? "{\($0)}" })
        return out
    }

    /// The template of a rule: its own `message` (or the locale's translation of it), else
    /// the form's translation of the default `item`, else the English default.
    static func template(_ options: RuleOptions, item: String, in form: FormDefinition) -> String {
        options.message ?? defaultText(item, in: form)
    }

    /// The default `item` in the form's locale: its translation, else the English text.
    static func defaultText(_ item: String, in form: FormDefinition) -> String {
        form.ruleTexts[item] ?? englishByItem[item]!
    }

    /// The message of a failed `unique`: `template` with `{fields}` (the fields' names, with
    /// commas) and `{entries}`, the other entries' ids (``ids``, at most a few, and how many
    /// there are in all, `count`). A template without `{entries}` (a rule's own message) is
    /// followed by them in parentheses, so that the ids are always there.
    package static func uniqueMessage(_ template: String, fields: [String], ids: [Int64], count: Int,
                              texts: (String) -> String) -> String {
        let item = count > ids.count ? "unique-more" : count == 1 ? "unique-entry" : "unique-entries"
        let entries = fill(texts(item), ["ids": ids.map(String.init).joined(separator: ", "),
                                         "more": String(count - ids.count)])
        let message = fill(template, ["fields": fields.joined(separator: ", "), "entries": entries])
        return MessageFile.placeholders(in: template).contains("entries") ? message : "\(message) (\(entries))"
    }
}
