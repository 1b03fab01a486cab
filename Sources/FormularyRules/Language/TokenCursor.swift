/// Walks the tokens of one logical line. Parsing a line only ever moves forward, and a
/// line is parsed once, so a parser cannot loop without consuming input.
struct TokenCursor {
    let tokens: [Token]
    private(set) var index = 0

    init(_ tokens: [Token]) { self.tokens = tokens }

    var peek: Token? { index < tokens.count ? tokens[index] : nil }
    var atEnd: Bool { index >= tokens.count }
    var previous: Token? { index > 0 ? tokens[index - 1] : nil }

    mutating func next() -> Token? {
        guard index < tokens.count else { return nil }
        index += 1
        return tokens[index - 1]
    }

    mutating func advance() { if index < tokens.count { index += 1 } }

    /// Where something missing at the end of the line should be reported: just after the
    /// last token consumed so far.
    var endLocation: SourceLocation {
        guard let last = previous ?? tokens.first else {
            return SourceLocation(file: "", line: 1, column: 1)
        }
        var location = last.location
        location.column += location.length
        location.length = 1
        return location
    }

    /// The next token if it is the word `word`, consumed.
    mutating func take(word: String) -> Token? {
        guard let token = peek, token.word == word else { return nil }
        index += 1
        return token
    }
}

/// The rules for names of types, parameters, rules and fields: `[a-z][a-z0-9-]*`, at most
/// 64 characters.
enum NameRules {
    static let maximumLength = 64

    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, first >= 0x61, first <= 0x7A, bytes.count <= maximumLength else {
            return false
        }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// Why `name` is not a valid name, phrased for a diagnostic.
    static func problem(with name: String) -> String {
        if name.count > maximumLength {
            return "is longer than \(maximumLength) characters"
        }
        return "is not a valid name: names start with a lower-case letter a-z, followed by a-z, 0-9 or '-'"
    }
}
