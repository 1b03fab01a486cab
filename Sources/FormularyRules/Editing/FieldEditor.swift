/// What the editor does with an edit whose result no completion could make valid.
public enum EditPolicy: String, Sendable, Hashable, CaseIterable {
    /// An edit that inserts characters and whose formatted result is live-`invalid` is
    /// refused: the text and caret stay as they were. Deletions are always accepted.
    case refuseInvalid = "refuse-invalid"
    /// Every edit is applied; the verdict says what is wrong.
    case acceptAll = "accept-all"
}

/// What one edit did.
public struct EditOutcome: Sendable {
    /// Whether the edit was applied. Only an edit that inserts characters under
    /// ``EditPolicy/refuseInvalid`` can be refused; a paste is applied when any of its
    /// characters could be kept.
    public var accepted: Bool
    /// The live verdict of the field's text after the edit. A refused edit changes nothing,
    /// so this is then the verdict of the unchanged text (a refused letter does not make a
    /// card number that was fine look wrong); ``refusal`` says why it was refused.
    public var result: FieldResult
    /// Why the edit, or some characters of a paste, were refused: the rule that refused
    /// them and a message saying why ("Credit Card Number takes digits only", "Keep it to 160
    /// characters"); nil when nothing was refused.
    public var refusal: Violation?

    /// An outcome; editors build these, tests and apps may too.
    public init(accepted: Bool, result: FieldResult, refusal: Violation? = nil) {
        self.accepted = accepted
        self.result = result
        self.refusal = refusal
    }
}

/// One text field's state, edited keystroke by keystroke the way an app's text field is:
/// the type formats while the user types, the caret stays where the user expects it, and
/// keystrokes that cannot lead to a valid value are refused (with the default policy).
///
/// ```swift
/// var field = FieldEditor(type: card)
/// field.insert("4")           // text "4", caret 1
/// field.replace(1..<1, with: "111 1")
/// field.text                  // "4111 1"
/// field.result.verdict        // .incomplete
/// ```
///
/// Positions are counted in `Character`s (grapheme clusters) of ``text``.
/// ``replace(_:with:)`` is the one primitive; every other edit is expressed with it.
///
/// How an edit is applied: the characters before the edited range are kept as shown, the
/// replacement follows, then the characters after the range without the mask's literals;
/// the type formats the result (normalization and mask, as ``CompiledFieldType/format(_:)``).
/// So mask literals the type inserted do not count as typed, a literal typed where the mask
/// has it is taken as that literal (typing "12/" into `00/00` gives "12/"), and the caret
/// lands right after the character the user typed last (after the slot that holds it,
/// never after literals the mask added behind it).
///
/// Invariants: `0 <= caret <= text.count`; `text == type.format(text)`, with one
/// exception, documented in docs/library.md: for a type without a mask whose normalization
/// trims, white space the user types at the end of the text is kept
/// (`"Ada "`, so that "Ada Lovelace" can be typed at all) until the next edit or
/// ``commit()``; `type.format(text)` is then `text` without that white space.
/// For a type with masks chosen by the value (`mask … when /RE/`) the mask is the one the
/// live stage chooses for the text, so the invariant reads `text ==
/// type.format(text, stage: .live)`: typing "3" already takes a mask `when /3[47].*/`.
/// ``commit()`` formats with the final stage's choice.
public struct FieldEditor: Sendable {
    /// The field type that formats and judges the text.
    public let type: CompiledFieldType
    /// What happens to edits that produce a live-invalid text.
    public var policy: EditPolicy
    /// When ``visibleMessage(after:)`` shows a message: the type's `timing` unless set
    /// otherwise (a form field's `timing` overrides its type's).
    public var timing: MessageTiming
    /// What the field shows.
    public private(set) var text: String
    /// The selected characters; empty (`caret..<caret`) when nothing is selected. Typing
    /// replaces the selection, ``deleteBackward()`` removes it.
    public private(set) var selection: Range<Int>
    /// The live verdict of ``text``, led by ``externalError`` while one stands.
    public var result: FieldResult { withExternalError(typeResult) }
    /// The type's own live verdict of ``text``, which edits are judged against.
    var typeResult: FieldResult { judged ?? type.validate(text, stage: .live) }
    /// A message from outside the type, such as the app's server ("Email already in use"),
    /// shown in place of the type's until an edit changes the text; nil when there is none.
    ///
    /// While it stands, ``result`` starts with the violation of rule ``externalRule`` (error
    /// severity), so its message is this one and its verdict `invalid`, and
    /// ``visibleMessage(after:)`` shows it at every moment. An edit that changes ``text``
    /// clears it; a refused edit, a caret move, a selection, ``commit()`` and `setText` of
    /// the same text keep it.
    public var externalError: String?
    /// The rule name of the violation ``externalError`` adds to ``result``.
    public static let externalRule = "external"
    /// The live verdict, once known: nil only for an editor made by
    /// ``init(type:text:caret:policy:judgingLazily:)`` until its first edit.
    private var judged: FieldResult?

    /// Where the caret stands: the end of ``selection``, in `Character`s of ``text``.
    public var caret: Int { selection.upperBound }

    /// An empty field with the caret at 0.
    public init(type: CompiledFieldType, policy: EditPolicy = .refuseInvalid) {
        self.init(type: type, text: "", caret: 0, policy: policy)
    }

    /// A field that shows `text` with the caret at `caret` (clamped to the text), e.g. the
    /// state an app or a server kept between keystrokes. The text is taken as it is: pass
    /// one an editor produced (or `type.format` of a value).
    public init(type: CompiledFieldType, text: String, caret: Int, policy: EditPolicy = .refuseInvalid) {
        self.init(type: type, text: text, caret: caret, policy: policy, judgingLazily: false)
    }

