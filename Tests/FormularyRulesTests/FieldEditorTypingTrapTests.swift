import Foundation
import Testing
@testable import FormularyRules

// The typing traps of issue 23: each test types what a user types and expects the field
// not to get stuck.

@Suite struct FieldEditorTypingTrapTests {
    /// A space typed at the end is kept for the next word; in a type that allows no space,
    /// the next keystroke takes its place instead of being refused with every later one.
    @Test(arguments: [("data", "ab c", "abc"), ("email", "ada @example.com", "ada@example.com"),
                      ("username", "ada lovelace", "adalovelace"), ("us-zip", "123 45", "12345")])
    func aSpaceThatCannotBeFollowedIsDroppedByTheNextKeystroke(name: String, typed: String, shown: String) throws {
        var field = FieldEditor(type: try builtin(name))
        let refused = field.type(typed)
        #expect(refused == 0 && field.text == shown && field.caret == shown.count, "\(name): \(field.text.debugDescription)")
        #expect(field.result.verdict != .invalid)
    }

    @Test func aNameStillKeepsItsSpaceAndASpaceAloneIsStillRefusedWhereNothingHelps() throws {
        var name = FieldEditor(type: try builtin("name"))
        name.type("ada l")
        #expect(name.text == "Ada L")
        // "12345 6" and "123456" are both invalid ZIP codes: the 6 is refused, the space stays.
        var zip = FieldEditor(type: try builtin("us-zip"))
        zip.type("12345 ")
        #expect(!zip.insert("6").accepted && zip.text == "12345 ")
        #expect(zip.insert("-").accepted && zip.text == "12345-")
    }

    /// A paste keeps the characters that can be typed one after another.
    @Test func aPasteIsFilteredToWhatCanBeTyped() throws {
        var card = FieldEditor(type: try builtin("credit-card"))
        let r = card.insert("4111a1111")
        #expect(r.accepted && card.text == "4111 1111" && card.caret == 9)
        #expect(r.refusal?.message == "Credit Card Number takes digits only")

        var bio = FieldEditor(type: try builtin("bio"))
        let long = String(repeating: "abcdefghij", count: 20)
        let b = bio.insert(long)
        #expect(b.accepted && bio.text == String(long.prefix(160)) && bio.result.verdict == .valid)
        #expect(b.refusal?.rule == "length" && b.refusal?.message == "Keep it to 160 characters")

        var user = FieldEditor(type: try builtin("username"))
        #expect(user.insert("Ada Lovelace!").accepted && user.text == "adalovelace")

        // Nothing fits: refused as a whole, as before.
        var none = FieldEditor(type: try builtin("credit-card"))
        #expect(!none.insert("abc").accepted && none.text == "")
    }

    @Test func aPasteInTheMiddleKeepsWhatFollows() throws {
        var card = FieldEditor(type: try builtin("credit-card"))
        card.type("4111")
        card.moveCaret(to: 0)
        #expect(card.insert("x4x").accepted && card.text == "4411 1" && card.caret == 1)
    }

    /// A megabyte pasted costs a few whole edits, not one per character.
    @Test func aLongPasteIsBounded() throws {
        let clock = ContinuousClock()
        var card = FieldEditor(type: try builtin("credit-card"))
        let digits = String(repeating: "4", count: 1 << 20)
        let t1 = clock.measure { card.insert(digits) }
        #expect(card.text == "4444 4444 4444 4444 444")
        var data = FieldEditor(type: try builtin("data"))
        let words = String(repeating: "ab ", count: 1 << 18)
        let t2 = clock.measure { data.insert(words) }
        #expect(data.text.hasPrefix("ababab") && !data.text.contains(" ") && data.result.verdict == .valid)
        // Debug builds: a per-character filter took minutes here.
        #expect(t1 < .seconds(5) && t2 < .seconds(5), "\(t1), \(t2)")
    }

    /// A refused keystroke reports the unchanged text's verdict and its own reason.
    @Test func aRefusalSaysWhyAndKeepsTheVerdict() throws {
        var date = FieldEditor(type: try builtin("exp-date"))
        date.type("12")
        let letter = date.insert("a")
        #expect(!letter.accepted && letter.result.verdict == .incomplete)
        #expect(letter.refusal?.message == "Expiry Date takes digits only")
        let month = FieldEditor(type: try builtin("exp-date"), text: "1", caret: 1)
        var copy = month
        let thirteen = copy.insert("3")
        #expect(!thirteen.accepted && thirteen.refusal?.rule == "date" && thirteen.refusal?.message == "The card has expired or the date is not valid")
        #expect(thirteen.result.verdict == .incomplete)

        var bio = FieldEditor(type: try builtin("bio"))
        bio.setText(String(repeating: "x", count: 160))
        #expect(bio.insert("y").refusal?.message == "Keep it to 160 characters")
    }

    /// A month digit that cannot start a month is padded; so is one ended by the separator.
    @Test func aMonthDigitIsPaddedAsItIsTyped() throws {
        let type = try builtin("exp-date")
        for (typed, shown, caret) in [("2", "02/", 3), ("1/", "01/", 3), ("2/30", "02/30", 5), ("1/30", "01/30", 5),
                                      ("12", "12", 2), ("0130", "01/30", 5), ("1", "1", 1)] {
            var field = FieldEditor(type: type)
            field.type(typed)
            #expect(field.text == shown && field.caret == caret, "\(typed): \(field.text.debugDescription) at \(field.caret)")
        }
        var zero = FieldEditor(type: type)
        zero.type("0")
        #expect(!zero.insert("/").accepted && zero.text == "0")   // 00 is no month
        // Formatting a stored value does not pad: only typing does.
        #expect(type.format("1/30") == "1/30" && type.failed("1/30") == ["mask", "date"])

        var iso = FieldEditor(type: try builtin("iso-date"))
        #expect(iso.type("2024-2-4") == 0)
        #expect(iso.text == "2024-02-04" && iso.result.verdict == .valid)
    }

    @Test func backspaceAfterASeparatorLeavesTheCaretAfterTheLastDigit() throws {
        var field = FieldEditor(type: try builtin("exp-date"))
        field.type("123")
        #expect(field.text == "12/3")
        field.deleteBackward()
        #expect(field.text == "12" && field.caret == 2)
        field.deleteBackward()
        #expect(field.text == "1" && field.caret == 1)
        var phone = FieldEditor(type: try builtin("phone"))
        phone.type("5")
        phone.deleteBackward()
        #expect(phone.text == "" && phone.caret == 0)
    }
}
