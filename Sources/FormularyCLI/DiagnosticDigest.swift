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

    /// How many diagnostics of one file are shown before the rest are only counted, as
    /// clang stops at 20 errors: a file that is not a plugin file at all would otherwise
    /// bury the first, telling, problem under hundreds of consequences.
    static let perFile = 20

    /// Each diagnostic as `file:line:column: severity: message`, its line and a caret; one
    /// that concerns several types is followed by a note saying how many. At most
    /// ``perFile`` per file, then `… and 1,206 more errors in FILE`. With `limit`, at most
    /// that many diagnostics in all, then a line counting the others.
    func render(limit: Int? = nil, more: String = "") -> String {
        let formatter = DiagnosticFormatter()
        var out = ""
        var cap = DiagnosticCap(perFile: Self.perFile)
        for (diagnostic, types) in entries.prefix(limit ?? entries.count) {
            guard cap.admit(diagnostic) else { continue }
            out += formatter.format(diagnostic) + "\n"
            guard types.count > 1 else { continue }
            let what = diagnostic.severity == .error ? "types cannot be used because of this" : "types have this \(diagnostic.severity.rawValue)"
            out += "note: \(ReportNumbers.grouped(types.count)) \(what): \(NameList.quoted(types))\n"
        }
        out += cap.summary
        if let limit, entries.count > limit {
            let rest = entries.count - limit
            out += "… and \(ReportNumbers.grouped(rest)) more problem\(rest == 1 ? "" : "s")\(more)\n"
        }
        return out
    }

    /// `diagnostics` formatted, at most ``perFile`` of each file, then what was left out.
    static func render(_ diagnostics: [Diagnostic]) -> String {
        var cap = DiagnosticCap(perFile: perFile)
        let shown = diagnostics.filter { cap.admit($0) }
        return DiagnosticFormatter().format(shown) + cap.summary
    }
}

/// Counts the diagnostics of each file, lets the first `perFile` through, and says how
/// many of each severity it held back.
struct DiagnosticCap {
    let perFile: Int
    private var seen: [String: Int] = [:]
    private var held: [(file: String, counts: [Diagnostic.Severity: Int])] = []

    init(perFile: Int) { self.perFile = perFile }

    /// Whether `diagnostic` is shown; if not, it is counted.
    mutating func admit(_ diagnostic: Diagnostic) -> Bool {
        let file = diagnostic.location.file
        seen[file, default: 0] += 1
        guard seen[file]! > perFile else { return true }
        if let index = held.firstIndex(where: { $0.file == file }) {
            held[index].counts[diagnostic.severity, default: 0] += 1
        } else {
            held.append((file, [diagnostic.severity: 1]))
        }
        return false
    }

    /// `… and 1,206 more errors in FILE` for each file that had more than `perFile`
    /// (`… and 3 more errors and 1 more warning in FILE` when both were held back).
    var summary: String {
        held.map { item in
            let parts = [Diagnostic.Severity.error, .warning, .note].compactMap { severity -> String? in
                guard let n = item.counts[severity] else { return nil }
                return "\(ReportNumbers.grouped(n)) more \(severity.rawValue)\(n == 1 ? "" : "s")"
            }
            return "… and \(parts.joined(separator: " and ")) in \(item.file.forTerminal)\n"
        }.joined()
    }
}
