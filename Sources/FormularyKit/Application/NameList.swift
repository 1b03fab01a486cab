/// Names said in a sentence, quoted and joined the way every message of Formulary joins
/// them.
package enum NameList {
    /// `'a', 'b' and 'c'`, or the first `shown` names and how many more.
    package static func quoted(_ names: [String], shown: Int = 3) -> String {
        let quoted = names.prefix(shown).map { "'\($0)'" }
        if names.count > shown { return quoted.joined(separator: ", ") + " and \(ReportNumbers.grouped(names.count - shown)) more" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
    }
}
