import Testing
@testable import FormularyRules

@Suite struct FieldEditorTests {
    @Test func typingACardFormatsAndKeepsTheCaretAfterTheTypedDigit() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        #expect(field.text == "" && field.caret == 0 && field.policy == .refuseInvalid)
        field.type("4111")
        #expect(field.text == "4111" && field.caret == 4)
        let r = field.insert("1")
        #expect(r.accepted && field.text == "4111 1" && field.caret == 6)
        #expect(r.result.verdict == .incomplete)
        field.type("11111111111")
        #expect(field.text == "4111 1111 1111 1111" && field.caret == 19)
        #expect(field.result.verdict == .valid && field.result.message == nil)
    }

    @Test func refusesLettersAndInputPastTheMaximum() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        field.type("4111")
        let letter = field.insert("x")
        #expect(!letter.accepted && field.text == "4111" && field.caret == 4)
        // The verdict is the unchanged text's; the refusal says why, not "incomplete".
        #expect(letter.result.verdict == .incomplete && letter.result.message == nil)
        // The rule is the chosen mask's: the brand's.
        #expect(letter.refusal?.rule == "visa" && letter.refusal?.message == "Credit Card Number takes digits only")
        // 19 digits is the longest card number (a Visa here).
        field.setText("4000000000000000006")
        #expect(field.text == "4000 0000 0000 0000 006")
        let long = field.insert("1")
        #expect(!long.accepted && field.text == "4000 0000 0000 0000 006")
        #expect(long.refusal?.message == "Credit Card Number has no room for more characters")
    }

    @Test func acceptAllAppliesEveryEditAndTheVerdictSaysWhy() throws {
        var field = FieldEditor(type: try builtin("credit-card"), policy: .acceptAll)
        field.type("41x")
        #expect(field.text == "41x" && field.caret == 3)
        #expect(field.result.verdict == .invalid && field.result.message == "A Visa card number has 13, 16 or 19 digits")
    }

    @Test func aTypedLiteralIsTakenAsTheMasksLiteral() throws {
        var field = FieldEditor(type: try builtin("exp-date"))
        #expect(field.type("12/") == 0)
        #expect(field.text == "12/" && field.caret == 3)
        field.type("30")
        #expect(field.text == "12/30" && field.caret == 5 && field.result.verdict == .valid)
        var other = FieldEditor(type: try builtin("exp-date"))
        other.type("1230")
        #expect(other.text == "12/30" && other.caret == 5)
    }

    @Test func phoneLiteralsDoNotCountAsTyped() throws {
        var field = FieldEditor(type: try builtin("phone"))
        field.insert("5")
        #expect(field.text == "(5" && field.caret == 2)
        field.type("551")
        #expect(field.text == "(555) 1" && field.caret == 7)
    }

    @Test func backspaceOverALiteralDeletesTheTypedCharacterBeforeIt() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        field.type("41111")
        field.moveCaret(to: 5)          // after the space, before the fifth digit
        let r = field.deleteBackward()
        #expect(r.accepted && field.text == "4111" && field.caret == 3)
        // The same through replace, as UIKit reports a backspace: the range of the space.
        var again = FieldEditor(type: try builtin("credit-card"))
        again.type("41111")
        again.replace(4..<5, with: "")
        #expect(again.text == "4111" && again.caret == 3)
    }

    @Test func forwardDeleteOverALiteralDeletesTheTypedCharacterAfterIt() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        field.type("411122")
        field.moveCaret(to: 4)
        field.replace(4..<5, with: "")
        #expect(field.text == "4111 2" && field.caret == 4)
    }

    @Test func deletingInTheMiddleMovesLaterCharactersIntoTheirSlots() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        field.type("51345678")
        field.moveCaret(to: 4)
        field.deleteBackward()
        #expect(field.text == "5135 678" && field.caret == 3)
        field.insert("4")
        #expect(field.text == "5134 5678" && field.caret == 4)
    }

    @Test func deletingAtTheStartChangesNothing() throws {
        var field = FieldEditor(type: try builtin("phone"))
        field.type("555")
        field.moveCaret(to: 1)
        let r = field.deleteBackward()
        #expect(r.accepted && field.text == "(555")
        field.moveCaret(to: 0)
        #expect(field.deleteBackward().accepted && field.text == "(555" && field.caret == 0)
    }

    @Test func deletionsAreAcceptedEvenWhenTheResultIsInvalid() throws {
        var field = FieldEditor(type: try builtin("exp-date"))
        field.type("1230")
        field.moveCaret(to: 1)
        let r = field.deleteBackward()
        #expect(r.accepted && field.text == "23/0" && field.caret == 0)
        #expect(field.result.verdict == .invalid)
        // Only an insertion that makes it valid again is taken now.
        #expect(!field.insert("9").accepted)
        #expect(field.insert("1").accepted && field.text == "12/30")
    }

    @Test func aSelectionIsReplacedByTypingAndRemovedByBackspace() throws {
        var field = FieldEditor(type: try builtin("credit-card"))
        field.type("41111111")
        field.select(2..<7)
        #expect(field.selection == 2..<7 && field.caret == 7)
        field.insert("9")
        #expect(field.text == "4191 1" && field.caret == 3)
        field.select(0..<field.text.count)
        field.deleteBackward()
        #expect(field.text == "" && field.caret == 0)
    }

    @Test func pastingAWholeValueGivesItsFormat() throws {
        for (name, value) in [("credit-card", "4111-1111-1111-1111"), ("phone", "212.555.0100"),
                              ("name", "ada   lovelace "), ("iban", "de89370400440532013000"),
                              ("age", " 150 ")] {
            let type = try builtin(name)
            var field = FieldEditor(type: type)
            #expect(field.setText(value).accepted, "\(name)")
            #expect(field.text == type.format(value), "\(name)")
            #expect(field.caret == field.text.count, "\(name)")
        }
    }

    @Test func aNameKeepsTheSpaceTypedAtTheEndUntilTheNextWord() throws {
        let type = try builtin("name")
        var field = FieldEditor(type: type)
        field.type("ada ")
        #expect(field.text == "Ada " && field.caret == 4)
        #expect(type.format(field.text) == "Ada")
        field.type("lovelace")
        #expect(field.text == "Ada Lovelace" && field.caret == 12)
        field.type(" ")
        field.commit()
        #expect(field.text == "Ada Lovelace" && field.caret == 12)
    }

    @Test func aSpaceInsertedInTheMiddleSplitsTheWord() throws {
        var field = FieldEditor(type: try builtin("name"))
        field.type("adalovelace")
        field.moveCaret(to: 3)
        field.insert(" ")
        #expect(field.text == "Ada Lovelace" && field.caret == 4)
    }

    @Test func combiningMarksJoinTheCharacterBeforeThem() throws {
        var field = FieldEditor(type: try builtin("name"))
        field.type("Zoe")
        field.insert("\u{308}")
        #expect(field.text == "Zoë" && field.caret == 3)
    }

    @Test func positionsAreCharactersNotScalarsOrUTF16() throws {
        var field = FieldEditor(type: try builtin("bio"))
        field.insert("a👍🇳🇿e\u{301}b")
        #expect(field.text.count == 5 && field.caret == 5)
        field.moveCaret(to: 3)            // after the flag
        field.deleteBackward()
        #expect(field.text == "a👍e\u{301}b" && field.caret == 2)
        field.replace(2..<3, with: "\r\n")  // CR LF is one character
        #expect(field.text == "a👍\r\nb" && field.caret == 3 && field.text.count == 4)
        field.deleteBackward()
        #expect(field.text == "a👍b" && field.caret == 2)
    }

    @Test func aLetterSlotTakesNonASCIILetters() throws {
        let d = definition(mask: "AA-00")
        var field = FieldEditor(type: try compile(d))
        field.type("éß12")
        #expect(field.text == "éß-12" && field.caret == 5 && field.result.verdict == .valid)
        field.moveCaret(to: 1)
        field.deleteBackward()
        #expect(field.text == "ß12" && field.caret == 0)
        #expect(field.result.verdict == .invalid)   // a digit in a letter slot: deletions still go through
    }

    @Test func restoredStateIsClampedAndJudged() throws {
        let field = FieldEditor(type: try builtin("credit-card"), text: "4111 1", caret: 99)
        #expect(field.caret == 6 && field.result.verdict == .incomplete)
    }
}

