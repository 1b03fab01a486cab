import Testing
@testable import FormularyRules

/// Masks chosen by the value (`mask "…" when /RE/`): the language, the engine in both
/// stages, the byte fast path, `unformat`, the editor and the lint.
@Suite struct MaskChoiceTests {
    static let cardText = """
        field card
        normalize strip " -"
        mask "0000 000000 00000" when /3[47].*/ message "Amex numbers have 15 digits"
        mask "0000 000000 0000" when /3[0689].*/ as diners
        mask "0000 0000 0000 0000"
        """

    func card() throws -> CompiledFieldType {
        let d = try #require(resolvedField(Self.cardText))
        return try compile(d)
    }

    @Test func parsesAListOfMasksWithConditions() throws {
        let d = try #require(resolvedField(Self.cardText)).strippingLocations()
        #expect(d.masks.map(\.pattern) == ["0000 000000 00000", "0000 000000 0000", "0000 0000 0000 0000"])
        #expect(d.masks.map(\.condition?.source) == ["3[47].*", "3[0689].*", nil])
        #expect(d.masks.map(\.options.name) == ["mask", "diners", "mask"])
        #expect(d.mask?.pattern == "0000 0000 0000 0000")
        // The canonical text reads back as the same definition.
        let again = try #require(resolvedField(d.canonicalSource)).strippingLocations()
        #expect(again == d)
        #expect(d.canonicalSource.contains("mask \"0000 000000 00000\" when /3[47].*/ message \"Amex numbers have 15 digits\"\n"))
    }

    @Test func singleMaskCanonicalTextIsUnchanged() throws {
        let d = try #require(resolvedField("field z\nmask \"00-00\" warning\ndrop mask"))
        #expect(d.canonicalSource == "field z\nmask \"00-00\" warning\ndrop mask\n")
    }

    @Test func theFirstMatchingMaskFormatsAndChecks() throws {
        let type = try card()
        #expect(type.format("378282246310005") == "3782 822463 10005")
        #expect(type.format("36227206271667") == "3622 720627 1667")
        #expect(type.format("4111111111111111") == "4111 1111 1111 1111")
        #expect(type.failed("378282246310005").isEmpty)
        #expect(type.failed("4111111111111111").isEmpty)
        // The chosen mask's check, with its own name and message.
        #expect(type.failed("3782822463100") == ["mask"])
        #expect(type.validate("3782822463100").violations.first?.message == "Amex numbers have 15 digits")
        #expect(type.failed("362272062716") == ["diners"])
        #expect(type.failed("41111111111111112") == ["mask"])
        // A formatted value keeps its mask: formatting is idempotent.
        #expect(type.format("3782 822463 10005") == "3782 822463 10005")
    }

    @Test func theLiveStageChoosesByPrefix() throws {
        let type = try card()
        // "3" could still become Amex: the first mask whose pattern a continuation matches.
        #expect(type.chosenMask(Array("3".unicodeScalars), stage: .live)?.pattern == "0000 000000 00000")
        #expect(type.chosenMask(Array("3".unicodeScalars), stage: .final)?.pattern == "0000 0000 0000 0000")
        #expect(type.validate("37828224631", stage: .live).formatted == "3782 822463 1")
        #expect(type.live("37828224631") == .incomplete)
        #expect(type.live("3782822463100055") == .invalid)
        #expect(type.live("4111111111111111") == .valid)
    }

    @Test func noMaskAppliesWhenEveryMaskHasAConditionAndNoneMatches() throws {
        let d = try #require(resolvedField("field t\nmask \"00-00\" when /1.*/"))
        let type = try compile(d)
        #expect(type.format("1234") == "12-34")
        #expect(type.format("2345") == "2345")
        #expect(type.failed("2345").isEmpty)
        #expect(type.failed("123").isEmpty == false)
    }

    @Test func theBytePathAgreesWithTheStringPath() throws {
        let type = try card()
        let values = ["378282246310005", "3782 822463 10005", "3782822463100", "36227206271667", "3", "34",
                      "4111111111111111", "4111 1111 1111 1111", "41111111111111112", "3a", "é3", " 37 ",
                      "6011111111111117", "5555-5555-5555-4444", "37828224631000x", "3782 8224 6310 005"]
        for value in values {
            var text = value
            let (clean, canonical) = text.withUTF8 { raw in
                (type.isClean(utf8: UnsafeRawBufferPointer(raw)), type.canonicalUTF8(UnsafeRawBufferPointer(raw)))
            }
            let result = type.validate(value)
            #expect(clean == result.violations.isEmpty, "\(value)")
            #expect(String(decoding: canonical, as: UTF8.self) == type.format(value), "\(value)")
            #expect(type.isValid(value) == (result.verdict == .valid), "\(value)")
        }
    }

