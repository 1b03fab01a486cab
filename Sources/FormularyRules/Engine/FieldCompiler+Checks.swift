extension FieldCompilation {
    /// Compiles normalization, mask and checks, then runs the cross-rule checks. Returns
    /// a type even when errors were reported (the caller drops it).
    mutating func build() -> CompiledFieldType? {
        let secure = definition.secure
        let steps = definition.normalization.map(NormalizeOperation.init)
        var mask: CompiledMask? = nil
        var maskCheck: CompiledFieldType.MaskCheck? = nil
        var choices: [MaskChoice] = []
        var compiledMasks: [CompiledMask] = []
        // The masks up to the first unconditional one take part; `checkMaskReachability`
        // warns about the rest.
        for rule in definition.masks {
            guard let compiled = CompiledMask(rule.pattern) else {
                report(CompilerDiagnostic.maskEndsInBackslash(rule.pattern), at: rule.options.location)
                continue
            }
            compiledMasks.append(compiled)
            var substitutions = parameterTexts
            substitutions["min"] = String(compiled.slotCount)
            substitutions["max"] = String(compiled.slotCount)
            let template = rule.options.message ?? "Expected the format \(compiled.display)"
            // `drop mask` keeps the mask for formatting but removes its fill check.
            let check: CompiledFieldType.MaskCheck? = rule.checksFill
                ? .init(rule: rule.options.name, severity: rule.options.severity, finalOnly: rule.options.finalOnly,
                        message: MessageTemplate(template, substitutions: substitutions, secure: secure))
                : nil
            guard mask == nil else { continue }
            if let condition = rule.condition {
                guard let program = compileCondition(condition, of: rule, compiled) else { continue }
                choices.append(MaskChoice(mask: compiled, condition: program, check: check))
            } else {
                mask = compiled
                maskCheck = check
            }
        }
        checkMaskReachability()
        var checks: [CompiledCheck] = []
        var compiledRules: [CheckRule] = []
        for rule in definition.checks {
            guard let (kind, bounds, defaultMessage) = compileKind(rule) else { continue }
            // A check whose `if` does not hold is compiled (so that its mistakes are
            // reported whatever the arguments) but left out.
            if let condition = rule.options.condition, !condition.holds(values) { continue }
            var substitutions = parameterTexts
            substitutions["min"] = bounds.min
            substitutions["max"] = bounds.max
            let template = rule.options.message ?? defaultMessage
            checks.append(CompiledCheck(kind: kind, rule: rule.options.name, severity: rule.options.severity,
                                        finalOnly: rule.options.finalOnly,
                                        message: MessageTemplate(template, substitutions: substitutions,
                                                                 secure: secure),
                                        separator: separator))
            compiledRules.append(rule)
        }
        for compiled in compiledMasks { checkMaskAgainstLengths(compiled, compiledRules, checks) }
        // Labels, help and placeholders name parameters as messages do: `label "Age ({min}-{max})"`.
        var definition = definition
        let texts = parameterTexts
        definition.label = definition.label.map { MessageTemplate.fill($0, texts) }
        definition.help = definition.help.map { MessageTemplate.fill($0, texts) }
        definition.placeholder = definition.placeholder.map { MessageTemplate.fill($0, texts) }
        let type = CompiledFieldType(definition: definition, arguments: values, steps: steps,
                                     mask: mask, maskCheck: maskCheck, choices: choices, checks: checks)
        if type.hasMask { checkAcceptExamples(type) }
        checkRetiredRules()
        return type
    }

    /// A `reject` example naming `pattern-budget`, which no check of the type is called: the
    /// rule is gone (every pattern now gives an answer), so the example can no longer pass.
    private mutating func checkRetiredRules() {
        let retired = TypeResolver.retiredPatternBudget
        guard !definition.checks.contains(where: { $0.options.name == retired }),
              !definition.masks.contains(where: { $0.options.name == retired }) else { return }
        for example in definition.examples {
            if case .reject(let rules) = example.expectation, rules.contains(retired) {
                report(LanguageDiagnostic.retiredPatternBudget(), at: example.location)
            }
        }
    }

    private typealias Bounds = (min: String, max: String)

    private mutating func compileKind(_ rule: CheckRule) -> (CompiledCheck.Kind, Bounds, String)? {
        let location = rule.options.location
        switch rule.kind {
        case .length(let spec, let unit):
            var lower = 0, upper: Int? = nil
            var bounds: Bounds = ("", "")
            if let arg = spec.lower {
                guard let v = integer(arg) else { return nil }
                lower = spec.lowerExclusive ? v + 1 : v
                bounds.min = String(v)
            }
            if let arg = spec.upper {
                guard let v = integer(arg) else { return nil }
                upper = spec.upperInclusive ? v : v - 1
                bounds.max = String(v)
            }
            lower = max(0, lower)
            if let upper, upper < lower {
                report(CompilerDiagnostic.emptyRange(.length), at: location)
                return nil
            }
            return (.length(lower: lower, upper: upper, unit: unit), bounds,
                    DefaultMessages.length(lower: lower, upper: upper, unit: unit))
        case .integer:
            return (.integer, ("", ""), "Must be a whole number")
        case .decimal(let placesArg):
            var places: Int? = nil
            if let placesArg {
                guard let v = integer(placesArg) else { return nil }
                guard v >= 0 else {
                    report(CompilerDiagnostic.negativePlaces(v), at: location)
                    return nil
                }
                places = v
            }
            return (.decimal(places: places), ("", places.map(String.init) ?? ""), DefaultMessages.decimal(places))
        case .range(let spec):
            var range = DecimalRange(lower: nil, lowerExclusive: spec.lowerExclusive,
                                     upper: nil, upperInclusive: spec.upperInclusive)
            if let arg = spec.lower {
                guard let c = decimal(arg, at: location) else { return nil }
                range.lower = c
            }
            if let arg = spec.upper {
                guard let c = decimal(arg, at: location) else { return nil }
                range.upper = c
            }
            if range.isEmpty {
                report(CompilerDiagnostic.emptyRange(.number), at: location)
                return nil
            }
            // Bounds are written with a point in the source, and shown as the type writes numbers.
            return (.range(range), (range.lower.map { separator.spell($0.text) } ?? "",
                                    range.upper.map { separator.spell($0.text) } ?? ""),
                    DefaultMessages.range(range, separator: separator))
        case .pattern(let source, let flags, let negated):
            guard let program = pattern(source, flags, at: location) else { return nil }
            return (.pattern(program, negated: negated), ("", ""),
                    negated ? DefaultMessages.patternNot : DefaultMessages.pattern)
        case .charset(let classes):
            return (.charset(CharsetMatcher(classes)), ("", ""), DefaultMessages.charset(classes))
        case .oneOf(let options, let ignoreCase):
            guard !options.isEmpty else {
                report(CompilerDiagnostic.emptyOneOf(), at: location)
                return nil
            }
            return (.oneOf(OneOfMatcher(options, ignoreCase: ignoreCase)), ("", ""),
                    "Must be one of: " + options.joined(separator: ", "))
        case .date(let formatText, let spec):
            let format: DateFormat
            do {
                format = try DateFormat(formatText)
            } catch {
                let why = switch error {
                case .duplicate(let token): "'\(token)' (or another year) appears twice"
                case .missingYear: "it needs a year, 'yyyy' or 'yy'"
                case .dayWithoutMonth: "'dd' needs 'MM'"
                }
                report(CompilerDiagnostic.invalidDateFormat(formatText, reason: why), at: location)
                return nil
            }
            var range = DayRange()
            if let spec {
                if let arg = spec.lower {
                    guard let d = date(arg, at: location) else { return nil }
                    range.first = Calendar.dayNumber(d) + (spec.lowerExclusive ? 1 : 0)
                }
                if let arg = spec.upper {
                    guard let d = date(arg, at: location) else { return nil }
                    range.last = Calendar.dayNumber(d) - (spec.upperInclusive ? 0 : 1)
                }
                range.firstDate = range.first.map { Calendar.date(dayNumber: $0) }
                range.lastDate = range.last.map { Calendar.date(dayNumber: $0) }
                if range.isEmpty {
                    report(CompilerDiagnostic.emptyRange(.date), at: location)
                    return nil
                }
            }
            let check = DateCheck(format: format, range: range, todayYear: today.year)
            return (.date(check), (range.firstDate?.description ?? "", range.lastDate?.description ?? ""),
                    DefaultMessages.date(formatText, range))
        case .checksum(let algorithm):
            return (.checksum(algorithm), ("", ""), DefaultMessages.checksum(algorithm))
        case .maskOneOf(let arg):
            let names: [String]
            switch arg {
            case .value(let given): names = given
            case .parameter(let name, _):
                names = (values[name]?.text ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            }
            guard !names.isEmpty else {
                report(CompilerDiagnostic.emptyOneOf(), at: location)
                return nil
            }
            let known = definition.maskNames
            for name in names where !known.contains(name) {
                report(LanguageDiagnostic.notARule(name, ofType: definition.name, rules: known), at: location)
                return nil
            }
            return (.maskOneOf(Set(names)), ("", ""), "Must be formatted as one of: " + names.joined(separator: ", "))
        }
    }

    /// A mask fills to a known length: a `length` rule that length cannot satisfy is a
    /// contradiction.
    private mutating func checkMaskAgainstLengths(_ mask: CompiledMask, _ rules: [CheckRule], _ checks: [CompiledCheck]) {
        for (rule, check) in zip(rules, checks) where check.severity == .error {
            guard case .length(let lower, let upper, let unit) = check.kind else { continue }
            var low = 0, high = 0
            for item in mask.items {
                switch (item, unit) {
                case (.literal(let s), .bytes): low += UTF8.width(s); high += UTF8.width(s)
                case (.literal(let s), .utf16): low += UTF16.width(s); high += UTF16.width(s)
                case (.literal, _), (.digit, _): low += 1; high += 1
                case (_, .bytes): low += 1; high += 4
                case (_, .utf16): low += 1; high += 2
                default: low += 1; high += 1
                }
            }
            if high < lower || (upper.map { low > $0 } ?? false) {
                let filled = low == high ? "\(low)" : "\(low) to \(high)"
                report(CompilerDiagnostic.maskLengthConflict(mask: mask.display, filled: filled, unit: unit.rawValue),
                       at: rule.options.location)
            }
        }
    }

    private mutating func checkAcceptExamples(_ type: CompiledFieldType) {
        for example in definition.examples where !example.live {
            guard case .accept = example.expectation else { continue }
            var text = example.value
            let prepared: (CompiledMask.Fit?, Int)? = text.withUTF8 { raw in
                if isBlank(raw) { return nil }
                return Scratch.withCurrent { let p = type.prepared(raw, scratch: $0); return (p.1, p.2) }
            }
            guard let (fit, choice) = prepared, let fit else { continue }
            let mask = choice < 0 ? type.mask! : type.choices[choice].mask
            // Without its fill check (`drop mask`) the mask only formats: an example must
            // then fit it, not fill it.
            let required: Bool = type.maskCheck(for: choice) == nil ? fit == .broken : fit != .filled
            if required {
                let shown = definition.secure ? MessageTemplate.securePlaceholder : "\"\(example.value)\""
                report(CompilerDiagnostic.acceptUnformattable(shownValue: shown, mask: mask.display),
                       at: example.location)
            }
        }
    }
}
