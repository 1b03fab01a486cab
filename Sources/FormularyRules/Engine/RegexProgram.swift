import CPCRE2

/// A compiled `pattern /RE/flags` on PCRE2's 8-bit library.
///
/// Compiled with `UTF | UCP | ANCHORED | ENDANCHORED` (plus `CASELESS` for `i`, `EXTENDED`
/// for `x`): the whole value must match, with no "before a final newline" loophole, and
/// because the anchoring is set at compile time the JIT can run it. `\d` and `\D` are
/// rewritten to ASCII digits (see `RegexSource`), while `\w`, `\s` and `\b` stay
/// Unicode-aware. The JIT is compiled for complete and soft-partial matching; when the JIT
/// is unavailable or runs out of JIT stack the interpreter is used.
///
/// The live stage uses a second program, `(?:RE)\z` anchored at the start only: PCRE2
/// does not combine `ENDANCHORED` with partial matching reliably (the JIT answers PARTIAL
/// for "12345" against `[0-9]{4}`, the interpreter refuses the option), while `\z` inside
/// the pattern makes an over-long value a plain NOMATCH and a real prefix a PARTIAL.
///
/// Every match runs under a budget (`matchLimit(forSubjectLength:)`) and a heap limit.
/// A match that exceeds either ends as `.budgetExceeded` rather than hanging: the value
/// fails with rule `pattern-budget`.
final class RegexProgram: @unchecked Sendable {
    // pcre2_code is read-only after compilation and JIT compilation, so one program is
    // shared by every thread; the per-match state lives in each thread's `RegexScratch`.
    let code: OpaquePointer
    let hasJIT: Bool
    /// The live-stage program; `code` when the wrapped pattern does not compile (a pattern
    /// starting with `(*…)` options, which must stay first).
    private let liveCode: OpaquePointer?
    private let liveHasJIT: Bool

    enum Outcome { case match, partial, noMatch, budgetExceeded }

    struct CompileError: Error {
        var message: String
        /// Byte offset into the source as written.
        var offset: Int
    }

    /// The budget: a fixed allowance plus a per-byte allowance, so that linear patterns on
    /// megabyte values pass while exponential backtracking stops within milliseconds.
    ///
    /// Measured (debug build, this machine): `(a+)+$` stops on 30 `a`s + "!" in < 1 ms and on
    /// 1,000,000 `a`s + "!" in ~0.12 s; `(?:a|aa)+$` on 100,000 `a`s + "!" in ~14 ms; while
    /// `(?:[a-z]{2})+`, `(\w+\s?)*` and `[a-z]+(?:-[a-z]+)*` pass 1 MB values in < 10 ms.
    ///
    /// A backreference is one step however many bytes it compares, so with backreferences
    /// the steps alone do not bound the work: `((a|b)+)\1+c` on 1 MB of "ab" took minutes
    /// under the plain budget (quadratic). Such patterns get at most
    /// `backreferenceWork / n` steps (never fewer than 1,000), which bounds the bytes
    /// compared to about `backreferenceWork`; up to ~3 KB values the budget is unchanged.
    static func matchLimit(forSubjectLength n: Int, backreferences: Bool = false) -> UInt32 {
        let steps = 200_000 + 40 * n
        guard backreferences else { return UInt32(min(Int(UInt32.max), steps)) }
        return UInt32(min(steps, max(1_000, backreferenceWork / max(n, 1))))
    }

    /// The bytes a pattern with backreferences may compare in one match (see `matchLimit`).
    static let backreferenceWork = 1_000_000_000

    /// Whether the pattern has backreferences (`\1`, `\k<name>`…): see `matchLimit`.
    let hasBackreferences: Bool

    /// Heap limit for the interpreter's backtracking memory, in KiB.
    static let heapLimitKiB: UInt32 = 256 * 1024

