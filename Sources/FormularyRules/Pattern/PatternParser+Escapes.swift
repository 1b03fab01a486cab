/// Backslash sequences: literal escapes, `\d \w \s` and their negations, `\p{…}`, the anchors
/// `\A` and `\z`, and the escapes of other dialects, refused with what to write instead.
extension PatternParser {
    enum Escape {
        case scalar(UInt32)
        case set(ScalarSet)
        case startAnchor
        case endAnchor
    }

    /// Reads the escape at `i` (a backslash).
    mutating func escape(inClass: Bool) throws(PatternError) -> Escape {
        let start = i
        guard let e = peek(1) else { throw PatternError(.trailingBackslash, at: start..<start + 1) }
        i += 2
        let here = start..<i
        if e.isASCII, !e.properties.isAlphabetic, Self.decimalDigit(e) == nil {
            return .scalar(e.value)   // `\.`, `\\`, `\-`, `\ `, `\#`…: the character itself
        }
        switch e {
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "r": return .scalar(0x0D)
        case "f": return .scalar(0x0C)
        case "v": return .scalar(0x0B)
        case "x", "u": return .scalar(try hexEscape(e, start: start))
        case "d": return .set(UnicodeProperty.digit)
        case "D": return .set(built(UnicodeProperty.digit.complement))
        case "w": return .set(built(UnicodeProperty.word))
        case "W": return .set(built(UnicodeProperty.word.complement))
        case "s": return .set(built(UnicodeProperty.space))
        case "S": return .set(built(UnicodeProperty.space.complement))
        case "p", "P": return .set(try property(negated: e == "P", start: start))
        case "A", "z":
            if inClass { throw PatternError(.escapeNotInClass(text(here)), at: here) }
            return e == "A" ? .startAnchor : .endAnchor
        default:
            throw otherEscape(e, start: start, inClass: inClass)
        }
    }