    @Test func unformatUsesTheChosenMask() throws {
        let type = try card()
        #expect(type.unformat("3782 822463 10005") == "378282246310005")
        #expect(type.unformat("4111 1111 1111 1111") == "4111111111111111")
        for value in ["378282246310005", "37828", "4111111", "36227206271667"] {
            #expect(type.format(type.unformat(type.format(value))) == type.format(value))
        }
    }

    @Test func theEditorGroupsByTheLiveChoice() throws {
        let type = try card()
        var editor = FieldEditor(type: type)
        for c in "378282246310005" { _ = editor.insert(String(c)) }
        #expect(editor.text == "3782 822463 10005")
        #expect(editor.caret == editor.text.count)
        #expect(editor.result.verdict == .valid)
        var visa = FieldEditor(type: type)
        for c in "41111" { _ = visa.insert(String(c)) }
        #expect(visa.text == "4111 1")
        _ = visa.deleteBackward()
        _ = visa.deleteBackward()
        #expect(visa.text == "411")
    }

    @Test func inheritanceReplacesTheMaskListAndDropReachesEveryMask() throws {
        let r = resolver([Self.cardText, "field visa extends card\nmask \"0000-0000-0000-0000\"",
                          "field loose extends card\ndrop mask"])
        guard case .success(let visa)? = r.resolve("visa") else { Issue.record("visa"); return }
        #expect(visa.masks.map(\.pattern) == ["0000-0000-0000-0000"])
        guard case .success(let loose)? = r.resolve("loose") else { Issue.record("loose"); return }
        #expect(loose.masks.map(\.checksFill) == [false, true, false])
    }

    @Test func lintFindsUnreachableMasks() {
        func lint(_ masks: [MaskRule]) -> [String] {
            diagnosticIDs(FieldTypeDefinition(name: "t", masks: masks, location: testLocation))
        }
        func mask(_ pattern: String, when: String? = nil) -> MaskRule {
            MaskRule(pattern: pattern, options: RuleOptions(name: "mask", location: at(1)),
                     condition: when.map { MaskCondition(source: $0) })
        }
        #expect(lint([mask("0000", when: "1.*"), mask("000")]).isEmpty)
        #expect(lint([mask("0000"), mask("000")]) == ["unreachable-mask"])
        #expect(lint([mask("0000"), mask("000", when: "1.*")]) == ["unreachable-mask"])
        #expect(lint([mask("0000", when: "1.*"), mask("00-00", when: "1.*"), mask("000")]) == ["unreachable-mask"])
        #expect(lint([mask("0000", when: "1[")]) == ["invalid-regex"])
    }

    @Test func lintFindsConditionsThatCannotMatchTheMask() {
        func lint(_ pattern: String, when: String) -> [String] {
            let rule = MaskRule(pattern: pattern, options: RuleOptions(name: "mask", location: at(1)),
                                condition: MaskCondition(source: when))
            return diagnosticIDs(FieldTypeDefinition(name: "t", masks: [rule, MaskRule(pattern: "0", options: RuleOptions(name: "mask", location: at(2)))],
                                                     location: testLocation))
        }
        #expect(lint("0000 000000 00000", when: "3[47].*").isEmpty)
        #expect(lint("0000 000000 00000", when: "3[47][0-9]{13}").isEmpty)
        // Too long, too short, letters where the slots hold digits.
        #expect(lint("0000", when: "[0-9]{5}") == ["mask-condition-unmatchable"])
        #expect(lint("0000 000000 00000", when: "3[47][0-9]{5}") == ["mask-condition-unmatchable"])
        #expect(lint("0000", when: "[A-Z]{2}.*") == ["mask-condition-unmatchable"])
        #expect(lint("0000", when: "1(2|x)x.") == ["mask-condition-unmatchable"])
        // Letter slots: letters may match.
        #expect(lint("AA00", when: "[A-Z]{2}.*").isEmpty)
        #expect(lint("0000", when: "(?i)[0-9]+").isEmpty)
        // Decided exactly on the automaton, where the old checks gave up: unbounded patterns
        // whose every match has a letter, and case-insensitive ones.
        #expect(lint("0000", when: "[0-9]*[a-z][0-9]*") == ["mask-condition-unmatchable"])
        #expect(lint("AAAA", when: "(?i)[a-c]+").isEmpty)
        #expect(lint("0000", when: "(?i)[a-c]+") == ["mask-condition-unmatchable"])
        // Order matters: the letter slot comes first.
        #expect(lint("A000", when: "[0-9]{3}[A-Z]") == ["mask-condition-unmatchable"])
        #expect(lint("A000", when: "[A-Z][0-9]{3}").isEmpty)
    }