    /// A field like ``init(type:text:caret:policy:)`` that does not judge `text` before it is
    /// asked to: a server answering one keystroke (`POST /v1/edit`) reads only the edit's
    /// outcome, and judging the text before the edit too was a third of its work.
    package init(type: CompiledFieldType, text: String, caret: Int, policy: EditPolicy, judgingLazily: Bool) {
        self.type = type
        self.policy = policy
        self.timing = type.timing
        self.text = text
        let position = min(max(caret, 0), text.count)
        selection = position..<position
        judged = judgingLazily ? nil : type.validate(text, stage: .live)
    }

    /// Replaces the characters in `range` (clamped to the text) with `replacement`: typing,
    /// pasting and deleting are all this call. The selection collapses to the new caret.
    ///
    /// A deletion (empty replacement) that would leave the text unchanged because it
    /// removed only literals the mask puts back (the backspace over the space of
    /// "4111 1") removes the typed character before the range instead, or after it when the
    /// range starts at the caret (a forward delete).
    ///
    /// Under ``EditPolicy/refuseInvalid``, an insertion whose result is invalid is refused,
    /// with two ways out of a dead end (docs/library.md): white space kept at the end of the
    /// text is dropped when the insertion would be taken without it, and a paste (more than
    /// one character) keeps the characters that can be typed one after another.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with replacement: String) -> EditOutcome {
        switch attempt(range, replacement) {
        case .applied(let candidate):
            take(candidate)
            return EditOutcome(accepted: true, result: result)
        case .refused(let candidate):
            let reason = refusal(of: candidate)
            if replacement.count > 1, let pasted = filteredPaste(range, replacement) {
                self = pasted
                return EditOutcome(accepted: true, result: result, refusal: reason.violation)
            }
            return EditOutcome(accepted: false, result: result, refusal: reason.violation)
        }
    }

    /// What one edit gives, without the paste filter.
    enum Attempt {
        case applied(Candidate)
        /// Refused; the candidate is what the edit would have produced.
        case refused(Candidate)
    }

    /// Works out one edit: the candidate text, and whether the policy takes it.
    func attempt(_ range: Range<Int>, _ replacement: String) -> Attempt {
        let map = CharacterMap(text)
        let lower = min(max(range.lowerBound, 0), map.characterCount)
        let upper = min(max(range.upperBound, lower), map.characterCount)
        let scalars = map.scalarOffset(ofCharacter: lower)..<map.scalarOffset(ofCharacter: upper)
        let literals = literalFlags(map.scalars)
        let typing = replacement.count == 1
        var candidate = apply(map, literals: literals, scalars, replacement, typing: typing)
        if replacement.isEmpty && lower < upper && candidate.text == text {
            let forward = lower == caret && selection.isEmpty
            candidate = deleteTypedCharacter(map, literals: literals, around: scalars, forward: forward)
                ?? Candidate(text: text, caret: lower, result: typeResult)
        }
        guard !replacement.isEmpty && policy == .refuseInvalid && candidate.result.verdict == .invalid else {
            return .applied(candidate)
        }
        if let start = keptWhiteSpaceStart(map, before: scalars, replacement: replacement) {
            // The white space kept at the end while typing ("ab " in a type without spaces)
            // would make this and every later keystroke a refusal: the keystroke replaces it.
            let retry = apply(map, literals: literals, start..<scalars.upperBound, replacement, typing: typing)
            if retry.result.verdict != .invalid { return .applied(retry) }
        }
        return .refused(candidate)
    }

    /// Makes `candidate` the field's state.
    mutating func take(_ candidate: Candidate) {
        if candidate.text != text { externalError = nil }
        text = candidate.text
        selection = candidate.caret..<candidate.caret
        judged = candidate.result
    }

    /// Types `characters` at the caret, replacing the selection if there is one.
    @discardableResult
    public mutating func insert(_ characters: String) -> EditOutcome {
        replace(selection, with: characters)
    }

    /// Removes the selection, or the character before the caret when nothing is selected
    /// (over a mask literal: the typed character before it). At the start of the text it
    /// changes nothing and is accepted.
    @discardableResult
    public mutating func deleteBackward() -> EditOutcome {
        if !selection.isEmpty { return replace(selection, with: "") }
        guard caret > 0 else { return EditOutcome(accepted: true, result: result) }
        return replace(caret - 1..<caret, with: "")
    }

    /// Replaces the whole text, as a paste over everything does: the text becomes
    /// `type.format(value)` (under ``EditPolicy/refuseInvalid``, unless that is invalid).
    @discardableResult
    public mutating func setText(_ value: String) -> EditOutcome {
        replace(0..<text.count, with: value)
    }

    /// Moves the caret (clamped to the text) and clears the selection.
    public mutating func moveCaret(to position: Int) {
        let p = min(max(position, 0), text.count)
        selection = p..<p
    }

    /// Selects `range` (clamped to the text); the caret goes to its end.
    public mutating func select(_ range: Range<Int>) {
        let lower = min(max(range.lowerBound, 0), text.count)
        let upper = min(max(range.upperBound, lower), text.count)
        selection = lower..<upper
    }

    /// Formats the text as a whole, dropping white space kept at the end while typing: what
    /// an app does when the field loses focus. The caret stays, within the text.
    public mutating func commit() {
        let formatted = type.format(text)
        if formatted != text {
            text = formatted
            judged = type.validate(text, stage: .live)
        }
        let p = min(caret, text.count)
        selection = p..<p
    }
}
