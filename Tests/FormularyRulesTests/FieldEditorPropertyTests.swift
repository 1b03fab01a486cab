import Testing
@testable import FormularyRules

// The invariants of docs/library.md, held for every built-in type over seeded random
// keystroke sequences: typing, backspace, forward delete, selections, pastes and caret
// moves. A failure names the type, the seed and the steps, so it can be replayed.

/// One random edit.
enum RandomEdit: CustomStringConvertible {
    case type(Character), backspace, forwardDelete, moveCaret(Int), select(Int, Int)
    case paste(String), replace(Int, Int, String)

    var description: String {
        switch self {
        case .type(let c): "type(\(String(c).debugDescription))"
        case .backspace: "backspace"
        case .forwardDelete: "forwardDelete"
        case .moveCaret(let p): "moveCaret(\(p))"
        case .select(let a, let b): "select(\(a)..<\(b))"
        case .paste(let s): "paste(\(s.debugDescription))"
        case .replace(let a, let b, let s): "replace(\(a)..<\(b), \(s.debugDescription))"
        }
    }

    var inserts: Bool {
        switch self {
        case .type: true
        case .paste(let s), .replace(_, _, let s): !s.isEmpty
        default: false
        }
    }

    static func random(for type: CompiledFieldType, examples: [String], textCount: Int,
                       using rng: inout SplitMix64) -> RandomEdit {
        let letters = alphabet(for: type)
        let a = rng.int(0...textCount + 1), b = rng.int(0...textCount + 1)
        switch rng.int(0...19) {
        case 0...9: return .type(rng.pick(letters))
        case 10...12: return .backspace
        case 13: return .forwardDelete
        case 14: return .moveCaret(rng.int(-1...textCount + 1))
        case 15: return .select(min(a, b), max(a, b))
        case 16:
            let value = examples.isEmpty || rng.chance(0.5) ? rng.string(from: letters, maxLength: 6) : rng.pick(examples)
            return .paste(value)
        default: return .replace(min(a, b), max(a, b), rng.string(from: letters, maxLength: 3))
        }
    }

    /// Applies the edit; nil when it is not an edit (a caret move or a selection).
    @discardableResult
    func apply(to field: inout FieldEditor) -> EditOutcome? {
        switch self {
        case .type(let c): return field.insert(String(c))
        case .backspace: return field.deleteBackward()
        case .forwardDelete:
            guard field.selection.isEmpty else { return field.deleteBackward() }
            return field.replace(field.caret..<field.caret + 1, with: "")
        case .moveCaret(let p): field.moveCaret(to: p); return nil
        case .select(let a, let b): field.select(a..<b); return nil
        case .paste(let s): return field.insert(s)
        case .replace(let a, let b, let s): return field.replace(a..<b, with: s)
        }
    }
}

/// The examples a type accepts in the final stage.
func acceptedExamples(_ name: String) -> [String] {
    (builtinTypes[name]?.definition.examples ?? []).compactMap {
        if case .accept = $0.expectation, !$0.live { $0.value } else { nil }
    }
}

/// Runs `sequences` random sequences of `steps` edits on every built-in type and calls
/// `check` after each step with the field before and after, the edit and its outcome.
func everyRandomEdit(policy: EditPolicy, sequences: Int = 40, steps: Int = 40,
                     _ check: (_ before: FieldEditor, _ after: FieldEditor, _ edit: RandomEdit,
                               _ outcome: EditOutcome?, _ where: String) -> Void) {
    for (typeIndex, name) in builtinTypeNames.enumerated() {
        let type = builtinTypes[name]!.type
        let examples = acceptedExamples(name)
        for sequence in 0..<sequences {
            let seed = UInt64(0xF0_4D1A) &+ UInt64(typeIndex) << 32 &+ UInt64(sequence)
            var rng = SplitMix64(seed: seed)
            var field = FieldEditor(type: type, policy: policy)
            var log: [RandomEdit] = []
            for _ in 0..<steps {
                let edit = RandomEdit.random(for: type, examples: examples, textCount: field.text.count, using: &rng)
                log.append(edit)
                let before = field
                let outcome = edit.apply(to: &field)
                check(before, field, edit, outcome,
                      "type \(name), policy \(policy), seed \(String(seed, radix: 16)), steps \(log)")
            }
        }
    }
}

/// `text == format(text, stage: .live)` (the same as `format(text)` but for masks chosen by
/// the value), except white space kept at the end of an unmasked type's text while typing
/// (docs/library.md): then `text` is `format(text)` plus that white space.
func isOwnFormat(_ text: String, _ type: CompiledFieldType) -> Bool {
    let formatted = type.format(text, stage: .live)
    if text == formatted { return true }
    guard !type.hasMask, text.hasPrefix(formatted) else { return false }
    return text.dropFirst(formatted.count).allSatisfy { $0.unicodeScalars.allSatisfy(isWhiteSpace) }
}