@Suite struct UnformatTests {
    @Test func removesMaskLiteralsAndNormalizes() throws {
        #expect(try builtin("credit-card").unformat("4111 1111 1111 1111") == "4111111111111111")
        #expect(try builtin("phone").unformat("(555) 123-4567") == "5551234567")
        #expect(try builtin("exp-date").unformat("12/30") == "1230")
        #expect(try builtin("iban").unformat("de89 3704") == "DE893704")
        #expect(try builtin("name").unformat("  ada   lovelace ") == "Ada Lovelace")
        #expect(try builtin("age").unformat("   ") == "   ")
    }

    @Test func keepsALiteralTypedAtTheEndOfAnIncompleteValue() throws {
        let type = try builtin("exp-date")
        #expect(type.unformat("12/") == "12/")
        #expect(type.format(type.unformat(type.format("12/"))) == "12/")
    }

    @Test func roundTripsOnEveryBuiltinTypeAndRandomValues() throws {
        var rng = SplitMix64(seed: 0x5EED_F0F0)
        for name in builtinTypeNames {
            let type = try builtin(name)
            for _ in 0..<400 {
                let v = rng.string(from: alphabet(for: type), maxLength: 24)
                let f = type.format(v)
                #expect(type.format(type.unformat(f)) == f, "\(name): \(v.debugDescription)")
            }
        }
    }
}

