/// A private-use scalar put at the caret while normalizing, to learn how many normalized
/// scalars stand before it. No normalization step removes or maps it.
private let caretMark: Unicode.Scalar = "\u{E000}"

/// A text's scalars and where its characters start: edits arrive in `Character`s, the mask
/// and the normalization work on scalars.
struct CharacterMap {
    var scalars: [Unicode.Scalar]
    /// The first scalar of each character; nil when every character is one scalar (the
    /// usual ASCII text), so offsets are the same in both.
    var starts: [Int]?

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        starts = Self.oneScalarEach(scalars) ? nil : Self.characterStarts(text)
    }

    /// True when no two scalars can form one character: ASCII without CR (CR LF is one).
    static func oneScalarEach(_ scalars: [Unicode.Scalar]) -> Bool {
        !scalars.contains { $0.value >= 0x80 || $0 == "\r" }
    }

    static func characterStarts(_ text: String) -> [Int] {
        var starts: [Int] = []
        var offset = 0
        for character in text {
            starts.append(offset)
            offset += character.unicodeScalars.count
        }
        return starts
    }

    var characterCount: Int { starts?.count ?? scalars.count }

    /// The scalar offset where character `c` starts (the end for `c == characterCount`).
    func scalarOffset(ofCharacter c: Int) -> Int {
        guard let starts else { return c }
        return c < starts.count ? starts[c] : scalars.count
    }

    /// The index of the character that holds scalar `s`.
    func character(holding s: Int) -> Int {
        guard let starts else { return s }
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= s { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

extension FieldEditor {
    /// The text, caret and verdict an edit would produce.
    struct Candidate {
        var text: String
        var caret: Int
        var result: FieldResult
    }

    /// For each scalar of the text, whether the mask put it there as a literal. All false
    /// without a mask. With several masks, the one the live stage chooses for the text.
    func literalFlags(_ scalars: [Unicode.Scalar]) -> [Bool] {
        guard let mask = type.chosenMask(scalars, stage: .live) else { return [Bool](repeating: false, count: scalars.count) }
        return mask.layout(scalars).takenAsLiteral
    }

    /// Applies one edit, in scalars of the text: the scalars before `range` as shown, then
    /// `replacement`, then the scalars after `range` without mask literals; the type
    /// formats the result. With `typing` (one character typed), a mask's number group the
    /// character lands in may be padded (``CompiledMask/padded(_:typed:)``).
    func apply(_ map: CharacterMap, literals: [Bool], _ range: Range<Int>, _ replacement: String,
               typing: Bool = false) -> Candidate {
        // Scalar arrays, made into strings once each (`String(scalars:)`): appending to a
        // `String.UnicodeScalarView` scalar by scalar was half of what an edit cost.
        var typed = Array(map.scalars[..<range.lowerBound])
        typed.append(contentsOf: replacement.unicodeScalars)
        var rest: [Unicode.Scalar] = []
        rest.reserveCapacity(map.scalars.count - range.upperBound)
        for k in range.upperBound..<map.scalars.count where !literals[k] { rest.append(map.scalars[k]) }
        if typed.allSatisfy(isWhiteSpace) && rest.allSatisfy(isWhiteSpace) {
            // Absent: formatting keeps it as it is.
            let raw = String(scalars: typed + rest)
            return Candidate(text: raw, caret: String(scalars: typed).count, result: type.validate(raw, stage: .live))
        }
        var marked = typed
        marked.append(caretMark)
        marked.append(contentsOf: rest)
        var normalized = type.normalizedScalars(String(scalars: marked))
        let markIndex = normalized.firstIndex(of: caretMark)
        if let markIndex { normalized.remove(at: markIndex) }
        var typedCount = markIndex ?? 0
        var pending: ArraySlice<Unicode.Scalar> = []
        // Only trim, collapse-spaces and capitalize can treat a value differently for the
        // mark in it; without them the marked value less the mark is the normalized value.
        if markIndex == nil || type.normalizationSeesTheMark {
            var raw = typed
            raw.append(contentsOf: rest)
            let plain = type.normalizedScalars(String(scalars: raw))
            if let k = markIndex, !type.hasMask, k == normalized.count, normalized.count > plain.count,
               replacement.unicodeScalars.allSatisfy(isWhiteSpace),
               normalized[..<plain.count].elementsEqual(plain),
               normalized[plain.count...].allSatisfy(isWhiteSpace) {
                // White space typed at the end that trimming would remove: kept for now.
                pending = normalized[plain.count...]
            } else if markIndex == nil || normalized.count != plain.count {
                typedCount = min(type.normalizedScalars(String(scalars: typed)).count, plain.count)
            }
            normalized = plain
        }

        // The text is `type.format(raw)`, built from the same walk that places the caret. With
        // several masks, the one the live stage chooses: typing "3" takes a mask `when /3[47].*/`.
        var output: [Unicode.Scalar]
        let caretScalars: Int
        if typing, type.hasNumberGroups, typedCount > 0, typedCount <= normalized.count,
           normalized[typedCount - 1] == replacement.unicodeScalars.last,
           let mask = type.chosenMask(normalized, stage: .live),
           let padded = mask.padded(normalized, typed: typedCount - 1) {
            normalized = padded.value
            typedCount = padded.caret
        }
        if let mask = type.chosenMask(normalized, stage: .live) {
            var layout = mask.layout(normalized)
            if replacement.isEmpty && typedCount == normalized.count,
               let kept = layout.takenAsLiteral.lastIndex(of: false).map({ $0 + 1 }) ?? (normalized.isEmpty ? nil : 0),
               kept < normalized.count {
                // A deletion that leaves literals at the end: formatting never adds them there,
                // and the caret belongs after the last typed character (`12/3` → `12`).
                normalized.removeLast(normalized.count - kept)
                typedCount = kept
                layout = mask.layout(normalized)
            }
            output = layout.output
            if typedCount > 0 {
                caretScalars = layout.ends[typedCount - 1]
            } else {
                caretScalars = normalized.isEmpty ? 0 : layout.ends[0] - 1
            }
        } else {
            output = normalized
            output.append(contentsOf: pending)
            caretScalars = typedCount
        }
        let text = String(scalars: output)
        let caret = CharacterMap.oneScalarEach(output) ? caretScalars
            : Self.characterOffset(in: text, scalars: caretScalars)
        return Candidate(text: text, caret: caret, result: type.validate(text, stage: .live))
    }

    /// The deletion that removes the typed character next to `range` (scalars; it held only
    /// literals): after it for a forward delete (the range starts at the caret), else before.
    func deleteTypedCharacter(_ map: CharacterMap, literals: [Bool], around range: Range<Int>,
                              forward: Bool) -> Candidate? {
        if forward {
            guard let k = (range.upperBound..<map.scalars.count).first(where: { !literals[$0] }) else { return nil }
            let end = map.scalarOffset(ofCharacter: map.character(holding: k) + 1)
            return apply(map, literals: literals, range.lowerBound..<end, "")
        }
        guard let k = (0..<range.lowerBound).last(where: { !literals[$0] }) else { return nil }
        let start = map.scalarOffset(ofCharacter: map.character(holding: k))
        return apply(map, literals: literals, start..<range.upperBound, "")
    }

    /// The number of characters of `text` that end at or before `scalars` scalars (a caret
    /// inside a character moves to its end).
    static func characterOffset(in text: String, scalars: Int) -> Int {
        var seen = 0, count = 0
        for character in text {
            if seen >= scalars { break }
            seen += character.unicodeScalars.count
            count += 1
        }
        return count
    }
}

extension String {
    /// The string of `scalars`, encoded as UTF-8 into one buffer of the right size.
    init<Scalars: Collection<Unicode.Scalar>>(scalars: Scalars) {
        var length = 0
        for scalar in scalars { length += UTF8.width(scalar) }
        self.init(unsafeUninitializedCapacity: length) { buffer in
            var end = 0
            for scalar in scalars {
                UTF8.encode(scalar) { unit in
                    buffer[end] = unit
                    end += 1
                }
            }
            return end
        }
    }
}
