/// Compiling patterns and `mask … when /RE/` conditions, and the lint checks of a type's masks.
extension FieldCompilation {
    /// The compiled pattern (from the process's cache), or nil after reporting why it does not
    /// compile. A file's patterns were read when it was parsed; what can still fail here is a
    /// definition built in code, or an automaton too big to keep.
    mutating func pattern(_ source: String, _ flags: RegexFlags, at location: SourceLocation) -> PatternProgram? {
        do {
            return try PatternCache.shared.program(source, flags: flags)
        } catch {
            report(CompilerDiagnostic.invalidPattern(error), at: location)
            return nil
        }
    }

    /// The condition's program, or nil after reporting why it does not compile. Also warns
    /// when the condition cannot select a value that fills the mask
    /// (`mask-condition-unmatchable`).
    mutating func compileCondition(_ condition: MaskCondition, of rule: MaskRule,
                                   _ mask: CompiledMask) -> PatternProgram? {
        let location = rule.options.location
        guard let program = pattern(condition.source, condition.flags, at: location) else { return nil }
        if rule.checksFill, let reason = Self.unmatchableReason(program.automaton, mask) {
            report(CompilerDiagnostic.maskConditionUnmatchable(mask: mask.display, reason: reason), at: location)
        }
        return program
    }

    /// Why no value that fills `mask` can have slot characters the condition matches, or nil
    /// when some can. Exact, decided on the condition's automaton: a value filling the mask
    /// has `n` slot characters (its slots plus any letter or digit literals), position by
    /// position a digit, a letter, either, or the literal itself; the condition must accept
    /// some such string. The reason names the lengths the condition allows when they are what
    /// rules the mask out.
    static func unmatchableReason(_ automaton: PatternAutomaton, _ mask: CompiledMask) -> String? {
        let digits = UnicodeProperty.digit
        var positions: [ScalarSet] = []
        var onlyDigits = true
        for item in mask.items {
            switch item {
            case .digit: positions.append(digits)
            case .letter: positions.append(UnicodeTables.letters); onlyDigits = false
            case .alphanumeric: positions.append(UnicodeProperty.slotCharacters); onlyDigits = false
            case .literal(let s):
                if s.value &- 0x30 < 10 {
                    positions.append(ScalarSet(scalar: s.value))
                } else if isLetter(s) {
                    positions.append(ScalarSet(scalar: s.value))
                    onlyDigits = false
                }
            }
        }
        if automaton.acceptsSome(of: positions) { return nil }
        let n = positions.count
        // Bounds that need no letters' table: a true reason whenever they rule the mask out.
        if let (shortest, longest) = automaton.lengths(over: UnicodeProperty.slotCharactersBound) {
            if shortest > n { return "it needs at least \(shortest) letters or digits, and the mask holds \(n)" }
            if let longest, longest < n { return "it matches at most \(longest) letters or digits, and the mask holds \(n)" }
        } else {
            return "it matches no string of letters and digits"
        }
        return onlyDigits ? "no \(n) digits match it, and the mask's slots hold only digits"
            : "no \(n) letters and digits in the mask's order match it"
    }

    /// Warns about masks no value can reach: a mask after an unconditional one (or after a
    /// second unconditional one), and a mask whose `when` is the same as an earlier one's.
    mutating func checkMaskReachability() {
        var seenUnconditional = false
        var conditions: [MaskCondition] = []
        for rule in definition.masks {
            if seenUnconditional {
                report(CompilerDiagnostic.unreachableMask(pattern: rule.pattern,
                                                          reason: "an earlier mask without 'when' takes every value"),
                       at: rule.options.location)
                continue
            }
            guard let condition = rule.condition else { seenUnconditional = true; continue }
            if conditions.contains(condition) {
                report(CompilerDiagnostic.unreachableMask(pattern: rule.pattern,
                                                          reason: "an earlier mask has the same 'when' pattern"),
                       at: rule.options.location)
            }
            conditions.append(condition)
        }
    }
}
