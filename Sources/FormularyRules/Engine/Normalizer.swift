/// A compiled `normalize` step.
///
/// Semantics (all steps work on Unicode scalars, with ASCII fast paths):
/// - `trim`: removes white space (Unicode White_Space) at both ends.
/// - `collapse-spaces`: replaces every run of white space by one U+0020 space.
/// - `strip-spaces`: removes all white space.
/// - `strip "CHARS"`: removes every scalar listed in CHARS.
/// - `uppercase`, `lowercase`: full Unicode case mapping ("ß" upper-cases to "SS").
/// - `capitalize`: words are separated by white space and hyphens (`-`, U+2010, U+2011);
///   in each word the first letter is title-cased when only punctuation precedes it in the
///   word, the rest is left as typed: "jean-luc o'neil" → "Jean-Luc O'neil",
///   "(bob)" → "(Bob)", "3rd" stays "3rd".
enum NormalizeOperation: Sendable {
    case trim, collapseSpaces, stripSpaces, uppercase, lowercase, capitalize
    case strip(CharacterSetBits)

    init(_ step: NormalizeStep) {
        switch step {
        case .trim: self = .trim
        case .collapseSpaces: self = .collapseSpaces
        case .stripSpaces: self = .stripSpaces
        case .uppercase: self = .uppercase
        case .lowercase: self = .lowercase
        case .capitalize: self = .capitalize
        case .strip(let chars): self = .strip(CharacterSetBits(chars.unicodeScalars))
        }
    }

    /// Applies the step to `src`, writing into scratch buffer `index` (which must not be
    /// the one `src` lives in), and returns the result.
    func apply(_ src: Bytes, scratch: Scratch, buffer index: Int) -> Bytes {
        switch self {
        case .trim:
            return Self.trim(src)
        case .collapseSpaces:
            return Self.removeSpaces(src, collapse: true, scratch: scratch, buffer: index)
        case .stripSpaces:
            return Self.removeSpaces(src, collapse: false, scratch: scratch, buffer: index)
        case .strip(let set):
            return Self.strip(src, set: set, scratch: scratch, buffer: index)
        case .uppercase, .lowercase:
            let upper = if case .uppercase = self { true } else { false }
            if isAllASCII(src) {
                let dst = scratch.buffer(index, capacity: src.count)
                for i in 0..<src.count {
                    let c = src[i]
                    dst[i] = upper ? (c &- 0x61 < 26 ? c - 0x20 : c) : (c &- 0x41 < 26 ? c + 0x20 : c)
                }
                return UnsafeBufferPointer(start: dst, count: src.count)
            }
            let text = makeString(src)
            return copy(upper ? text.uppercased() : text.lowercased(), scratch: scratch, buffer: index)
        case .capitalize:
            return capitalize(src, scratch: scratch, buffer: index)
        }
    }

    @inline(__always)
    static func trim(_ src: Bytes) -> Bytes {
        var start = 0, end = src.count
        while start < end {
            let c = src[start]
            if c < 0x80 {
                guard c.isASCIIWhiteSpace else { break }
                start += 1
            } else {
                let (s, n) = decodeScalar(src, at: start)
                guard isWhiteSpace(s) else { break }
                start += n
            }
        }
        while end > start {
            let c = src[end - 1]
            if c < 0x80 {
                guard c.isASCIIWhiteSpace else { break }
                end -= 1
                continue
            }
            var lead = end - 1
            while lead > start && src[lead] & 0xC0 == 0x80 { lead -= 1 }
            guard isWhiteSpace(decodeScalar(src, at: lead).scalar) else { break }
            end = lead
        }
        return UnsafeBufferPointer(rebasing: src[start..<end])
    }

    /// `collapse-spaces` (each run of white space becomes one space) or `strip-spaces`.
    @inline(__always)
    static func removeSpaces(_ src: Bytes, collapse: Bool, scratch: Scratch, buffer index: Int) -> Bytes {
        let dst = scratch.buffer(index, capacity: src.count)
        var count = 0, i = 0, inRun = false
        while i < src.count {
            let c = src[i]
            if c < 0x80 {
                if c.isASCIIWhiteSpace {
                    if collapse && !inRun { dst[count] = 0x20; count += 1 }
                    inRun = true
                } else {
                    dst[count] = c
                    count += 1
                    inRun = false
                }
                i += 1
                continue
            }
            let (s, n) = decodeScalar(src, at: i)
            if isWhiteSpace(s) {
                if collapse && !inRun { dst[count] = 0x20; count += 1 }
                inRun = true
            } else {
                for k in 0..<n { dst[count + k] = src[i + k] }
                count += n
                inRun = false
            }
            i += n
        }
        return UnsafeBufferPointer(start: dst, count: count)
    }

