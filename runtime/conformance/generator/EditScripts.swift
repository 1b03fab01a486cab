import FormularyJSON
import FormularyRules

/// Keystroke scripts: an editor driven by random edits — typing at the caret and at random
/// carets, deleting both ways, selections replaced or deleted, pastes, whole-text
/// replacements, caret moves (sometimes to UTF-16 offsets inside a character), commits and
/// messages from a server — with the editor's state after every step.
///
/// An operation is written with UTF-16 positions, as formulary.js takes them; the Swift
/// editor gets the same range in characters, rounded outwards as formulary.js rounds it.
enum EditScripts {
    static func script(_ type: CompiledFieldType, reference: String, pool: ValuePool,
                       _ random: inout SeededRandom) -> (JSONValue, Int) {
        let policy: EditPolicy = random.chance(0.8) ? .refuseInvalid : .acceptAll
        var editor = FieldEditor(type: type, policy: policy)
        var timing: JSONValue = .null
        if random.chance(0.15) {
            let chosen = random.pick(MessageTiming.allCases)
            editor.timing = chosen
            timing = .string(chosen.rawValue)
        }
        var initial: JSONValue = .null
        if random.chance(0.2), let example = pool.examples.isEmpty ? nil : random.pick(pool.examples) {
            let text = type.format(example, stage: .live)
            let caret = random.int(0...text.count)
            editor = FieldEditor(type: type, text: text, caret: caret, policy: policy)
            if case .string(let t) = timing, let chosen = MessageTiming(rawValue: t) { editor.timing = chosen }
            initial = [.string(text), .integer(text.characterBounds[caret])]
        }
        var steps: [JSONValue] = []
        for _ in 0..<random.int(4...18) {
            let text = editor.text
            let bounds = text.characterBounds
            let count = bounds.count - 1
            /// A position: mostly a character boundary, sometimes inside a character.
            func position() -> Int {
                if random.chance(0.1), let last = bounds.last, last > 0 { return random.int(0...last) }
                return bounds[random.int(0...count)]
            }
            func character(_ u: Int, up: Bool) -> Int {
                var k = 0
                while k + 1 < bounds.count && bounds[k + 1] <= u { k += 1 }
                return up && bounds[k] < u ? k + 1 : k
            }
            var op: [JSONValue]
            var outcome: EditOutcome?
            switch random.weighted([40, 10, 14, 5, 8, 5, 7, 3, 3, 4, 1]) {
            case 0:
                let s = pool.character(&random)
                op = ["i", .string(s)]
                outcome = editor.insert(s)
            case 1:
                let at = position()
                let s = pool.character(&random)
                op = ["r", .integer(at), .integer(at), .string(s)]
                let lower = character(at, up: false)
                outcome = editor.replace(lower..<max(lower, character(at, up: true)), with: s)
            case 2:
                op = ["b"]
                outcome = editor.deleteBackward()
            case 3:
                op = ["d"]
                if !editor.selection.isEmpty { outcome = editor.replace(editor.selection, with: "") }
                else if editor.caret >= count { outcome = EditOutcome(accepted: true, result: editor.result) }
                else { outcome = editor.replace(editor.caret..<(editor.caret + 1), with: "") }
            case 4, 5:
                var a = position(), b = position()
                if a > b { swap(&a, &b) }
                let lower = character(a, up: false), upper = max(lower, character(b, up: true))
                op = ["l", .integer(a), .integer(b)]
                editor.select(lower..<upper)
                steps.append(["o": .array(op), "e": expected(editor, nil)])
                if random.chance(0.6) {
                    let s = pool.character(&random)
                    op = ["i", .string(s)]
                    outcome = editor.insert(s)
                } else {
                    op = ["b"]
                    outcome = editor.deleteBackward()
                }
            case 6:
                let s = random.chance(0.5) ? pool.value(&random) : pool.string(&random, length: random.int(2...12))
                op = ["i", .string(s)]
                outcome = editor.insert(s)
            case 7:
                let s = pool.value(&random)
                op = ["s", .string(s)]
                outcome = editor.setText(s)
            case 8:
                op = ["c"]
                editor.commit()
            case 9:
                let at = position()
                op = ["m", .integer(at)]
                editor.moveCaret(to: character(at, up: false))
            default:
                let message: String? = editor.externalError == nil ? "Already taken" : nil
                op = ["x", message.map(JSONValue.string) ?? .null]
                editor.externalError = message
            }
            steps.append(["o": .array(op), "e": expected(editor, outcome)])
        }
        let script: JSONValue = ["t": .string(reference), "p": .string(policy.rawValue), "tm": timing,
                                 "i": initial, "s": .array(steps)]
        return (script, steps.count)
    }

    /// The editor after a step: text, selection (UTF-16), the outcome of an edit, the live
    /// result, and the message shown at each moment.
    static func expected(_ editor: FieldEditor, _ outcome: EditOutcome?) -> JSONValue {
        let bounds = editor.text.characterBounds
        var e: JSONObject = [
            "t": .string(editor.text),
            "a": .integer(bounds[editor.selection.lowerBound]), "b": .integer(bounds[editor.selection.upperBound]),
            "r": Encode.result(editor.result),
            "vm": [Encode.optional(editor.visibleMessage(after: .typing)), Encode.optional(editor.visibleMessage(after: .leaving)),
                   Encode.optional(editor.visibleMessage(after: .submitting))],
        ]
        if let outcome {
            e["k"] = .bool(outcome.accepted)
            e["ref"] = outcome.refusal.map { [.string($0.rule), .string($0.severity.rawValue), .string($0.message)] } ?? .null
            e["or"] = Encode.result(outcome.result)
        }
        if let counter = editor.counterText { e["n"] = .string(counter) }
        return .object(e)
    }
}
