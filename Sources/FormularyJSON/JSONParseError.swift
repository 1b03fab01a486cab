/// Why a JSON text was refused, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case unexpectedEnd = "unexpected-end"
        case unexpectedCharacter = "unexpected-character"
        case invalidNumber = "invalid-number"
        case invalidEscape = "invalid-escape"
        case loneSurrogate = "lone-surrogate"
        case controlCharacter = "control-character"
        case invalidUTF8 = "invalid-utf8"
        case duplicateKey = "duplicate-key"
        case tooDeep = "too-deep"
        case trailingCharacters = "trailing-characters"
    }

    public var kind: Kind
    public var message: String
    /// 0-based byte offset of the offending byte in the input.
    public var offset: Int
    /// 1-based line (lines end at `\n`).
    public var line: Int
    /// 1-based column in characters (extended grapheme clusters), like ``SourceLocation``
    /// elsewhere in Formulary, so that a caret lines up under what a person sees.
    public var column: Int

    public init(kind: Kind, message: String, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }

    /// Builds the error for `offset` in `bytes`, working out the line and column.
    init(_ kind: Kind, _ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let offset = min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let prefix = UnsafeBufferPointer(rebasing: bytes[lineStart..<offset])
        self.init(kind: kind, message: message, offset: offset, line: line,
                  column: String(decoding: prefix, as: UTF8.self).count + 1)
    }
}

/// The offset of the first byte that does not begin a well-formed UTF-8 sequence
/// (overlong forms, encoded surrogates and values past U+10FFFF are ill-formed), or `nil`.
public func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let scalar): offset += scalar.count
        case .error: return offset
        case .emptyInput: return nil
        }
    }
}
