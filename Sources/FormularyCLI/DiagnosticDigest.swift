import FormularyKit
import FormularyRules

/// The diagnostics of many types, each said once.
///
/// Types often share a problem: every type below an `extends` chain that went too deep
/// fails with the one `extends-too-deep` diagnostic, and a warning in a base comes back for
/// each type that extends it. A folder of thousands of such types would otherwise print
/// thousands of identical messages; the digest prints each once, followed by a note of how
/// many types it concerns.
struct DiagnosticDigest {
    private(set) var entries: [(diagnostic: Diagnostic, types: [String])] = []
    private var positions: [Diagnostic: Int] = [:]

    /// Adds the diagnostics of type `name` (in their order; repeated ones only count it).
    mutating func add(_ diagnostics: [Diagnostic], of name: String) {
        for diagnostic in diagnostics {
            if let index = positions[diagnostic] {
                if entries[index].types.last != name { entries[index].types.append(name) }
            } else {
                positions[diagnostic] = entries.count
                entries.append((diagnostic, [name]))
            }
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    var containsErrors: Bool { entries.contains { $0.diagnostic.severity == .error } }

    /// Each diagnostic as `file:line:column: severity: message`, its line and a caret; one
    /// that concerns several types is followed by a note saying how many. With `limit`, at
    /// most that many diagnostics, then a line counting the others.
    func render(limit: Int? = nil, more: String = "") -> String {
        let formatter = DiagnosticFormatter()
        var out = ""
        for (diagnostic, types) in entries.prefix(limit ?? entries.count) {
            out += formatter.format(diagnostic) + "\n"
            guard types.count > 1 else { continue }
            let what = diagnostic.severity == .error ? "types cannot be used because of this" : "types have this \(diagnostic.severity.rawValue)"
            out += "note: \(types.count) \(what): \(NameList.quoted(types))\n"
        }
        if let limit, entries.count > limit {
            let rest = entries.count - limit
            out += "… and \(rest) more problem\(rest == 1 ? "" : "s")\(more)\n"
        }
        return out
    }
}