    init(source: String, flags: RegexFlags) throws(CompileError) {
        let rewritten = RegexSource.asciiDigits(source, extended: flags.contains(.extended))
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_ENDANCHORED)
        if flags.contains(.caseInsensitive) { options |= UInt32(PCRE2_CASELESS) }
        if flags.contains(.extended) { options |= UInt32(PCRE2_EXTENDED) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = rewritten.bytes.withUnsafeBufferPointer { b in
            pcre2_compile_8(b.baseAddress ?? RegexSource.emptyByte, b.count, options,
                            &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
            let text = n > 0 ? String(decoding: buffer[0..<Int(n)], as: UTF8.self) : "error \(errorCode)"
            throw CompileError(message: text, offset: rewritten.originalOffset(errorOffset))
        }
        code = compiled
        var backreferenceMax: UInt32 = 0
        hasBackreferences = pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_BACKREFMAX), &backreferenceMax) == 0
            && backreferenceMax > 0
        hasJIT = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        // In extended mode a trailing `# comment` would swallow the closing `)\z` without
        // the newline; outside it a newline would be a literal, so it is added only there.
        let wrapped = Array("(?:".utf8) + rewritten.bytes + (flags.contains(.extended) ? [10] : [])
            + Array(")\\z".utf8)
        let liveOptions = options & ~UInt32(PCRE2_ENDANCHORED)
        liveCode = wrapped.withUnsafeBufferPointer { b in
            pcre2_compile_8(b.baseAddress!, b.count, liveOptions, &errorCode, &errorOffset, nil)
        }
        liveHasJIT = liveCode.map {
            pcre2_jit_compile_8($0, UInt32(PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_SOFT)) == 0
        } ?? false
    }

    deinit {
        pcre2_code_free_8(code)
        if let liveCode { pcre2_code_free_8(liveCode) }
    }

    /// The match limit this program runs under on a subject of `n` bytes: `matchLimit`,
    /// with the backreference cap when the pattern has backreferences.
    func budget(forSubjectLength n: Int) -> UInt32 {
        RegexProgram.matchLimit(forSubjectLength: n, backreferences: hasBackreferences)
    }

    /// Matches the whole subject; `partial` uses `PCRE2_PARTIAL_SOFT` (a complete match
    /// still answers `.match`).
    func match(_ subject: Bytes, partial: Bool, scratch: RegexScratch) -> Outcome {
        RegexProgram.outcome(run(subject, partial: partial, scratch: scratch,
                                 matchLimit: budget(forSubjectLength: subject.count)))
    }

    /// Runs the match under `matchLimit` steps and returns PCRE2's own return code, which
    /// tells a stop on the step budget (`PCRE2_ERROR_MATCHLIMIT`) from one on memory. Tests
    /// ask it what a match did (how it ended, how many steps it needs) rather than timing it.
    @inline(__always)
    func run(_ subject: Bytes, partial: Bool, scratch: RegexScratch, matchLimit: UInt32) -> Int32 {
        let options = UInt32(PCRE2_NO_UTF_CHECK) | (partial ? UInt32(PCRE2_PARTIAL_SOFT) : 0)
        pcre2_set_match_limit_8(scratch.context, matchLimit)
        let base = subject.baseAddress ?? RegexSource.emptyByte
        let (code, hasJIT) = partial && liveCode != nil ? (liveCode!, liveHasJIT) : (self.code, self.hasJIT)
        if hasJIT {
            let rc = pcre2_jit_match_8(code, base, subject.count, 0, options, scratch.matchData, scratch.context)
            guard rc == PCRE2_ERROR_JIT_STACKLIMIT else { return rc }
            return pcre2_match_8(code, base, subject.count, 0, options | UInt32(PCRE2_NO_JIT),
                                 scratch.matchData, scratch.context)
        }
        return pcre2_match_8(code, base, subject.count, 0, options, scratch.matchData, scratch.context)
    }

    /// How a PCRE2 return code reads.
    @inline(__always)
    static func outcome(_ rc: Int32) -> Outcome {
        if rc >= 0 { return .match }
        switch rc {
        case PCRE2_ERROR_NOMATCH: return .noMatch
        case PCRE2_ERROR_PARTIAL: return .partial
        default: return .budgetExceeded   // match, depth or heap limit, or out of memory
        }
    }

    /// Whether `rc` is a stop on the step budget (not on memory, nor any other error).
    static func stoppedOnMatchLimit(_ rc: Int32) -> Bool { rc == PCRE2_ERROR_MATCHLIMIT }
}

/// One thread's PCRE2 match state: match data, a match context with the limits, and a JIT
/// stack big enough for long values.
final class RegexScratch {
    let matchData: OpaquePointer
    let context: OpaquePointer
    private let jitStack: OpaquePointer?

    init() {
        matchData = pcre2_match_data_create_8(1, nil)
        context = pcre2_match_context_create_8(nil)
        jitStack = pcre2_jit_stack_create_8(32 * 1024, 64 * 1024 * 1024, nil)
        if let jitStack { pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack)) }
        pcre2_set_heap_limit_8(context, RegexProgram.heapLimitKiB)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(context)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }
}
