/// Source-level treatment of `pattern` regexes before PCRE2 sees them.
enum RegexSource {
    /// A valid pointer for empty subjects and patterns (PCRE2 rejects NULL).
    nonisolated(unsafe) static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    struct Rewritten {
        var bytes: [UInt8]
        /// For each rewritten byte, the offset of the source byte it came from.
        var origins: [Int]
        func originalOffset(_ offset: Int) -> Int {
            offset < origins.count ? origins[offset] : (origins.last.map { $0 + 1 } ?? 0)
        }
    }

    /// Rewrites `\d` to `[0-9]` and `\D` to `[^0-9]` (inside a class: `0-9` and every
    /// scalar but 0–9), so that pattern digits are ASCII as in `integer` and `decimal`,
    /// although PCRE2's UCP mode would let `\d` match any Unicode decimal digit.
    static func asciiDigits(_ source: String, extended: Bool) -> Rewritten {
        let src = Array(source.utf8)
        var out = Rewritten(bytes: [], origins: [])
        out.bytes.reserveCapacity(src.count)
        func emit(_ text: String, from origin: Int) {
            for b in text.utf8 { out.bytes.append(b); out.origins.append(origin) }
        }
        func copy(_ i: Int) { out.bytes.append(src[i]); out.origins.append(i) }
        var scanner = Scanner(src, extended: extended)
        while let token = scanner.next() {
            if case .escape(let letter) = token.kind, letter == UInt8(ascii: "d") || letter == UInt8(ascii: "D") {
                let digit = letter == UInt8(ascii: "d")
                if token.inClass {
                    emit(digit ? "0-9" : "\\x{0}-/:-\\x{10ffff}", from: token.range.lowerBound)
                } else {
                    emit(digit ? "[0-9]" : "[^0-9]", from: token.range.lowerBound)
                }
            } else {
                for i in token.range { copy(i) }
            }
        }
        return out
    }

    /// True when a group holding an unbounded quantifier is itself repeated without bound,
    /// as in `(a+)+`, `(a*)*` or `(\w+\s?)*`: a shape prone to catastrophic backtracking.
    /// Possessive quantifiers and atomic groups are not counted.
    static func hasNestedQuantifier(_ source: String, extended: Bool) -> Bool {
        var scanner = Scanner(Array(source.utf8), extended: extended)
        // One entry per open group: does it hold an unbounded quantifier; is it atomic.
        var stack: [(unbounded: Bool, atomic: Bool)] = [(false, false)]
        var lastGroup: (unbounded: Bool, atomic: Bool)? = nil
        while let token = scanner.next() {
            if case .quantifier(let unbounded, let possessive) = token.kind {
                if unbounded && !possessive {
                    if let group = lastGroup, group.unbounded, !group.atomic { return true }
                    stack[stack.count - 1].unbounded = true
                }
            }
            // A group holding an unbounded quantifier makes its parent hold one too.
            if let group = lastGroup, group.unbounded, !group.atomic {
                stack[stack.count - 1].unbounded = true
            }
            lastGroup = nil
            switch token.kind {
            case .groupOpen(let atomic):
                stack.append((false, atomic))
            case .groupClose:
                if stack.count > 1 { lastGroup = stack.removeLast() }
            default:
                break
            }
        }
        return false
    }

    /// A rough PCRE2 tokenizer: enough to tell escapes, classes, groups and quantifiers
    /// apart.
    struct Scanner {
        enum Kind {
            case escape(UInt8), literal, classPart, groupOpen(atomic: Bool), groupClose
            case quantifier(unbounded: Bool, possessive: Bool)
        }
        struct Token {
            var kind: Kind
            var range: Range<Int>
            var inClass: Bool
        }

        let src: [UInt8]
        let extended: Bool
        var i = 0
        var inClass = false
        var classStart = 0
        var inQuote = false

        init(_ src: [UInt8], extended: Bool) {
            self.src = src
            self.extended = extended
        }

        private func at(_ k: Int) -> UInt8? { k < src.count ? src[k] : nil }

