extension LineParser {
    /// `compare A OP B [as NAME] [message "…"] [warning]`, OP one of `<` `<=` `>` `>=` `=` `!=`.
    mutating func parseCompare() throws(Diagnostic) -> CrossFieldRule {
        let (a, _) = try expectName("the first of two fields to compare")
        let op: ComparisonOperator
        switch cursor.peek?.kind {
        case .comparison(let found)?: op = found
        case .punctuation("=")?: op = .equal
        default: throw expected("an operator: '<', '<=', '>', '>=', '=' or '!='", after: a)
        }
        cursor.advance()
        let (b, _) = try expectName("the second field to compare", after: op.rawValue)
        let options = try parseModifiers(defaultName: "compare", allowFinal: false)
        return CrossFieldRule(kind: .compare(a, op, b), options: options)
    }

    /// `unique A[, B…] [as NAME] [message "…"] [warning]`.
    mutating func parseUnique() throws(Diagnostic) -> CrossFieldRule {
        var fields = [try expectName("the fields whose values must be unique").0]
        while case .punctuation(",")? = cursor.peek?.kind {
            cursor.advance()
            fields.append(try expectName("another field after ','", after: ",").0)
        }
        let options = try parseModifiers(defaultName: "unique", allowFinal: false)
        return CrossFieldRule(kind: .unique(fields), options: options)
    }
}
