import Foundation
import Testing

/// Golden files: expected output kept in `Tests/FormularyCLITests/Golden/`, compared
/// byte for byte. Run the suite with `FORMULARY_UPDATE_GOLDEN=1` to rewrite them from the
/// current output, then review the diff with git before committing it.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    static var isUpdating: Bool { ProcessInfo.processInfo.environment["FORMULARY_UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with the golden file `name` (or writes it when updating).
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        if isUpdating {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("cannot write golden file \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("""
                missing golden file Golden/\(name); create it by running the suite with \
                FORMULARY_UPDATE_GOLDEN=1 (e.g. FORMULARY_UPDATE_GOLDEN=1 swift test --filter FormularyCLITests), \
                then review and commit it. The output was:
                \(actual)
                """, sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            Issue.record("""
                output differs from Golden/\(name) (rerun with FORMULARY_UPDATE_GOLDEN=1 if the change is intended):
                \(difference(expected: expected, actual: actual))
                """, sourceLocation: sourceLocation)
        }
    }

    /// The differing region: the lines common to both ends are dropped, and what is left
    /// is shown as `-expected` and `+actual` lines with the number of the first one (so an
    /// inserted command shows as one added line, not as every line after it changed).
    static func difference(expected: String, actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < e.count && prefix < a.count && e[prefix] == a[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < e.count - prefix && suffix < a.count - prefix
                && e[e.count - 1 - suffix] == a[a.count - 1 - suffix] { suffix += 1 }
        let removed = e[prefix..<(e.count - suffix)].map { "  -" + $0 }
        let added = a[prefix..<(a.count - suffix)].map { "  +" + $0 }
        var lines = ["from line \(prefix + 1):"] + removed.prefix(40) + added.prefix(40)
        if removed.count > 40 || added.count > 40 { lines.append("  …") }
        return lines.joined(separator: "\n")
    }

    /// A file name for a command path: `types list` → `help-types-list.txt`.
    static func helpFileName(for command: String) -> String {
        "help-" + command.split(separator: " ").joined(separator: "-") + ".txt"
    }
}