    /// `\xHH` (two hex digits), `\x{H…}` or `\u{H…}` (one to six), naming a scalar.
    private mutating func hexEscape(_ e: Unicode.Scalar, start: Int) throws(PatternError) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        if peek == "{" {
            i += 1
            while let c = peek, let digit = LineScanner.hexValue(c), digits < 8 {
                value = value &* 16 &+ digit
                digits += 1
                i += 1
            }
            guard digits > 0, digits <= 6, peek == "}" else {
                let end = min(afterBrace(from: i), s.count)
                throw PatternError(.invalidHexEscape(text(start..<end)), at: start..<end)
            }
            i += 1
        } else if e == "x" {
            while digits < 2, let c = peek, let digit = LineScanner.hexValue(c) {
                value = value * 16 + digit
                digits += 1
                i += 1
            }
            guard digits == 2 else { throw PatternError(.invalidHexEscape(text(start..<i)), at: start..<i) }
        } else {
            // `\uHHHH`, as JavaScript and Java write it.
            var k = i
            while k < s.count, k - i < 4, let digit = LineScanner.hexValue(s[k]) { value = value * 16 + digit; k += 1 }
            if k - i == 4 {
                throw PatternError(.invalidHexEscape(text(start..<k)), at: start..<k,
                                   with: "\\u{" + text(i..<k) + "}")
            }
            throw PatternError(.invalidHexEscape(text(start..<i)), at: start..<i)
        }
        guard Unicode.Scalar(value) != nil else {
            throw PatternError(.invalidScalar(text(start..<i)), at: start..<i)
        }
        return value
    }

    private func afterBrace(from k: Int) -> Int {
        var end = k
        while end < s.count, s[end] != "}" { end += 1 }
        return end + 1
    }

    /// `\p{Name}` or `\P{Name}`: a general category (short or long name) or a script.
    private mutating func property(negated: Bool, start: Int) throws(PatternError) -> ScalarSet {
        let letter = negated ? "P" : "p"
        guard peek == "{" else {
            guard let c = peek, c.properties.isAlphabetic else {
                throw PatternError(.unterminatedProperty, at: start..<i)
            }
            i += 1
            throw PatternError(.propertyWithoutBraces(text(start..<i)), at: start..<i,
                               with: "\\\(letter){\(Character(c))}")
        }
        let nameStart = i + 1
        var end = nameStart
        while end < s.count, s[end] != "}" { end += 1 }
        guard end < s.count else { throw PatternError(.unterminatedProperty, at: start..<end) }
        i = end + 1
        var name = text(nameStart..<end)
        let here = start..<i
        if name.hasPrefix("^") {
            name.removeFirst()
            throw PatternError(.otherEscape(text(here), meaning: "negated property"), at: here,
                               with: "\\\(negated ? "p" : "P"){\(name)}")
        }
        if name == "L&" {
            throw PatternError(.unknownProperty(name, suggestion: "LC"), at: here, with: "\\\(letter){LC}")
        }
        guard UnicodeProperty.isKnown(name) else {
            let suggestion = Suggestion.nearest(to: name, in: UnicodeProperty.suggestions)
            throw PatternError(.unknownProperty(name, suggestion: suggestion), at: here,
                               with: suggestion.map { "\\\(letter){\($0)}" })
        }
        guard buildsSets, let set = UnicodeProperty.named(name) else { return .empty }
        return negated ? set.complement : set
    }

    /// The escapes of other dialects (and unknown ones), with a replacement where one means
    /// the same.
    private func otherEscape(_ e: Unicode.Scalar, start: Int, inClass: Bool) -> PatternError {
        let here = start..<i
        let written = text(here)
        func other(_ meaning: String, _ replacement: String? = nil, end: Int? = nil) -> PatternError {
            let range = start..<(end ?? i)
            return PatternError(.otherEscape(text(range), meaning: meaning), at: range, with: replacement)
        }
        switch e {
        case "1"..."9":
            var end = i
            while end < s.count, Self.decimalDigit(s[end]) != nil { end += 1 }
            return PatternError(.backreference(text(start..<end)), at: start..<end)
        case "g", "k":
            var end = i
            if end < s.count, "{<'".unicodeScalars.contains(s[end]) {
                while end < s.count, !"}>'".unicodeScalars.contains(s[end]) || end == i { end += 1 }
                end = min(end + 1, s.count)
            } else {
                while end < s.count, Self.decimalDigit(s[end]) != nil || s[end] == "-" || s[end] == "+" { end += 1 }
            }
            return PatternError(.backreference(text(start..<end)), at: start..<end)
        case "b" where inClass:
            return other("backspace", "\\x{8}")
        case "b", "B":
            return PatternError(.wordBoundary(written), at: here)
        case "Z":
            return other("end of the value or before a final line feed", inClass ? nil : "\\z")
        case "0":
            var end = i, value: UInt32 = 0
            while end < s.count, end < i + 2, s[end].value &- 0x30 < 8 { value = value * 8 + s[end].value - 0x30; end += 1 }
            return other("octal character", "\\x{\(String(value, radix: 16, uppercase: true))}", end: end)
        case "o":
            var end = i
            guard end < s.count, s[end] == "{" else { return other("octal character") }
            var value: UInt32 = 0
            end += 1
            while end < s.count, s[end].value &- 0x30 < 8, value < 0x110000 { value = value * 8 + s[end].value - 0x30; end += 1 }
            let closed = end < s.count && s[end] == "}"
            return other("octal character", closed && Unicode.Scalar(value) != nil
                         ? "\\x{\(String(value, radix: 16, uppercase: true))}" : nil, end: closed ? end + 1 : end)
        case "e": return other("escape character", "\\x{1B}")
        case "a": return other("bell character", "\\x{7}")
        case "c":
            guard i < s.count, s[i].isASCII else { return other("control character") }
            let control = UInt32(s[i].properties.uppercaseMapping.unicodeScalars.first!.value) ^ 0x40
            return other("control character", control < 0x80 ? "\\x{\(String(control, radix: 16, uppercase: true))}" : nil,
                         end: i + 1)
        case "h": return other("horizontal white space", inClass ? "\\t\\p{Zs}\\x{180E}" : "[\\t\\p{Zs}\\x{180E}]")
        case "H": return other("not horizontal white space", inClass ? nil : "[^\\t\\p{Zs}\\x{180E}]")
        case "V": return other("not vertical white space", inClass ? nil : "[^\\n\\v\\f\\r\\x{85}\\x{2028}\\x{2029}]")
        case "R": return other("line break", inClass ? nil : "(?:\\r\\n|[\\n\\v\\f\\r\\x{85}\\x{2028}\\x{2029}])")
        case "N" where peek != "{": return other("any character but a line feed", inClass ? nil : ".")
        case "N": return other("named character")
        case "X": return other("extended grapheme cluster")
        case "K": return other("match start reset")
        case "G": return other("start of the previous match")
        case "C": return other("single code unit")
        case "E": return other("end of quoting without \\Q")
        case "Q":
            var end = i
            while end < s.count, !(s[end] == "\\" && end + 1 < s.count && s[end + 1] == "E") { end += 1 }
            let quoted = s[i..<end].map { c in
                c.isASCII && !c.properties.isAlphabetic && Self.decimalDigit(c) == nil && c.value > 0x20
                    ? "\\" + String(c) : (c == " " ? "\\ " : String(c))
            }.joined()
            return other("quoted text", quoted.isEmpty ? nil : quoted, end: min(end + 2, s.count))
        default:
            if !e.isASCII { return PatternError(.unknownEscape(written), at: here, with: String(e)) }
            return PatternError(.unknownEscape(written), at: here)
        }
    }
}
