import FormularyRules

/// Forms over the generated and built-in types: required fields, labels and timings, and
/// every cross-field rule (`same`, `require … when`, `compare` with each operator and
/// reading, `unique`) with their options and messages that name fields by placeholders;
/// and a message catalog of their own that translates some of them.
enum FormGenerator {
    static func forms(count: Int, types: [String], definitions: [String: FieldTypeDefinition],
                      _ random: inout SeededRandom) -> [String] {
        var forms: [String] = []
        for index in 0..<count {
            var lines = ["form gf-\(index)"]
            if random.chance(0.5) { lines.append("label \"Form \(index)\"") }
            var fields: [(key: String, type: String)] = []
            for k in 0..<random.int(2...6) {
                let type = random.pick(types)
                let key = "k\(k)"
                fields.append((key, type))
                var line = "field \(key) \(type)"
                if random.chance(0.4) { line += " required" }
                if random.chance(0.4) { line += " label \"Field \(k)\"" }
                if random.chance(0.15) { line += " timing " + random.pick(["typing", "leaving", "submit"]) }
                lines.append(line)
            }
            // Pairs that read alike compare; same-typed pairs make `same` interesting.
            func reading(_ type: String) -> String {
                let name = String(type.prefix { $0 != "(" })
                guard let checks = definitions[name]?.checks.map(\.kind) else { return "text" }
                return ComparisonReading(checks: checks).rawValue
            }
            for _ in 0..<random.int(0...4) {
                let a = random.pick(fields), b = random.pick(fields)
                guard a.key != b.key else { continue }
                var rule: String
                switch random.int(0...3) {
                case 0: rule = "same \(a.key) \(b.key)"
                case 1:
                    let others = fields.filter { $0.key != a.key }.map(\.key)
                    rule = "require \(others.prefix(random.int(1...max(1, others.count))).joined(separator: " ")) when \(a.key)"
                case 2:
                    // Another field read alike when there is one: dates meet dates.
                    let alike = fields.filter { $0.key != a.key && reading($0.type) == reading(a.type) }
                    let b = alike.isEmpty ? b : random.pick(alike)
                    let ra = reading(a.type), rb = reading(b.type)
                    guard ra == rb || (ra != "date" && rb != "date") else { continue }
                    rule = "compare \(a.key) \(random.pick(["<", "<=", ">", ">=", "=", "!="])) \(b.key)"
                default: rule = "unique \(a.key), \(b.key)"
                }
                if random.chance(0.3) { rule += " as r\(random.int(0...99))" }
                if random.chance(0.3) { rule += " message \"\(random.pick(messages))\"" }
                if random.chance(0.25) { rule += " warning" }
                lines.append(rule)
            }
            forms.append(lines.joined(separator: "\n") + "\n")
        }
        return forms
    }

    /// A form whose `compare` rules take every operator in both wordings (dates; numbers and
    /// text), with and without labels, beside `same` and `require`.
    static let handWritten = """
        form hf-compare
        label "Comparisons"
        field starts   iso-date    label "Start"
        field ends     iso-date
        field month    exp-date    label "Card month"
        field count    age         label "Count"
        field limit    decimal
        field name     name
        field other    name        label "Other name"
        compare starts < ends
        compare starts <= month
        compare ends > starts      as after
        compare starts >= ends     as not-before
        compare starts = ends      as same-day
        compare starts != ends     as other-day
        compare count < limit
        compare count <= limit     as at-most
        compare count > limit      as greater
        compare count >= limit     as at-least   warning
        compare count = limit      as equal
        compare count != limit     as differ
        compare name < other       as text
        same name other
        require limit ends when count

        """

    /// Values of `handWritten`'s fields, valid and near each other (today is 2026-11-29), so
    /// that its comparisons are judged, and fail, often.
    static let handValues: [String: [String]] = [
        "starts": ["2026-12-01", "2026-12-02", "2026-11-30"], "ends": ["2026-12-01", "2026-12-02", "2026-11-30"],
        "month": ["12/26", "11/26", "01/27"], "count": ["30", "31", "29"], "limit": ["30", "30.00", "30.5", "29.99"],
        "name": ["Ada", "Bob", " ada "], "other": ["Ada", "Bob"],
    ]

    /// Own messages and translations: plain, with each rule's placeholders, with those of
    /// another rule, and with `{value}`, which a rule's message leaves as written.
    static let messages = ["Rule says no", "{a} vs {b}: no", "{label} needs {when}", "{fields} ({entries})", "{value} {x} {a"]

    /// A catalog (`de-CH.messages`) for `forms`: some fields' labels and `required`
    /// messages, some rules by name (`form FORM.*.RULE`), and some defaults of every form
    /// (`form *.*.ITEM`), so that Swiss German takes its own keys, then German's.
    static func catalog(_ forms: [FormDefinition], _ random: inout SeededRandom) -> String {
        var lines = ["form *.*.same = \"CH: {a} ≠ {b}\"", "form *.*.compare-before = \"CH: {a} vor {b}\"",
                     "form *.*.compare-less = \"CH: {a} < {b}\"", "form *.*.require = \"CH: {label}, da {when}\""]
        for form in forms {
            for field in form.fields {
                if random.chance(0.25) { lines.append("form \(form.name).\(field.key).label = \"Feld \(field.key)\"") }
                if random.chance(0.15) { lines.append("form \(form.name).\(field.key).required = \"{label} fehlt\"") }
            }
            var named = Set<String>()
            for rule in form.rules where named.insert(rule.options.name).inserted && random.chance(0.4) {
                lines.append("form \(form.name).*.\(rule.options.name) = \"CH \(random.pick(messages))\"")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