@Suite struct FieldResultMessageTests {
    @Test func firstErrorBeatsEarlierWarnings() {
        let r = FieldResult(formatted: "x", verdict: .invalid, violations: [
            Violation(rule: "a", severity: .warning, message: "warn"),
            Violation(rule: "b", severity: .error, message: "first error"),
            Violation(rule: "c", severity: .error, message: "second error"),
        ], isAbsent: false)
        #expect(r.message == "first error")
    }

    @Test func firstWarningWhenNoError() {
        let r = FieldResult(formatted: "x", verdict: .valid, violations: [
            Violation(rule: "a", severity: .warning, message: "w1"),
            Violation(rule: "b", severity: .warning, message: "w2"),
        ], isAbsent: false)
        #expect(r.message == "w1")
        #expect(FieldResult(formatted: "", verdict: .valid, violations: [], isAbsent: true).message == nil)
    }
}

@Suite struct FieldEditorSendableTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func editorValuesCrossTasks() async throws {
        requireSendable(FieldEditor.self)
        requireSendable(EditOutcome.self)
        var field = FieldEditor(type: try builtin("phone"))
        field.type("5551234567")
        let copy = field
        let text = await Task.detached { copy.text }.value
        #expect(text == "(555) 123-4567")
    }
}

@Suite struct FieldEditorCatalogTests {
    /// The library's own way in, as docs/library.md shows it: a catalog type, then an editor.
    @Test func editsATypeFromTheBuiltinCatalog() throws {
        let catalog = try FieldCatalog.builtin(today: CivilDate(year: 2026, month: 11, day: 29))
        var field = FieldEditor(type: try catalog.fieldType("credit-card"))
        field.insert("4")
        field.insert("1111")
        #expect(field.text == "4111 1" && field.caret == 6)
        #expect(!field.insert("x").accepted)
        field.deleteBackward()
        #expect(field.text == "4111" && field.caret == 4)
        field.replace(0..<4, with: "5500-0000-0000-0004")
        #expect(field.text == "5500 0000 0000 0004" && field.result.verdict == .valid)
        let adult = FieldEditor(type: try catalog.fieldType("age(min: 18)"), text: "17", caret: 2)
        #expect(adult.visibleMessage(after: .leaving) == "Age must be between 18 and 150")
        #expect(adult.visibleMessage(after: .typing) == nil)
    }
}

/// The server's editor (`judgingLazily`, one keystroke per request) answers every edit as the
/// app's editor does, including a backspace over a mask's literal, the one edit that reads
/// the verdict of the text before it.
@Suite struct LazyFieldEditorTests {
    @Test(arguments: [("credit-card", "4111 1", 6, 5..<6, ""),        // backspace over the space
                      ("credit-card", "4111 1", 6, 6..<6, "x"),       // refused
                      ("credit-card", "4111 1111", 9, 9..<9, "1"),
                      ("exp-date", "12/", 3, 2..<3, ""),
                      ("exp-date", "1", 1, 1..<1, "2"),
                      ("credit-card", "", 0, 0..<0, "")])
    func answersAsTheEagerEditorDoes(type name: String, text: String, caret: Int, range: Range<Int>, with: String) throws {
        let type = try builtin(name)
        var eager = FieldEditor(type: type, text: text, caret: caret, policy: .refuseInvalid)
        var lazy = FieldEditor(type: type, text: text, caret: caret, policy: .refuseInvalid, judgingLazily: true)
        let a = eager.replace(range, with: with), b = lazy.replace(range, with: with)
        #expect(a.accepted == b.accepted && a.result.verdict == b.result.verdict && a.result.message == b.result.message)
        #expect(eager.text == lazy.text && eager.caret == lazy.caret)
        #expect(eager.result.verdict == lazy.result.verdict && eager.result.formatted == lazy.result.formatted)
    }
}
