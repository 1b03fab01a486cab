/// A private-use scalar put at the caret while normalizing, to learn how many normalized
/// scalars stand before it. No normalization step removes or maps it.
private let caretMark: Unicode.Scalar = "\u{E000}"

extension FieldEditor {
    /// The text, caret and verdict an edit would produce.
    struct Candidate {
        var text: String
        var caret: Int
        var result: FieldResult
    }

    /// For each character of the text, whether the mask put it there as a literal (every
    /// scalar of it taken as the mask's literal at that place). All false without a mask.
    func literalFlags(_ characters: [Character]) -> [Bool] {
        guard let mask = type.mask else { return [Bool](repeating: false, count: characters.count) }
        let layout = mask.layout(Array(text.unicodeScalars))
        var flags: [Bool] = []
        flags.reserveCapacity(characters.count)
        var offset = 0
        for character in characters {
            let n = character.unicodeScalars.count
            flags.append(n > 0 && (offset..<offset + n).allSatisfy { layout.takenAsLiteral[$0] })
            offset += n
        }
        return flags
    }

    /// Applies one edit: the characters before `range` as shown, then `replacement`, then
    /// the characters after `range` without mask literals; the type formats the result.
    func apply(_ characters: [Character], literals: [Bool], _ range: Range<Int>,
               _ replacement: String) -> Candidate {
        var typed = String(characters[..<range.lowerBound])
        typed += replacement
        var rest = ""
        for k in range.upperBound..<characters.count where !literals[k] { rest.append(characters[k]) }
        let raw = typed + rest
        if raw.unicodeScalars.allSatisfy(isWhiteSpace) {
            // Absent: formatting keeps it as it is.
            return Candidate(text: raw, caret: typed.count, result: type.validate(raw, stage: .live))
        }
        let normalized = Array(type.normalize(raw).unicodeScalars)
        var marked = Array(type.normalize(typed + String(caretMark) + rest).unicodeScalars)
        var typedCount: Int
        var pending: [Unicode.Scalar] = []
        if let k = marked.firstIndex(of: caretMark) {
            marked.remove(at: k)
            typedCount = k
            if marked.count > normalized.count && type.mask == nil && k == marked.count
                && replacement.unicodeScalars.allSatisfy(isWhiteSpace)
                && Array(marked[..<normalized.count]) == normalized
                && marked[normalized.count...].allSatisfy(isWhiteSpace) {
                // White space typed at the end that trimming would remove: kept for now.
                pending = Array(marked[normalized.count...])
            } else if marked.count != normalized.count {
                typedCount = min(type.normalize(typed).unicodeScalars.count, normalized.count)
            }
        } else {
            typedCount = min(type.normalize(typed).unicodeScalars.count, normalized.count)
        }

        var formatted = type.format(raw)
        var caretScalars: Int
        if let mask = type.mask {
            let layout = mask.layout(normalized)
            if typedCount > 0 {
                caretScalars = layout.ends[typedCount - 1]
            } else {
                caretScalars = normalized.isEmpty ? 0 : layout.ends[0] - 1
            }
            if !formatted.unicodeScalars.elementsEqual(layout.output) {
                caretScalars = formatted.unicodeScalars.count   // not expected; stay safe
            }
        } else {
            caretScalars = typedCount
            if !pending.isEmpty {
                formatted.unicodeScalars.append(contentsOf: pending)
            }
        }
        return Candidate(text: formatted, caret: Self.characterOffset(in: formatted, scalars: caretScalars),
                         result: type.validate(formatted, stage: .live))
    }

    /// The deletion that removes the typed character next to `range` (which held only
    /// literals): after it for a forward delete (the range starts at the caret), else before.
    func deleteTypedCharacter(_ characters: [Character], literals: [Bool], around range: Range<Int>) -> Candidate {
        let forward = range.lowerBound == caret && range.upperBound > caret && selection.isEmpty
        if forward {
            if let k = (range.upperBound..<characters.count).first(where: { !literals[$0] }) {
                return apply(characters, literals: literals, range.lowerBound..<k + 1, "")
            }
        } else if let k = (0..<range.lowerBound).last(where: { !literals[$0] }) {
            return apply(characters, literals: literals, k..<range.upperBound, "")
        }
        let position = forward ? range.lowerBound : range.lowerBound
        return Candidate(text: text, caret: position, result: result)
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
