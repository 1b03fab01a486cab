/// Why an edit was refused, and the two ways the editor keeps a refusal from being a dead
/// end: dropping white space kept at the end, and filtering a paste.
extension FieldEditor {
    /// A refusal's reason, and whether it is for want of room (a `length` maximum, a mask
    /// with no slot left): then no later character of a paste can be kept either.
    struct Refusal {
        var violation: Violation
        var noRoom: Bool
    }

    /// Why `candidate` (a refused edit's text) is invalid. The first error names the rule;
    /// a mask's own message is written for a value left incomplete ("Card number is
    /// incomplete"), so for the mask the reason says what its slot takes instead.
    func refusal(of candidate: Candidate) -> Refusal {
        let violations = candidate.result.violations
        guard let first = violations.first(where: { $0.severity == .error }) ?? violations.first else {
            return Refusal(violation: Violation(rule: "mask", severity: .error, message: "\(label) cannot take this"),
                           noRoom: false)
        }
        let normalized = type.normalizedScalars(candidate.text)
        if let (mask, check) = type.chosenMaskAndCheck(normalized, stage: .live), check?.rule == first.rule,
           let misfit = mask.misfit(normalized) {
            return Refusal(violation: Violation(rule: first.rule, severity: first.severity,
                                                message: message(for: misfit, in: mask)),
                           noRoom: misfit == nil)
        }
        let isLength = type.checks.contains { check in
            if check.rule == first.rule, case .length = check.kind { true } else { false }
        }
        return Refusal(violation: first, noRoom: isLength)
    }

    /// The type's label ("Credit Card Number"), else its name.
    var label: String { type.definition.label ?? type.definition.name }

    private func message(for slot: CompiledMask.Item?, in mask: CompiledMask) -> String {
        guard let slot else { return "\(label) has no room for more characters" }
        let only = mask.items.allSatisfy { if case .literal = $0 { true } else { $0 == slot } }
        switch (slot, only) {
        case (.digit, true): return "\(label) takes digits only"
        case (.letter, true): return "\(label) takes letters only"
        case (.alphanumeric, true), (.literal, _): return "\(label) takes letters and digits only"
        case (.digit, false): return "\(label) takes a digit here"
        case (.letter, false): return "\(label) takes a letter here"
        case (.alphanumeric, false): return "\(label) takes a letter or a digit here"
        }
    }

    /// Where the edit is at the end of a text of a type without a mask that ends in white
    /// space its normalization removes (kept while typing, docs/library.md), and the
    /// replacement is not white space: the scalar offset where that white space starts.
    func keptWhiteSpaceStart(_ map: CharacterMap, before range: Range<Int>, replacement: String) -> Int? {
        guard !type.hasMask, range.upperBound == map.scalars.count, range.lowerBound > 0,
              isWhiteSpace(map.scalars[range.lowerBound - 1]),
              !replacement.unicodeScalars.allSatisfy(isWhiteSpace) else { return nil }
        var start = range.lowerBound
        while start > 0 && isWhiteSpace(map.scalars[start - 1]) { start -= 1 }
        let before = type.normalizedScalars(String(scalars: map.scalars[..<range.lowerBound]))
        guard let last = before.last, !isWhiteSpace(last) else { return nil }
        return start
    }

    /// The field after pasting `replacement` over `range` one character after another,
    /// dropping the characters that are refused, or nil when none can be kept. It stops at
    /// a refusal for want of room; runs of characters are tried whole, doubling on success
    /// and halving on refusal, so a long paste costs a few whole edits, not one per
    /// character. Each try re-judges the whole text, so the tries are bounded (at most 256,
    /// and text sizes adding up to 8 times the text and paste): a paste that needs more
    /// keeps what it has by then. A megabyte paste thus costs a few megabyte edits.
    /// Types with number groups go one character at a time: padding is a typing rule.
    func filteredPaste(_ range: Range<Int>, _ replacement: String) -> FieldEditor? {
        var field = self
        field.select(range)
        let characters = Array(replacement)
        var budget = 8 * (text.utf8.count + replacement.utf8.count) + 65_536
        var tries = 256
        let chunked = !type.hasNumberGroups
        var i = 0, run = 1
        var kept = false
        while i < characters.count && budget > 0 && tries > 0 {
            let length = min(run, characters.count - i)
            budget -= field.text.utf8.count + length + 64
            tries -= 1
            let piece = length == 1 ? String(characters[i]) : String(characters[i..<(i + length)])
            switch field.attempt(field.selection, piece) {
            case .applied(let candidate):
                field.take(candidate)
                kept = true
                i += length
                if chunked { run *= 2 }
            case .refused(let candidate):
                if length > 1 {
                    run = max(1, length / 2)
                    continue
                }
                if field.refusal(of: candidate).noRoom { return kept ? field : nil }
                i += 1
                run = 1
            }
        }
        return kept ? field : nil
    }
}

extension CompiledMask {
    /// Why `value` (normalized scalars) does not fit: the slot its first misfit stands at,
    /// nil when the mask has no slot left for it; `.none` (no misfit) when it fits so far.
    func misfit(_ value: [Unicode.Scalar]) -> Item?? {
        var i = 0, m = 0
        while i < value.count {
            guard m < items.count else { return .some(nil) }
            let item = items[m]
            if case .literal(let literal) = item {
                if value[i] == literal { i += 1 }
                m += 1
                continue
            }
            guard scalarFits(item, value[i]) else { return .some(item) }
            i += 1
            m += 1
        }
        return .none
    }
}
