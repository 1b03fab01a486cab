extension CompiledFieldType {
    /// The value without what the type's mask (the one chosen for it) inserted and after normalization: the
    /// characters that fill the mask's slots (plus any the mask could not place). For a
    /// type without a mask, the normalized value. An absent value (empty or only white
    /// space) is returned as it is, as ``format(_:)`` does.
    ///
    /// `format(unformat(format(v))) == format(v)` for every value. So that this holds, a
    /// literal the user typed at the very end of an incomplete value ("12/" with mask
    /// `00/00`) is kept: formatting never adds a literal after the last character, so that
    /// one was typed, not inserted.
    public func unformat(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy(isWhiteSpace) { return text }
        let normalized = normalize(text)
        guard hasMask else { return normalized }
        let value = Array(normalized.unicodeScalars)
        // The mask `format` would choose (final stage): its literals are the ones to remove.
        guard let mask = chosenMask(value, stage: .final) else { return normalized }
        let layout = mask.layout(value)
        var keptTail = value.count
        if !layout.filled {
            while keptTail > 0 && layout.takenAsLiteral[keptTail - 1] { keptTail -= 1 }
        }
        var result = String.UnicodeScalarView()
        for (i, s) in value.enumerated() where !layout.takenAsLiteral[i] || i >= keptTail {
            result.append(s)
        }
        return String(result)
    }

    /// Whether a normalization step treats a value differently when a foreign scalar (the
    /// editor's caret mark) stands in it: `trim` (at the ends), `collapse-spaces` (inside a
    /// run of white space) and `capitalize` (at a word's start) do.
    var normalizationSeesTheMark: Bool {
        steps.contains {
            switch $0 {
            case .trim, .collapseSpaces, .capitalize: true
            default: false
            }
        }
    }

    /// ``normalize(_:)`` as scalars, decoded straight from the working buffer.
    func normalizedScalars(_ value: String) -> [Unicode.Scalar] {
        var text = value
        return text.withUTF8 { raw in
            Scratch.withCurrent { scratch in
                let current = normalized(raw, scratch: scratch).0
                var scalars: [Unicode.Scalar] = []
                scalars.reserveCapacity(current.count)
                var i = 0
                while i < current.count {
                    let (s, n) = decodeScalar(current, at: i)
                    scalars.append(s)
                    i += n
                }
                return scalars
            }
        }
    }

    /// The value after the normalization steps alone (no mask, no absent-value rule).
    func normalize(_ value: String) -> String {
        guard !steps.isEmpty else { return value }
        var text = value
        return text.withUTF8 { raw in
            Scratch.withCurrent { scratch in
                let current = normalized(raw, scratch: scratch).0
                return makeString(current)
            }
        }
    }
}
