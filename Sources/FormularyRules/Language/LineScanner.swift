/// Scans one physical line (already known to be valid UTF-8) into tokens.
///
/// Positions are indices into the line's Unicode scalars; `columns` maps each to the
/// 1-based grapheme column that `SourceLocation` uses. Every branch of `scan()` consumes
/// at least one scalar, so scanning always terminates.
struct LineScanner {
    let scalars: [Unicode.Scalar]
    let columns: [Int]
    let line: Int
    let file: String
    let text: String
    var tokens: [Token] = []
    var diagnostics: [Diagnostic] = []
    /// The line ends in `\`: the next physical line belongs to the same directive.
    var continues = false
    var i = 0
    /// The index of the line's last scalar that is not a space or tab (-1 if none).
    let lastVisible: Int

    init(text: String, line: Int, file: String) {
        var scalars: [Unicode.Scalar] = []
        var columns: [Int] = []
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (nearly every plugin line): one scalar a column, without breaking the
            // line into grapheme clusters, which was most of the time a plugin took to load.
            scalars = text.utf8.map { Unicode.Scalar($0) }
            columns = Array(1...(scalars.count + 1))
        } else {
            var column = 1
            for character in text {
                for scalar in character.unicodeScalars {
                    scalars.append(scalar)
                    columns.append(column)
                }
                column += 1
            }
            columns.append(column)
        }
        var last = scalars.count - 1
        while last >= 0, scalars[last] == " " || scalars[last] == "\t" { last -= 1 }
        self.lastVisible = last
        self.scalars = scalars
        self.columns = columns
        self.line = line
        self.file = file
        self.text = text
    }

    var n: Int { scalars.count }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        i + offset < n ? scalars[i + offset] : nil
    }

    func location(_ start: Int, _ end: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: columns[start],
                       length: columns[min(end, n)] - columns[start])
    }

    func slice(_ start: Int, _ end: Int) -> String {
        // Encoded by hand: appending scalars to a `String.UnicodeScalarView` cost about 9,000
        // instructions a token.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - start)
        appendUTF8(start, end, to: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Appends the UTF-8 of the scalars `start..<end` of the line to `utf8`. It reserves
    /// nothing: called run after run on one array, exact reservations would copy it each time.
    func appendUTF8(_ start: Int, _ end: Int, to utf8: inout [UInt8]) {
        for scalar in scalars[start..<end] {
            if scalar.isASCII { utf8.append(UInt8(scalar.value)) } else { UTF8.encode(scalar) { utf8.append($0) } }
        }
    }

    mutating func emit(_ kind: Token.Kind, from start: Int) {
        tokens.append(Token(kind: kind, text: slice(start, i), location: location(start, i)))
    }

    /// Records a catalogue message for the scalars `start..<end` of the line.
    mutating func error(_ message: DiagnosticMessage, _ start: Int, _ end: Int) {
        diagnostics.append(Diagnostic(message, at: location(start, max(end, start + 1)), sourceLine: text))
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    static func isWordStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
            || (c.value >= 0x80 && c.properties.isAlphabetic)
    }

    static func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
        isWordStart(c) || isDigit(c) || c == "-"
    }

    static func describe(_ c: Unicode.Scalar) -> String {
        if c.value < 0x20 || c.value == 0x7F || (c.value >= 0x80 && c.properties.generalCategory == .control)
            || c.properties.isWhitespace {
            let hex = String(c.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(Character(c))'"
    }

    /// Characters that start no token (and are not white space).
    static func isStray(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "#", "\\", "\"", "/", "$", "-", ".", "<", ">", "(", ")", ",", ":", "=": false
        default: !isDigit(c) && !isWordStart(c)
        }
    }

    /// A comparison operator at `i` (`<`, `<=`, `>`, `>=`, `!=`), whose first character is `c`.
    mutating func scanComparison(_ c: Unicode.Scalar) {
        let two = peek(1) == "="
        let op = ComparisonOperator(rawValue: String(c) + (two ? "=" : ""))!
        i += two ? 2 : 1
        emit(.comparison(op), from: i - (two ? 2 : 1))
    }

    mutating func scan() {
        while i < n {
            let c = scalars[i]
            switch c {
            case " ", "\t":
                i += 1
            case "#":
                i = n
            case "\\":
                if i == lastVisible {
                    continues = true
                    i = n
                } else {
                    let start = i
                    while i < n, i != lastVisible, scalars[i] == "\\" { i += 1 }
                    error(LanguageDiagnostic.strayBackslash(), start, i)
                }
            case "\"":
                scanString()
            case "/":
                scanRegex()
            case "$":
                scanParameter()
            case "-" where peek(1).map(Self.isDigit) == true:
                scanNumber()
            case "<" where peek(1) == "=" || peek(1) == " " || peek(1) == "\t" || peek(1) == nil, ">":
                // `compare A OP B`; a `<` before anything else starts a range operator.
                scanComparison(c)
            case "!" where peek(1) == "=":
                scanComparison(c)
            case "." , "<":
                scanRangeOperator()
            case "(", ")", ",", ":", "=":
                i += 1
                emit(.punctuation(Character(c)), from: i - 1)
            default:
                if Self.isDigit(c) {
                    scanNumber()
                } else if Self.isWordStart(c) {
                    scanWord()
                } else {
                    // One report per run of stray characters, not per scalar of an emoji.
                    let start = i
                    i += 1
                    while i < n, columns[i] == columns[start] || Self.isStray(scalars[i]) { i += 1 }
                    let what = i - start == 1 ? "character " + Self.describe(c) : "characters '\(slice(start, i))'"
                    error(LanguageDiagnostic.unexpectedCharacters(what), start, i)
                }
            }
        }
    }
}
