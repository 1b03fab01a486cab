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
/// (overlong forms, encoded surrogates and values past U+10FFFF are ill-formed, as in
/// RFC 3629), or `nil` when all of `bytes` is well-formed.
///
/// Fast on ASCII (eight bytes at a time). Pair it with `String(decoding:as:)` to make a
/// `String` from bytes that must be valid: the standard library's validating initializer
/// is generic and not specialized across modules, and costs several times more.
public func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        guard index < count else { return nil }
        let lead = base[index]
        if lead < 0x80 {
            index += 1
            continue
        }
        // The allowed range of the second byte depends on the lead byte (RFC 3629, section 4).
        let continuationCount: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0: continuationCount = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
        case 0xED: continuationCount = 2; high = 0x9F
        case 0xF0: continuationCount = 3; low = 0x90
        case 0xF1...0xF3: continuationCount = 3
        case 0xF4: continuationCount = 3; high = 0x8F
        default: return index
        }
        guard index + continuationCount < count else { return index }
        let second = base[index + 1]
        guard second >= low && second <= high else { return index }
        if continuationCount > 1 {
            for offset in 2...continuationCount where base[index + offset] & 0xC0 != 0x80 {
                return index
            }
        }
        index += continuationCount + 1
    }
    return nil
}
