extension LineScanner {
    /// `"…"` with the escapes `\" \\ \n \r \t \u{…}`. A string ends on its own line.
    mutating func scanString() {
        let start = i
        i += 1
        // UTF-8 built by hand, a run of plain scalars at a time: appending scalar by scalar
        // to a `String.UnicodeScalarView` took seconds for a label of megabytes.
        var value: [UInt8] = []
        var valid = true
        while true {
            guard i < n else {
                error(LanguageDiagnostic.unterminatedString(), start, n)
                return
            }
            let c = scalars[i]
            if c == "\"" {
                i += 1
                break
            }
            guard c == "\\" else {
                var end = i + 1
                while end < n, scalars[end] != "\"", scalars[end] != "\\" { end += 1 }
                appendUTF8(i, end, to: &value)
                i = end
                continue
            }
            guard let escaped = peek(1) else {
                i += 1
                continue   // reported as unterminated on the next turn
            }
            switch escaped {
            case "\"", "\\": value.append(UInt8(escaped.value))
            case "n": value.append(0x0A)
            case "r": value.append(0x0D)
            case "t": value.append(0x09)
            case "u":
                if let (scalar, end) = unicodeEscape(at: i) {
                    UTF8.encode(scalar) { value.append($0) }
                    i = end
                    continue
                }
                let end = scalars[i...].firstIndex(of: "}").map { $0 + 1 } ?? i + 2
                error(LanguageDiagnostic.invalidUnicodeEscape(), i, end)
                valid = false
                i = max(end, i + 2)
                continue
            default:
                error(LanguageDiagnostic.unknownEscape(Character(escaped)), i, i + 2)
                valid = false
            }
            i += 2
        }
        if valid { emit(.string(String(decoding: value, as: UTF8.self)), from: start) }
    }

