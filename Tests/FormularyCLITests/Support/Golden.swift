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

    /// The differing lines, numbered, as `-expected` / `+actual` pairs.
    static func difference(expected: String, actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(e.count, a.count) {
            let el = i < e.count ? String(e[i]) : nil
            let al = i < a.count ? String(a[i]) : nil
            if el != al {
                out.append("line \(i + 1):")
                if let el { out.append("  -\(el)") } else { out.append("  - (no line)") }
                if let al { out.append("  +\(al)") } else { out.append("  + (no line)") }
            }
            if out.count > 30 { out.append("  …"); break }
        }
        return out.joined(separator: "\n")
    }

    /// A file name for a command path: `types list` → `help-types-list.txt`.
    static func helpFileName(for command: String) -> String {
        "help-" + command.split(separator: " ").joined(separator: "-") + ".txt"
    }
}