        mutating func next() -> Token? {
            guard i < src.count else { return nil }
            let start = i
            let c = src[i]
            if inQuote {
                if c == UInt8(ascii: "\\") && at(i + 1) == UInt8(ascii: "E") { inQuote = false; i += 2 } else { i += 1 }
                return Token(kind: .literal, range: start..<i, inClass: inClass)
            }
            if c == UInt8(ascii: "\\"), let e = at(i + 1) {
                i += 2
                if e == UInt8(ascii: "Q") { inQuote = true }
                // \x{..}, \p{..}, \g{..}, \k{..}, \N{..}, \o{..}: the braces belong to the escape.
                if "xpPgkNo".utf8.contains(e), at(i) == UInt8(ascii: "{") {
                    while i < src.count && src[i] != UInt8(ascii: "}") { i += 1 }
                    i = min(i + 1, src.count)
                }
                return Token(kind: .escape(e), range: start..<i, inClass: inClass)
            }
            if inClass {
                if c == UInt8(ascii: "["), at(i + 1) == UInt8(ascii: ":") {
                    // POSIX class [:alpha:]
                    i += 2
                    while i + 1 < src.count && !(src[i] == UInt8(ascii: ":") && src[i + 1] == UInt8(ascii: "]")) { i += 1 }
                    i = min(i + 2, src.count)
                    return Token(kind: .classPart, range: start..<i, inClass: true)
                }
                let first = i == classStart || (i == classStart + 1 && src[classStart] == UInt8(ascii: "^"))
                if c == UInt8(ascii: "]") && !first { inClass = false }
                i += 1
                return Token(kind: .classPart, range: start..<i, inClass: true)
            }
            i += 1
            switch c {
            case UInt8(ascii: "["):
                inClass = true
                classStart = i
                return Token(kind: .classPart, range: start..<i, inClass: false)
            case UInt8(ascii: "#") where extended:
                while i < src.count && src[i] != UInt8(ascii: "\n") { i += 1 }
                return Token(kind: .literal, range: start..<i, inClass: false)
            case UInt8(ascii: "("):
                if at(i) == UInt8(ascii: "?"), at(i + 1) == UInt8(ascii: "#") {
                    while i < src.count && src[i] != UInt8(ascii: ")") { i += 1 }
                    i = min(i + 1, src.count)
                    return Token(kind: .literal, range: start..<i, inClass: false)
                }
                if at(i) == UInt8(ascii: "*") {
                    // (*VERB) or (*UTF): not a group.
                    while i < src.count && src[i] != UInt8(ascii: ")") { i += 1 }
                    i = min(i + 1, src.count)
                    return Token(kind: .literal, range: start..<i, inClass: false)
                }
                let atomic = at(i) == UInt8(ascii: "?") && at(i + 1) == UInt8(ascii: ">")
                if at(i) == UInt8(ascii: "?") {
                    // Skip the group's kind so that its `?` is not taken for a quantifier.
                    i += 1
                    if let k = at(i), ":=!>|".utf8.contains(k) {
                        i += 1
                    } else if at(i) == UInt8(ascii: "<"), let k = at(i + 1), k == UInt8(ascii: "=") || k == UInt8(ascii: "!") {
                        i += 2
                    } else if let k = at(i), k == UInt8(ascii: "<") || k == UInt8(ascii: "'") || k == UInt8(ascii: "P") {
                        while i < src.count && src[i] != UInt8(ascii: ">") && !(src[i] == UInt8(ascii: "'") && i > start + 2) { i += 1 }
                        i = min(i + 1, src.count)
                    } else {
                        while let k = at(i), k.isASCIILetter || k == UInt8(ascii: "-") || k == UInt8(ascii: "^") { i += 1 }
                        if at(i) == UInt8(ascii: ":") { i += 1 }
                    }
                }
                return Token(kind: .groupOpen(atomic: atomic), range: start..<i, inClass: false)
            case UInt8(ascii: ")"):
                return Token(kind: .groupClose, range: start..<i, inClass: false)
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
                let unbounded = c != UInt8(ascii: "?")
                var possessive = false
                if at(i) == UInt8(ascii: "+") { possessive = true; i += 1 } else if at(i) == UInt8(ascii: "?") { i += 1 }
                return Token(kind: .quantifier(unbounded: unbounded, possessive: possessive),
                             range: start..<i, inClass: false)
            case UInt8(ascii: "{"):
                // {n}, {n,}, {n,m}; anything else is a literal brace.
                var k = i
                while k < src.count && src[k].isASCIIDigit { k += 1 }
                guard k > i else { return Token(kind: .literal, range: start..<i, inClass: false) }
                var unbounded = false
                if at(k) == UInt8(ascii: ",") {
                    k += 1
                    let m = k
                    while k < src.count && src[k].isASCIIDigit { k += 1 }
                    unbounded = k == m
                }
                guard at(k) == UInt8(ascii: "}") else { return Token(kind: .literal, range: start..<i, inClass: false) }
                i = k + 1
                var possessive = false
                if at(i) == UInt8(ascii: "+") { possessive = true; i += 1 } else if at(i) == UInt8(ascii: "?") { i += 1 }
                return Token(kind: .quantifier(unbounded: unbounded, possessive: possessive),
                             range: start..<i, inClass: false)
            default:
                return Token(kind: .literal, range: start..<i, inClass: false)
            }
        }
    }
}
