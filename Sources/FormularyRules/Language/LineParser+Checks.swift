extension LineParser {
    static let charsetClasses = ["digits", "letters", "marks", "spaces", "punctuation", "alphanumerics"]

    /// `length`, `integer`, `decimal`, `range`, `pattern`, `charset`, `one-of`, `date`,
    /// `checksum`, each followed by the rule modifiers.
    mutating func parseCheck(_ keyword: String) throws(Diagnostic) -> CheckRule {
        let kind: CheckKind
        switch keyword {
        case "length":
            let range = try parseRange(example: "1...100, 18... or ...160", bound: Self.lengthBound)
            var unit = LengthUnit.graphemes
            if let word = cursor.peek?.word, !Self.modifierWords.contains(word) {
                let units = LengthUnit.allCases.map(\.rawValue)
                unit = LengthUnit(rawValue: try expectChoice(units, what: "length unit", id: .unknownLengthUnit).0)!
            }
            kind = .length(range, unit)
        case "integer":
            kind = .integer
        case "decimal":
            var places: Arg<Int>?
            if let placesToken = cursor.take(word: "places") {
                switch cursor.peek?.kind {
                case .parameter(let name):
                    reference(name, at: cursor.peek!.location, kinds: [.integer])
                    places = .parameter(name, cursor.peek!.location)
                case .number(let text) where text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) && Int(text) != nil:
                    places = .value(Int(text)!)
                default:
                    throw expected("a whole number of decimal places", after: placesToken.text)
                }
                cursor.advance()
            }
            kind = .decimal(places: places)
        case "range":
            kind = .range(try parseRange(example: "0...100 or 0<..<1", bound: Self.numberBound))
        case "pattern":
            let not = cursor.take(word: "not")
            guard let token = cursor.peek, case .regex(let source, let flags) = token.kind else {
                throw expected("a regex literal such as /[0-9]+/", after: not?.text)
            }
            cursor.advance()
            try checkPattern(source, flags, token: token, use: not == nil ? .check : .negatedCheck)
            kind = .pattern(source: source, flags: flags, negated: not != nil)
        case "charset":
            kind = .charset(try parseCharsetClasses())
        case "one-of":
            var options: [String] = []
            while let token = cursor.peek, case .string(let option) = token.kind {
                options.append(option)
                cursor.advance()
            }
            if options.isEmpty { throw expected("one or more options in double quotes") }
            let ignoreCase = cursor.take(word: "ignore-case") != nil
            kind = .oneOf(options, ignoreCase: ignoreCase)
        case "mask-one-of":
            if let token = cursor.peek, case .parameter(let name) = token.kind {
                reference(name, at: token.location, kinds: [.string], anyString: true)
                cursor.advance()
                kind = .maskOneOf(.parameter(name, token.location))
            } else {
                var names: [String] = []
                while let token = cursor.peek, case .string(let name) = token.kind {
                    names.append(name)
                    cursor.advance()
                }
                if names.isEmpty {
                    throw expected("mask names in double quotes, or a string parameter such as $brands")
                }
                kind = .maskOneOf(.value(names))
            }
        case "date":
            let formatToken = cursor.peek
            let format = try expectString("a date format in double quotes, such as \"yyyy-MM-dd\"")
            if let problem = Self.dateFormatProblem(format) {
                throw error(LanguageDiagnostic.invalidDateFormat(formatToken!.text, problem: problem),
                            at: formatToken!.location)
            }
            var range: RangeSpec<DateBound>?
            if let next = cursor.peek?.kind {
                switch next {
                case .date, .relativeDate, .parameter, .rangeOperator, .number:
                    range = try parseRange(example: "today-18y...today", bound: Self.dateBound)
                default:
                    break
                }
            }
            kind = .date(format: format, range: range)
        default: // checksum
            let names = ChecksumAlgorithm.allCases.map(\.rawValue)
            let (word, _) = try expectChoice(names, what: "checksum algorithm", id: .unknownChecksum)
            kind = .checksum(ChecksumAlgorithm(rawValue: word)!)
        }
        return CheckRule(kind: kind, options: try parseModifiers(defaultName: kind.keyword, allowCondition: true))
    }

    private mutating func parseCharsetClasses() throws(Diagnostic) -> [CharsetClass] {
        var classes: [CharsetClass] = []
        while let token = cursor.peek {
            if case .string(let characters) = token.kind {
                if characters.isEmpty {
                    throw error(LanguageDiagnostic.emptyCharset(), at: token.location)
                }
                classes.append(.literal(characters))
            } else if let word = token.word {
                if Self.modifierWords.contains(word) { break }
                switch word {
                case "digits": classes.append(.digits)
                case "letters": classes.append(.letters)
                case "marks": classes.append(.marks)
                case "spaces": classes.append(.spaces)
                case "punctuation": classes.append(.punctuation)
                case "alphanumerics": classes.append(.alphanumerics)
                default:
                    throw error(LanguageDiagnostic.unknownCharsetClass(
                        word, suggestions: Self.charsetClasses + Self.modifierWords, classes: Self.charsetClasses,
                        at: token.location), at: token.location)
                }
            } else {
                break
            }
            cursor.advance()
        }
        if classes.isEmpty {
            throw expected("a character class (\(Suggestion.list(Self.charsetClasses))) or a quoted string of characters")
        }
        return classes
    }

    /// Why a date format is unusable, or nil. Only the shape is checked here: a year is
    /// needed to name a date, and a day only makes sense within a month.
    static func dateFormatProblem(_ format: String) -> String? {
        if !format.contains("yy") { return "has no year: use yyyy (4 digits) or yy (2 digits)" }
        if format.contains("dd") && !format.contains("MM") {
            return "has a day (dd) but no month (MM)"
        }
        return nil
    }
}
