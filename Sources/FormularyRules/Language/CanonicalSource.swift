/// Spelling of literals in canonical sources, shared by the field and form printers.
enum Canonical {
    /// A string literal that the lexer reads back as `text`.
    ///
    /// Control characters (general category Cc: U+0000–U+001F, U+007F–U+009F, a set Unicode
    /// never changes) and the line and paragraph separators are written as `\u{…}`. The text
    /// is walked as UTF-8 rather than asking each scalar for its category, which took
    /// seconds for a label of megabytes; the output, which version hashes depend on, is the same.
    static func quote(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 2)
        func escape(_ value: UInt32) {
            out += Array("\\u{\(String(value, radix: 16, uppercase: true))}".utf8)
        }
        let bytes = Array(text.utf8)
        var k = 0
        while k < bytes.count {
            let byte = bytes[k]
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20, 0x7F: escape(UInt32(byte))
            // U+0080–U+009F are C2 80–C2 9F; U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            case 0xC2 where k + 1 < bytes.count && (0x80...0x9F).contains(bytes[k + 1]):
                escape(UInt32(bytes[k + 1]))
                k += 1
            case 0xE2 where k + 2 < bytes.count && bytes[k + 1] == 0x80 && (bytes[k + 2] == 0xA8 || bytes[k + 2] == 0xA9):
                escape(0x2000 + UInt32(bytes[k + 2]) - 0x80)
                k += 2
            default: out.append(byte)
            }
            k += 1
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// A regex literal that the lexer reads back as `source`: `/` is escaped, while
    /// backslash pairs (which the lexer passes through) are copied as they are.
    static func regex(_ source: String, _ flags: RegexFlags) -> String {
        var out = "/" + regexBody(source) + "/"
        if flags.contains(.caseInsensitive) { out += "i" }
        if flags.contains(.extended) { out += "x" }
        return out
    }

    /// What goes between a regex literal's slashes for `source`.
    static func regexBody(_ source: String) -> String {
        var out = ""
        var escaping = false
        for scalar in source.unicodeScalars {
            if escaping {
                out.unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                out += "\\"
                escaping = true
            } else if scalar == "/" {
                out += "\\/"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func value(_ value: ParameterValue) -> String {
        if case .string(let text) = value { return quote(text) }
        return value.text
    }

    static func arg<Value>(_ arg: Arg<Value>, _ render: (Value) -> String) -> String {
        switch arg {
        case .value(let value): render(value)
        case .parameter(let name, _): "$" + name
        }
    }

    static func range<Bound>(_ range: RangeSpec<Bound>, _ render: (Bound) -> String) -> String {
        let lower = range.lower.map { arg($0, render) }
        let upper = range.upper.map { arg($0, render) }
        if let lower, lower == upper, !range.lowerExclusive, range.upperInclusive { return lower }
        let exclusive = range.lowerExclusive ? "<" : ""
        guard let upper else { return (lower ?? "") + (range.lowerExclusive ? "<.." : "...") }
        return (lower ?? "") + exclusive + (range.upperInclusive ? "..." : "..<") + upper
    }

    static func dateBound(_ bound: DateBound) -> String {
        switch bound {
        case .absolute(let year, let month, let day):
            return CivilDate(year: year, month: month, day: day).description
        case .today(let offset, let unit):
            if offset == 0 && unit == .days { return "today" }
            return "today" + (offset < 0 ? "-" : "+") + String(abs(offset)) + unit.rawValue
        }
    }

    static func modifiers(_ options: RuleOptions, defaultName: String, allowFinal: Bool = true) -> String {
        var out = ""
        if let condition = options.condition { out += " if $\(condition.parameter) = " + quote(condition.value) }
        if options.name != defaultName { out += " as " + options.name }
        if let message = options.message { out += " message " + quote(message) }
        if options.severity == .warning { out += " warning" }
        if allowFinal && options.finalOnly { out += " final" }
        return out
    }
}
