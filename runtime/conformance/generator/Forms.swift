import FormularyRules

/// Forms over the generated and built-in types: required fields, labels and timings, and
/// every cross-field rule (`same`, `require … when`, `compare` with each operator and
/// reading, `unique`) with their options.
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
                if random.chance(0.2) { line += " label \"Field \(k)\"" }
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
                    let ra = reading(a.type), rb = reading(b.type)
                    guard ra == rb || (ra != "date" && rb != "date") else { continue }
                    rule = "compare \(a.key) \(random.pick(["<", "<=", ">", ">=", "=", "!="])) \(b.key)"
                default: rule = "unique \(a.key), \(b.key)"
                }
                if random.chance(0.3) { rule += " as r\(random.int(0...99))" }
                if random.chance(0.3) { rule += " message \"Rule says no\"" }
                if random.chance(0.25) { rule += " warning" }
                lines.append(rule)
            }
            forms.append(lines.joined(separator: "\n") + "\n")
        }
        return forms
    }
}