    /// `strip "CHARS"`.
    @inline(__always)
    static func strip(_ src: Bytes, set: borrowing CharacterSetBits, scratch: Scratch, buffer index: Int) -> Bytes {
        let dst = scratch.buffer(index, capacity: src.count)
        var count = 0, i = 0
        while i < src.count {
            let c = src[i]
            if c < 0x80 {
                if !set.containsASCII(c) { dst[count] = c; count += 1 }
                i += 1
                continue
            }
            let (s, n) = decodeScalar(src, at: i)
            if !set.contains(s) {
                for k in 0..<n { dst[count + k] = src[i + k] }
                count += n
            }
            i += n
        }
        return UnsafeBufferPointer(start: dst, count: count)
    }

    /// `capitalize` written in place, a byte at a time for ASCII; nil when some word starts
    /// with a non-ASCII letter whose title case differs from it (the general path then maps
    /// it, since the mapping can be longer than the letter).
    @inline(__always)
    static func capitalizeInPlace(_ src: Bytes, scratch: Scratch, buffer index: Int) -> Bytes? {
        let dst = scratch.buffer(index, capacity: src.count)
        var lookingForLetter = true
        var i = 0
        while i < src.count {
            var c = src[i]
            if c < 0x80 {
                if c.isASCIIWhiteSpace || c == UInt8(ascii: "-") {
                    lookingForLetter = true
                } else if lookingForLetter {
                    if c.isASCIILetter {
                        lookingForLetter = false
                        if c &- 0x61 < 26 { c -= 0x20 }
                    } else if !isASCIIPunctuation(c) {
                        lookingForLetter = false
                    }
                }
                dst[i] = c
                i += 1
                continue
            }
            let (s, n) = decodeScalar(src, at: i)
            if isWhiteSpace(s) || s.value == 0x2010 || s.value == 0x2011 {
                lookingForLetter = true
            } else if lookingForLetter {
                if isLetter(s) {
                    if Self.titlecaseDiffers(s) { return nil }
                    lookingForLetter = false
                } else if !isPunctuation(s) {
                    lookingForLetter = false
                }
            }
            for k in 0..<n { dst[i + k] = src[i + k] }
            i += n
        }
        return UnsafeBufferPointer(start: dst, count: src.count)
    }

    private func capitalize(_ src: Bytes, scratch: Scratch, buffer index: Int) -> Bytes {
        if let done = Self.capitalizeInPlace(src, scratch: scratch, buffer: index) { return done }
        let out = Self.capitalizeByScalars(src)
        let target = scratch.buffer(index, capacity: out.count)
        for k in 0..<out.count { target[k] = out[k] }
        return UnsafeBufferPointer(start: target, count: out.count)
    }

    /// Whether the letter's title case is not the letter itself. Not inlined, for the
    /// reason given at `ScalarFlags.compute`.
    @inline(never)
    static func titlecaseDiffers(_ s: Unicode.Scalar) -> Bool {
        !s.properties.titlecaseMapping.unicodeScalars.elementsEqual(CollectionOfOne(s))
    }

    /// `capitalize` scalar by scalar, with full title-case mappings (which may be longer than
    /// the letter): the general path, and the reference the in-place path is tested against.
    static func capitalizeByScalars(_ src: Bytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(src.count + 4)
        var lookingForLetter = true
        var i = 0
        while i < src.count {
            let (s, n) = decodeScalar(src, at: i)
            var mapped: String? = nil
            if isWhiteSpace(s) || s == "-" || s == "\u{2010}" || s == "\u{2011}" {
                lookingForLetter = true
            } else if lookingForLetter {
                if isLetter(s) {
                    lookingForLetter = false
                    mapped = s.properties.titlecaseMapping
                } else if !isPunctuation(s) {
                    lookingForLetter = false
                }
            }
            if let mapped { out.append(contentsOf: mapped.utf8) }
            else { out.append(contentsOf: UnsafeBufferPointer(rebasing: src[i..<(i + n)])) }
            i += n
        }
        return out
    }