    /// Reads `\u{HEX}` starting at the backslash; returns the scalar and the index after `}`.
    func unicodeEscape(at backslash: Int) -> (Unicode.Scalar, Int)? {
        var k = backslash + 2
        guard k < n, scalars[k] == "{" else { return nil }
        k += 1
        var value: UInt32 = 0
        var digits = 0
        while k < n, let digit = Self.hexValue(scalars[k]) {
            guard digits < 8 else { return nil }
            value = value &* 16 &+ digit
            digits += 1
            k += 1
        }
        guard digits > 0, k < n, scalars[k] == "}", let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, k + 1)
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 48
        case "a"..."f": c.value - 97 + 10
        case "A"..."F": c.value - 65 + 10
        default: nil
        }
    }

    /// `/…/flags`: `\/` is a slash, every other backslash pair goes to the engine unchanged.
    mutating func scanRegex() {
        let start = i
        i += 1
        var source = String.UnicodeScalarView()
        while true {
            guard i < n else {
                error(LanguageDiagnostic.unterminatedRegex(), start, n)
                return
            }
            let c = scalars[i]
            if c == "/" {
                i += 1
                break
            }
            if c == "\\", let next = peek(1) {
                if next != "/" { source.append(c) }
                source.append(next)
                i += 2
                continue
            }
            source.append(c)
            i += 1
        }
        var flags: RegexFlags = []
        var valid = true
        while i < n, Self.isWordCharacter(scalars[i]) {
            let flag: RegexFlags? = switch scalars[i] {
            case "i": .caseInsensitive
            case "x": .extended
            default: nil
            }
            if let flag, !flags.contains(flag) {
                flags.insert(flag)
            } else {
                error(LanguageDiagnostic.invalidRegexFlag(Character(scalars[i]), repeated: flag != nil), i, i + 1)
                valid = false
            }
            i += 1
        }
        if valid { emit(.regex(source: String(source), flags: flags), from: start) }
    }

    mutating func scanParameter() {
        let start = i
        i += 1
        while i < n, Self.isWordCharacter(scalars[i]) { i += 1 }
        guard i > start + 1 else {
            error(LanguageDiagnostic.missingParameterName(), start, i)
            return
        }
        emit(.parameter(slice(start + 1, i)), from: start)
    }

    /// `-12`, `0.5`, and dates `2000-01-31`, which start like a number.
    mutating func scanNumber() {
        let start = i
        if scalars[i] == "-" { i += 1 }
        let digitsStart = i
        while i < n, Self.isDigit(scalars[i]) { i += 1 }
        if start == digitsStart, i - digitsStart == 4, looksLikeMonthAndDay(at: i) {
            i += 6
            let text = slice(start, i)
            if rejectTrailingJunk(start, "date") { return }
            if let date = CivilDate(iso: text) {
                emit(.date(date), from: start)
            } else {
                error(LanguageDiagnostic.noSuchDate(text), start, i)
            }
            return
        }
        if peek(0) == ".", let next = peek(1), Self.isDigit(next) {
            i += 1
            while i < n, Self.isDigit(scalars[i]) { i += 1 }
        }
        if rejectTrailingJunk(start, "number") { return }
        emit(.number(slice(start, i)), from: start)
    }

    private func looksLikeMonthAndDay(at k: Int) -> Bool {
        guard k + 6 <= n else { return false }
        let s = scalars
        return s[k] == "-" && Self.isDigit(s[k + 1]) && Self.isDigit(s[k + 2])
            && s[k + 3] == "-" && Self.isDigit(s[k + 4]) && Self.isDigit(s[k + 5])
    }

    /// A number glued to letters or more dots (`1e5`, `1.2.3`, `30px`) is one bad token,
    /// not several good ones.
    private mutating func rejectTrailingJunk(_ start: Int, _ what: String) -> Bool {
        func isJunk(_ k: Int) -> Bool {
            guard k < n else { return false }
            if Self.isWordCharacter(scalars[k]) { return true }
            return scalars[k] == "." && k + 1 < n && Self.isDigit(scalars[k + 1])
        }
        guard isJunk(i) else { return false }
        while isJunk(i) { i += 1 }
        error(LanguageDiagnostic.malformedNumber(slice(start, i), isDate: what == "date"), start, i)
        return true
    }

    /// Words, and the relative dates `today`, `today+12y`, `today-30d`.
    mutating func scanWord() {
        let start = i
        while i < n, Self.isWordCharacter(scalars[i]) { i += 1 }
        var word = slice(start, i)
        guard word == "today" || word.hasPrefix("today-") else {
            emit(.word(word), from: start)
            return
        }
        if word == "today", peek(0) == "+" {
            i += 1
            while i < n, Self.isWordCharacter(scalars[i]) { i += 1 }
            word = slice(start, i)
        }
        if word == "today" {
            emit(.relativeDate(offset: 0, unit: .days), from: start)
        } else if let (offset, unit) = Self.relativeOffset(word) {
            emit(.relativeDate(offset: offset, unit: unit), from: start)
        } else {
            error(LanguageDiagnostic.invalidDateOffset(word), start, i)
        }
    }

    /// Parses the `+12y` of `today+12y`.
    static func relativeOffset(_ word: String) -> (Int, DateOffsetUnit)? {
        var rest = Substring(word.dropFirst(5))
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        guard let unitCharacter = rest.last, let unit = DateOffsetUnit(rawValue: String(unitCharacter)) else {
            return nil
        }
        let digits = rest.dropLast()
        guard (1...6).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits) else { return nil }
        return (sign == "-" ? -value : value, unit)
    }

    mutating func scanRangeOperator() {
        let start = i
        let rest = scalars[i..<min(n, i + 4)].map(Character.init)
        let spelled = String(rest)
        let op: RangeOperator?
        if spelled.hasPrefix("...") { op = .closed }
        else if spelled.hasPrefix("..<") { op = .halfOpen }
        else if spelled.hasPrefix("<..<") { op = .exclusiveHalfOpen }
        else if spelled.hasPrefix("<...") { op = .exclusiveClosed }
        else if spelled.hasPrefix("<..") { op = .exclusiveFrom }
        else { op = nil }
        if let op {
            i += op.rawValue.unicodeScalars.count
            emit(.rangeOperator(op), from: start)
        } else if spelled.hasPrefix("..") {
            i += 2
            error(LanguageDiagnostic.twoDotRange(), start, i)
        } else {
            i += 1
            error(LanguageDiagnostic.loneRangeCharacter(lessThan: scalars[start] == "<"), start, i)
        }
    }
}
