import FormularyKit

/// The latest verdict on an entry, as `entries list` and `entries show` print it.
extension EntryRunVerdict {
    var errorCount: Int { results.filter { $0.rule.severity == .error }.count }
    var warningCount: Int { results.count - errorCount }

    var summary: String {
        let run = "run \(self.run.id)"
        switch verdict {
        case .invalid:
            let n = errorCount
            return "invalid (\(run): \(n) error\(n == 1 ? "" : "s"))"
        case .warnings:
            let n = warningCount
            return "valid with \(n) warning\(n == 1 ? "" : "s") (\(run))"
        case .valid, .incomplete:   // a run judges in the final stage: never incomplete
            return "valid (\(run))"
        }
    }
}
