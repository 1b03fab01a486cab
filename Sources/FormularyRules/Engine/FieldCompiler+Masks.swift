import CPCRE2

/// Compiling `mask … when /RE/` conditions, and the lint checks of a type's masks.
extension FieldCompilation {
    /// The condition's program (JIT-compiled, run under the match budget like any pattern),
    /// or nil after reporting why it does not compile. Also warns when the condition cannot
    /// select a value that fills the mask (`mask-condition-unmatchable`).
    mutating func compileCondition(_ condition: MaskCondition, of rule: MaskRule,
                                   _ mask: CompiledMask) -> RegexProgram? {
        let location = rule.options.location
        let program: RegexProgram
        do {
            program = try RegexProgram(source: condition.source, flags: condition.flags)
        } catch {
            report(CompilerDiagnostic.invalidRegex(error.message, offset: error.offset), at: location)
            return nil
        }
        if RegexSource.hasNestedQuantifier(condition.source, extended: condition.flags.contains(.extended)) {
            report(CompilerDiagnostic.regexBacktracking(), at: location)
        }
        if rule.checksFill, let reason = Self.unmatchableReason(program, condition, mask) {
            report(CompilerDiagnostic.maskConditionUnmatchable(mask: mask.display, reason: reason), at: location)
        }
        return program
    }

    /// Why no value that fills `mask` can have slot characters the condition matches, or
    /// nil when the checks below cannot show it. Sound, not complete: each reason is proved.
    /// - Length: a value filling the mask has exactly `n` slot characters (its slots plus
    ///   any letter or digit literals); PCRE2's minimum match length and a conservative
    ///   maximum (``RegexSource/maximumLength(_:flags:)``, unknown for unbounded repeats and
    ///   constructs it does not read) must allow `n`.
    /// - Digits: when every slot is a digit slot, the slot characters are `n` ASCII digits; a
    ///   search over digit strings, pruned by partial matching and stopped after a fixed
    ///   number of steps, must find one the condition matches — or prove there is none
    ///   (e.g. `/[A-Z]{2}.*/` over `0000`). When the search gives up, nothing is reported.
    static func unmatchableReason(_ program: RegexProgram, _ condition: MaskCondition,
                                  _ mask: CompiledMask) -> String? {
        var n = 0
        var onlyDigits = true
        for item in mask.items {
            switch item {
            case .digit: n += 1
            case .letter, .alphanumeric: n += 1; onlyDigits = false
            case .literal(let s):
                if s.value &- 0x30 < 10 { n += 1 } else if isLetter(s) { n += 1; onlyDigits = false }
            }
        }
        let minimum = program.minimumLength
        if minimum > n {
            return "it needs at least \(minimum) letters or digits, and the mask holds \(n)"
        }
        if let maximum = RegexSource.maximumLength(condition.source, flags: condition.flags), maximum < n {
            return "it matches at most \(maximum) letters or digits, and the mask holds \(n)"
        }
        guard onlyDigits else { return nil }
        var prefix: [UInt8] = []
        var budget = 2_000
        let scratch = RegexScratch()
        if digitSearch(program, &prefix, length: n, budget: &budget, scratch: scratch) == false {
            return "no \(n) digits match it, and the mask's slots hold only digits"
        }
        return nil
    }

    /// Whether some string of `length` ASCII digits extending `prefix` matches: true, false
    /// (proved), or nil (the step budget ran out).
    private static func digitSearch(_ program: RegexProgram, _ prefix: inout [UInt8], length: Int,
                                    budget: inout Int, scratch: RegexScratch) -> Bool? {
        budget -= 1
        if budget < 0 { return nil }
        if prefix.count == length {
            return prefix.withUnsafeBufferPointer { program.match($0, partial: false, scratch: scratch) } == .match
        }
        var unknown = false
        for digit in UInt8(0x30)...0x39 {
            prefix.append(digit)
            defer { prefix.removeLast() }
            let outcome = prefix.withUnsafeBufferPointer { program.match($0, partial: true, scratch: scratch) }
            switch outcome {
            case .noMatch: continue
            case .budgetExceeded: unknown = true
            case .match, .partial:
                switch digitSearch(program, &prefix, length: length, budget: &budget, scratch: scratch) {
                case true?: return true
                case nil: unknown = true
                case false?: break
                }
            }
            if budget < 0 { return nil }
        }
        return unknown ? nil : false
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

extension RegexProgram {
    /// PCRE2's lower bound on the length, in characters, of a subject the pattern matches.
    var minimumLength: Int {
        var length: UInt32 = 0
        return pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_MINLENGTH), &length) == 0 ? Int(length) : 0
    }
}