@Suite struct FieldEditorPropertyTests {
    @Test(arguments: EditPolicy.allCases)
    func textIsAlwaysItsOwnFormat(_ policy: EditPolicy) {
        everyRandomEdit(policy: policy) { _, after, _, _, place in
            #expect(isOwnFormat(after.text, after.type), "text \(after.text.debugDescription) is not its own format; \(place)")
        }
    }

    @Test(arguments: EditPolicy.allCases)
    func caretStaysWithinTheText(_ policy: EditPolicy) {
        everyRandomEdit(policy: policy) { _, after, _, _, place in
            #expect(after.caret >= 0 && after.caret <= after.text.count,
                    "caret \(after.caret) outside \(after.text.debugDescription); \(place)")
            #expect(after.selection.lowerBound >= 0 && after.selection.upperBound <= after.text.count, "\(place)")
        }
    }

    @Test func refuseInvalidNeverAcceptsAnInsertionThatIsInvalid() {
        everyRandomEdit(policy: .refuseInvalid) { _, after, edit, outcome, place in
            guard let outcome, edit.inserts, outcome.accepted else { return }
            #expect(after.result.verdict != .invalid, "accepted \(edit) gave invalid \(after.text.debugDescription); \(place)")
        }
    }

    @Test func typingOnlyNeverReachesInvalidUnderRefuseInvalid() {
        for name in builtinTypeNames {
            let type = builtinTypes[name]!.type
            for sequence in 0..<60 {
                let seed = UInt64(0x7E57) &+ UInt64(sequence)
                var rng = SplitMix64(seed: seed)
                var field = FieldEditor(type: type)
                for _ in 0..<30 {
                    let c = rng.pick(alphabet(for: type))
                    field.insert(String(c))
                    #expect(field.result.verdict != .invalid, "type \(name), seed \(seed): \(field.text.debugDescription)")
                }
            }
        }
    }

    @Test func aRefusedEditLeavesTheFieldAsItWas() {
        everyRandomEdit(policy: .refuseInvalid) { before, after, edit, outcome, place in
            guard let outcome, !outcome.accepted else { return }
            #expect(edit.inserts, "a deletion was refused; \(place)")
            #expect(outcome.refusal != nil, "a refusal without a reason; \(place)")
            #expect(after.text == before.text && after.selection == before.selection, "\(place)")
            #expect(after.result.verdict == before.result.verdict, "\(place)")
            // The outcome reports the unchanged text's verdict, not the refused text's.
            #expect(outcome.result.verdict == before.result.verdict, "\(place)")
        }
    }

    @Test func acceptAllAcceptsEveryEdit() {
        everyRandomEdit(policy: .acceptAll, sequences: 10) { _, after, _, outcome, place in
            guard let outcome else { return }
            #expect(outcome.accepted, "\(place)")
            #expect(outcome.result.verdict == after.type.validate(after.text, stage: .live).verdict, "\(place)")
        }
    }

    @Test func theResultIsTheLiveVerdictOfTheText() {
        everyRandomEdit(policy: .refuseInvalid, sequences: 10) { _, after, _, _, place in
            let live = after.type.validate(after.text, stage: .live)
            #expect(after.result.verdict == live.verdict && after.result.message == live.message, "\(place)")
        }
    }

    @Test func pastingAWholeValueGivesItsFormat() {
        for name in builtinTypeNames {
            let type = builtinTypes[name]!.type
            var rng = SplitMix64(seed: 0xBA57E)
            let values = acceptedExamples(name).flatMap { [$0, type.format($0)] }
                + (0..<100).map { _ in rng.string(from: alphabet(for: type), maxLength: 24) }
            for value in values {
                var field = FieldEditor(type: type, policy: .acceptAll)
                field.type("12")
                field.select(0..<field.text.count)
                field.insert(value)
                #expect(field.text == type.format(value, stage: .live), "type \(name): paste \(value.debugDescription)")
                var empty = FieldEditor(type: type, policy: .acceptAll)
                empty.setText(value)
                #expect(empty.text == type.format(value, stage: .live), "type \(name): setText \(value.debugDescription)")
            }
        }
    }

    @Test func typingEachAcceptExampleEndsWithItsFormatAndValid() throws {
        var typed = 0
        for name in builtinTypeNames {
            let type = builtinTypes[name]!.type
            for example in acceptedExamples(name) {
                var field = FieldEditor(type: type)
                for character in example {
                    field.insert(String(character))   // refused keystrokes are skipped
                }
                let expected = type.format(example)
                #expect(type.format(field.text) == expected, "type \(name): typed \(example.debugDescription), got \(field.text.debugDescription)")
                #expect(isOwnFormat(field.text, type), "type \(name): \(field.text.debugDescription)")
                #expect(field.result.verdict == .valid, "type \(name): typed \(example.debugDescription): \(field.result.violations)")
                field.commit()
                #expect(field.text == expected, "type \(name): committed \(field.text.debugDescription)")
                #expect(type.validate(field.text).verdict == .valid, "type \(name): \(example.debugDescription)")
                typed += 1
            }
        }
        #expect(typed >= 40, "only \(typed) examples typed: are the plugins found at \(pluginsFolder.path)?")
        #expect(builtinTypeNames.count >= 16)
    }
}
