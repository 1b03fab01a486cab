/// A strict RFC 8259 parser.
///
/// Strict means: exactly one value with optional whitespace around it (a byte-order mark
/// is not whitespace), no comments, no trailing commas, no single quotes, no `NaN`,
/// numbers as the grammar says (no leading zeros, no `+`, no bare `.5`), raw control
/// characters refused inside strings, well-formed UTF-8 only, and `\u` escapes that
/// encode a surrogate must come as a high–low pair (a lone surrogate cannot become a
/// Swift `String`, so it is refused rather than silently replaced). Duplicate keys in
/// one object are refused too: RFC 8259 leaves their meaning open, and a record whose
/// field is given twice is more likely a mistake than a wish.
///
/// Nesting deeper than ``maxDepth`` is refused, so that hostile input cannot exhaust
/// the stack.
public struct JSONParser: Sendable {
    public var maxDepth: Int

    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var state = ParserState(bytes: bytes, maxDepth: maxDepth)
        state.skipWhitespace()
        let value = try state.parseValue(depth: 0)
        state.skipWhitespace()
        if state.index < bytes.count {
            throw state.error(.trailingCharacters, "unexpected \(describe(bytes[state.index])) after the value")
        }
        return value
    }

    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(buffer) }
        }
        return try result.get()
    }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONValue {
    /// Parses `text` with the default ``JSONParser``.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }

    /// Parses UTF-8 `bytes` with the default ``JSONParser``.
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }
}

private func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
}

private struct ParserState {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ kind: JSONParseError.Kind, _ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(kind, message, at: offset ?? index, in: bytes)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func unexpected(expecting what: String) -> JSONParseError {
        guard index < bytes.count else {
            return error(.unexpectedEnd, "unexpected end of input, expected \(what)")
        }
        return error(.unexpectedCharacter, "unexpected \(describe(bytes[index])), expected \(what)")
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw unexpected(expecting: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(expecting: "a value")
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        var matched = 0
        while matched < count, index < bytes.count, bytes[index] == word.utf8Start[matched] {
            index += 1
            matched += 1
        }
        if matched < count {
            throw unexpected(expecting: matched == 0 ? "a value" : "'\(word)' (at offset \(start))")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        guard let end = scanJSONNumber(bytes, from: start) else {
            throw error(.invalidNumber, "invalid number", at: start)
        }
        // "01" scans as "0" followed by "1": say so instead of "trailing characters".
        if end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
            throw error(.invalidNumber, "invalid number: leading zeros are not allowed", at: start)
        }
        index = end
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw error(.tooDeep, "nesting deeper than \(maxDepth) levels") }
        index += 1  // [
        skipWhitespace()
        var elements: [JSONValue] = []
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(expecting: "',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw unexpected(expecting: "',' or ']'")
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw error(.tooDeep, "nesting deeper than \(maxDepth) levels") }
        index += 1  // {
        skipWhitespace()
        var keys: [String] = []
        var values: [JSONValue] = []
        // Linear duplicate checks are fastest for small objects; hash once they grow.
        var seen: Set<String> = []
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(uniqueKeys: keys, values: values))
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw unexpected(expecting: "a string key")
            }
            let keyOffset = index
            let key = try parseString()
            let isDuplicate: Bool
            if keys.count < 16 {
                isDuplicate = keys.contains(key)
            } else {
                if seen.isEmpty { seen = Set(keys) }
                isDuplicate = !seen.insert(key).inserted
            }
            if isDuplicate {
                throw error(.duplicateKey, "duplicate key \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw unexpected(expecting: "':'")
            }
            index += 1
            skipWhitespace()
            keys.append(key)
            values.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw unexpected(expecting: "',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(uniqueKeys: keys, values: values))
            default:
                throw unexpected(expecting: "',' or '}'")
            }
        }
    }

    /// Parses a string literal starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let openingQuote = index
        index += 1
        var runStart = index
        var runHasNonASCII = false
        var hasEscapes = false
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard index < bytes.count else {
                throw error(.unexpectedEnd, "unterminated string (opened at offset \(openingQuote))")
            }
            let byte = bytes[index]
            if byte >= 0x80 {
                runHasNonASCII = true
                index += 1
                continue
            }
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte < 0x20 {
                throw error(.controlCharacter, "control character \(describe(byte)) must be escaped in a string")
            }
            // End of a run of raw bytes: check it once.
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            if runHasNonASCII, let bad = firstInvalidUTF8Offset(in: run) {
                throw error(.invalidUTF8, "invalid UTF-8", at: runStart + bad)
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                if !hasEscapes { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            }
            hasEscapes = true
            scratch.append(contentsOf: run)
            try parseEscape()
            runStart = index
            runHasNonASCII = false
        }
    }

    /// Decodes the escape at `index` (a backslash) into `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: start)
            if (0xD800...0xDBFF).contains(scalar) {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                      bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error(.loneSurrogate, "high surrogate \\u\(hex4(scalar)) is not followed by a low surrogate", at: start)
                }
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(.loneSurrogate, "high surrogate \\u\(hex4(scalar)) is not followed by a low surrogate", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.loneSurrogate, "low surrogate \\u\(hex4(scalar)) without a high surrogate before it", at: start)
            }
            // Safe: surrogates were handled above and the value is at most 0x10FFFF.
            scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            throw error(.invalidEscape, "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: start)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error(.unexpectedEnd, "unterminated \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidEscape, "\\u must be followed by four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

private func hex4(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
