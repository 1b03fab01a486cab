import CPCRE2

/// A pattern compiled by PCRE2 (8-bit, UTF and UCP, anchored at both ends, JIT-compiled when
/// the JIT is available): the tests' oracle for Formulary's own engine and the benchmarks'
/// speed reference. Only the tests and FormularyBench link it; no product does.
///
/// The source is PCRE2 syntax, given as is: callers write PCRE2's spelling of a pattern
/// (`[0-9]` for Formulary's ASCII `\d`, `\x{…}` for `\u{…}`, short property names).
public final class PCRE2Pattern: @unchecked Sendable {
    private let code: OpaquePointer
    private let matchData: OpaquePointer
    /// Whether the JIT compiled it (matching then uses `pcre2_jit_match`).
    public let hasJIT: Bool

    /// PCRE2's complaint about a pattern it does not compile.
    public struct CompileError: Error, CustomStringConvertible {
        public var message: String
        public var offset: Int
        public var description: String { "\(message) at offset \(offset)" }
    }

    /// Compiles `source` (PCRE2 syntax) with `i` (caseless) and `x` (extended) as asked.
    public init(_ source: String, caseInsensitive: Bool = false, extended: Bool = false) throws {
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_ENDANCHORED)
        if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
        if extended { options |= UInt32(PCRE2_EXTENDED) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = Array(source.utf8) + [0]
        let compiled = bytes.withUnsafeBufferPointer { b in
            pcre2_compile_8(b.baseAddress!, b.count - 1, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
            throw CompileError(message: n > 0 ? String(decoding: buffer[0..<Int(n)], as: UTF8.self) : "error \(errorCode)",
                               offset: errorOffset)
        }
        code = compiled
        hasJIT = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        matchData = pcre2_match_data_create_from_pattern_8(compiled, nil)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_code_free_8(code)
    }

    /// Whether the whole of `bytes` (well-formed UTF-8) matches. Not for concurrent use of one
    /// pattern: the match data is the pattern's.
    @inline(__always)
    public func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUnsafePointer(to: 0 as UInt8) { empty in
            let base = bytes.baseAddress ?? empty
            let options = UInt32(PCRE2_NO_UTF_CHECK)
            let rc = hasJIT
                ? pcre2_jit_match_8(code, base, bytes.count, 0, options, matchData, nil)
                : pcre2_match_8(code, base, bytes.count, 0, options, matchData, nil)
            return rc >= 0
        }
    }

    /// Whether the whole of `value` matches.
    public func matches(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { matches($0) }
    }
}
