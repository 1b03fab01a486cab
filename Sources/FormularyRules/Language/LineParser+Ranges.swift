extension LineParser {
    /// Parses a range in any of its spellings: `2...60`, `0..<100`, `18...`, `...160`,
    /// `..<10`, `16`, `0<...100`, `1.1<..`, `0<..<1`.
    ///
    /// `bound` turns a token into a bound; it returns nil for a token that cannot be a
    /// bound at all (the range ends there) and throws for one of the wrong sort.
    mutating func parseRange<Bound>(
        example: String,
        bound: (inout LineParser, Token) throws(Diagnostic) -> Arg<Bound>?
    ) throws(Diagnostic) -> RangeSpec<Bound> {
        var lower: Arg<Bound>?
        if let token = cursor.peek, let value = try bound(&self, token) {
            lower = value
            cursor.advance()
        }
        guard let opToken = cursor.peek, case .rangeOperator(let op) = opToken.kind else {
            if let lower { return RangeSpec(lower: lower, upper: lower, upperInclusive: true) }
            throw expected("a range such as \(example)")
        }
        cursor.advance()
        if lower == nil && op.lowerExclusive {
            throw error(LanguageDiagnostic.exclusiveLowerWithoutBound(op.rawValue), at: opToken.location)
        }
        var upper: Arg<Bound>?
        if let token = cursor.peek, let value = try bound(&self, token) {
            upper = value
            cursor.advance()
        }
        if op == .closed, lower == nil, upper == nil {
            throw error(LanguageDiagnostic.rangeWithoutBounds(example: example), at: opToken.location)
        }
        if op == .halfOpen || op == .exclusiveHalfOpen, upper == nil {
            throw error(LanguageDiagnostic.halfOpenWithoutUpper(op.rawValue),
                        at: cursor.peek?.location ?? cursor.endLocation)
        }
        if op == .exclusiveFrom, upper != nil {
            throw error(LanguageDiagnostic.exclusiveFromWithUpper(), at: opToken.location)
        }
        let inclusive = upper == nil || op == .closed || op == .exclusiveClosed
        return RangeSpec(lower: lower, lowerExclusive: op.lowerExclusive, upper: upper,
                         upperInclusive: inclusive)
    }

    /// Bounds of `length`: whole numbers ≥ 0 or integer parameters.
    static func lengthBound(_ parser: inout LineParser, _ token: Token) throws(Diagnostic) -> Arg<Int>? {
        switch token.kind {
        case .number(let text):
            guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text) else {
                throw parser.error(LanguageDiagnostic.lengthBoundNotWhole(text), at: token.location)
            }
            return .value(value)
        case .parameter(let name):
            parser.reference(name, at: token.location, kinds: [.integer])
            return .parameter(name, token.location)
        case .date, .relativeDate:
            throw parser.error(LanguageDiagnostic.boundKind(.length, found: token.displayName), at: token.location)
        default:
            return nil
        }
    }

    /// Bounds of `range`: integers or decimals, or numeric parameters.
    static func numberBound(_ parser: inout LineParser, _ token: Token) throws(Diagnostic) -> Arg<DecimalLiteral>? {
        switch token.kind {
        case .number(let text):
            return .value(DecimalLiteral(text))
        case .parameter(let name):
            parser.reference(name, at: token.location, kinds: [.integer, .decimal])
            return .parameter(name, token.location)
        case .date, .relativeDate:
            throw parser.error(LanguageDiagnostic.boundKind(.range, found: token.displayName), at: token.location)
        default:
            return nil
        }
    }

    /// Bounds of `date`: `2000-01-31`, `today±Nu`, or string parameters holding either.
    static func dateBound(_ parser: inout LineParser, _ token: Token) throws(Diagnostic) -> Arg<DateBound>? {
        switch token.kind {
        case .date(let date):
            return .value(.absolute(year: date.year, month: date.month, day: date.day))
        case .relativeDate(let offset, let unit):
            return .value(.today(offset: offset, unit: unit))
        case .parameter(let name):
            parser.reference(name, at: token.location, kinds: [.string])
            return .parameter(name, token.location)
        case .number:
            throw parser.error(LanguageDiagnostic.boundKind(.date, found: token.displayName), at: token.location)
        default:
            return nil
        }
    }
}

extension DateBound {
    /// Parses a date bound as written in a range or held by a string parameter:
    /// `2000-01-31`, `today`, `today+12y`, `today-18y`, `today+6m`, `today-30d`.
    package init?(parsing text: String) {
        if let date = CivilDate(iso: text) {
            self = .absolute(year: date.year, month: date.month, day: date.day)
        } else if text == "today" {
            self = .today(offset: 0, unit: .days)
        } else if text.hasPrefix("today"), let (offset, unit) = LineScanner.relativeOffset(text) {
            self = .today(offset: offset, unit: unit)
        } else {
            return nil
        }
    }
}
