/// Spelling of literals in canonical sources, shared by the field and form printers.
enum Canonical {
    /// A string literal that the lexer reads back as `text`.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A regex literal that the lexer reads back as `source`: `/` is escaped, while
    /// backslash pairs (which the lexer passes through) are copied as they are.
    static func regex(_ source: String, _ flags: RegexFlags) -> String {
        var out = "/"
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
        out += "/"
        if flags.contains(.caseInsensitive) { out += "i" }
        if flags.contains(.extended) { out += "x" }
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
        if options.name != defaultName { out += " as " + options.name }
        if let message = options.message { out += " message " + quote(message) }
        if options.severity == .warning { out += " warning" }
        if allowFinal && options.finalOnly { out += " final" }
        return out
    }
}