    private func copy(_ text: String, scratch: Scratch, buffer index: Int) -> Bytes {
        let n = text.utf8.count
        let dst = scratch.buffer(index, capacity: n)
        var k = 0
        for c in text.utf8 { dst[k] = c; k += 1 }
        return UnsafeBufferPointer(start: dst, count: n)
    }
}

/// A normalization step held by reference, so that running it borrows its payload (the
/// `strip` set) instead of copying and retaining it.
final class NormalizeStepBox: Sendable {
    let operation: NormalizeOperation
    let isTrim: Bool

    /// For `strip` of ASCII characters only and `strip-spaces`: the ASCII bytes removed, as a
    /// bitmap (`low`: 0–63, `high`: 64–127), for the all-ASCII fast path; nil otherwise.
    private let asciiRemoved: (low: UInt64, high: UInt64)?

    init(_ operation: NormalizeOperation) {
        self.operation = operation
        if case .trim = operation { isTrim = true } else { isTrim = false }
        switch operation {
        case .strip(let set): asciiRemoved = set.asciiBitmap
        // On ASCII text, Unicode White_Space is these six.
        case .stripSpaces: asciiRemoved = CharacterSetBits([" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]).asciiBitmap
        default: asciiRemoved = nil
        }
    }

    @inline(__always)
    func apply(_ src: Bytes, scratch: Scratch, buffer index: Int) -> Bytes {
        if let removed = asciiRemoved, isAllASCIIWords(src) {
            return Self.removeASCII(src, removed, scratch: scratch, buffer: index)
        }
        return operation.apply(src, scratch: scratch, buffer: index)
    }

    /// `strip` on ASCII text: every byte is stored and the output advances past the kept
    /// ones only, without a branch per byte (a card number's spaces come every fifth byte,
    /// which a branch predicts poorly).
    @inline(__always)
    private static func removeASCII(_ src: Bytes, _ removed: (low: UInt64, high: UInt64), scratch: Scratch,
                                    buffer index: Int) -> Bytes {
        let dst = scratch.buffer(index, capacity: src.count)
        var count = 0
        for i in 0..<src.count {
            let c = src[i]
            dst[count] = c
            let word = c < 64 ? removed.low : removed.high
            count &+= Int(truncatingIfNeeded: ~(word >> UInt64(c & 63)) & 1)
        }
        return UnsafeBufferPointer(start: dst, count: count)
    }
}

/// Whether every byte is ASCII, eight at a time.
@inline(__always)
func isAllASCIIWords(_ b: Bytes) -> Bool {
    guard let base = b.baseAddress else { return true }
    let n = b.count
    var i = 0
    var bits: UInt64 = 0
    while i &+ 8 <= n {
        bits |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        i &+= 8
    }
    while i < n {
        bits |= UInt64(base[i])
        i &+= 1
    }
    return bits & 0x8080_8080_8080_8080 == 0
}

/// A set of Unicode scalars with a bitmap for ASCII.
struct CharacterSetBits: Sendable, Hashable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var others: Set<UInt32> = []

    init<S: Sequence>(_ scalars: S) where S.Element == Unicode.Scalar {
        for s in scalars { insert(s) }
    }

    mutating func insert(_ s: Unicode.Scalar) {
        switch s.value {
        case 0..<64: low |= 1 << UInt64(s.value)
        case 64..<128: high |= 1 << UInt64(s.value - 64)
        default: others.insert(s.value)
        }
    }

    @inline(__always)
    func containsASCII(_ c: UInt8) -> Bool {
        c < 64 ? low & (1 << UInt64(c)) != 0 : high & (1 << UInt64(c &- 64)) != 0
    }

    func contains(_ s: Unicode.Scalar) -> Bool {
        s.value < 128 ? containsASCII(UInt8(s.value)) : others.contains(s.value)
    }

    /// The ASCII bitmap, when the set has no other scalar.
    var asciiBitmap: (low: UInt64, high: UInt64)? { others.isEmpty ? (low, high) : nil }
}