    /// The reason names the lengths when they rule the mask out, else the positions.
    @Test func unmatchableReasonsSayWhy() throws {
        func reason(_ pattern: String, when: String) throws -> String? {
            let mask = try #require(CompiledMask(pattern))
            let automaton = try PatternAutomaton(try PatternParser.parse(when, flags: []))
            return FieldCompilation.unmatchableReason(automaton, mask)
        }
        #expect(try reason("0000", when: "[0-9]{5,}") == "it needs at least 5 letters or digits, and the mask holds 4")
        #expect(try reason("00000", when: "3[47][0-9]") == "it matches at most 3 letters or digits, and the mask holds 5")
        #expect(try reason("0000", when: "[A-Z]{2}.*") == "no 4 digits match it, and the mask's slots hold only digits")
        #expect(try reason("A000", when: "[0-9]{3}[A-Z]") == "no 4 letters and digits in the mask's order match it")
        #expect(try reason("0000", when: "[-+ ]+") == "it matches no string of letters and digits")
        #expect(try reason("0000", when: "[0-9]+") == nil)
    }

    /// A condition is an automaton, and the facts that let most values skip it (the bytes it
    /// can start with, the lengths it accepts) are exact: on every prefix of some card numbers
    /// and letter strings, a condition selects exactly when its automaton matches (final) or
    /// is alive (live). And they do skip: a 16-digit Visa number is ruled out of the Amex,
    /// Diners, 13-digit Visa and UnionPay conditions before any of them runs.
    @Test func conditionsSelectExactlyAndSkipWhatTheyCan() throws {
        let d = try #require(resolvedField(try String(contentsOf: pluginsFolder.appendingPathComponent("credit-card.field"), encoding: .utf8)))
        let type = try compile(d)
        #expect(type.choices.count == 43)
        let scratch = Scratch()
        for value in ["378282246310005", "36227206271667", "4000000000000000006", "6205500000000000004",
                      "62000000000000000", "3056930009020004", "A37", "3a", "30599999999999",
                      "5066991111111118", "6799990100000000019", "501800000009", "2204000000000000006",
                      "9792100000000001", "8100513433325374"] {
            let bytes = Array(value.utf8)
            for n in 0...bytes.count {
                let prefix = Array(bytes[..<n])
                prefix.withUnsafeBufferPointer { slots in
                    for choice in type.choices {
                        let end = choice.condition.end(slots, scratch: scratch)
                        #expect(choice.selects(slots, scalars: n, live: false, scratch: scratch) == end.isAccepting,
                                "\(value.prefix(n)) \(choice.mask.pattern)")
                        #expect(choice.selects(slots, scalars: n, live: true, scratch: scratch) == (n == 0 || !end.isDead),
                                "\(value.prefix(n)) \(choice.mask.pattern) live")
                    }
                }
            }
        }
        // And they do skip: a Visa number is ruled out of the Amex and Diners conditions by its
        // first digit, and a 16-digit one out of a 19-digit Visa mask's by its length (live it
        // may still grow into one).
        for choice in type.choices where ["amex", "diners"].contains(choice.check?.rule) {
            #expect(choice.firstBytes.0 & (1 << UInt64(UInt8(ascii: "4"))) == 0, "\(choice.mask.pattern)")
        }
        let visa19 = try #require(type.choices.first { $0.check?.rule == "visa" && $0.mask.slotCount == 19 })
        #expect(visa19.minimum > 16 || visa19.maximum < 16)
        #expect(visa19.liveMaximum >= 16)
    }
}
