/// A field type compiled with its parameter values, ready to judge values.
///
/// Judging a value runs this pipeline:
/// 1. A value that is empty or only white space is absent: no check runs, the verdict is
///    `valid` and `formatted` is the raw value.
/// 2. The normalization steps run in order.
/// 3. The mask, if any, formats the value (and is itself the check `mask`); with several
///    masks, the one chosen for the value (see `CompiledFieldType+Masks.swift`).
/// 4. The checks run, in order, on the normalized, formatted value.
///
/// All methods are safe to call concurrently from several threads: the compiled type is
/// immutable, and per-thread working memory (byte buffers, the state sets of patterns
/// matched as an NFA) is kept in thread-local scratch.
public final class CompiledFieldType: Sendable {
    /// The resolved definition the type was compiled from (name, label, mask, checks, examples).
    public let definition: FieldTypeDefinition
    /// Every parameter's value, defaults included.
    package let arguments: [String: ParameterValue]

    let steps: [NormalizeOperation]
    /// The unconditional mask (for most types the only one); nil without one.
    let mask: CompiledMask?
    let maskCheck: MaskCheck?
    /// The masks with a `when` condition, in order, tried before ``mask``; empty for types
    /// with one mask, which then pay nothing for the choice.
    let choices: [MaskChoice]
    let checks: [CompiledCheck]

    struct MaskCheck: Sendable {
        var rule: String
        var severity: Severity
        var finalOnly: Bool
        var message: MessageTemplate
    }

    init(definition: FieldTypeDefinition, arguments: [String: ParameterValue],
         steps: [NormalizeOperation], mask: CompiledMask?, maskCheck: MaskCheck?,
         choices: [MaskChoice] = [], checks: [CompiledCheck], choiceTable: MaskChoiceTable? = nil,
         patternGate: PatternProgram? = nil) {
        self.definition = definition
        self.choiceTable = choiceTable
        self.patternGate = patternGate
        patternGateRef = patternGate.map { Unmanaged.passUnretained($0) }
        gated = checks.map { patternGate != nil && $0.gateablePattern != nil }
        self.arguments = arguments
        self.steps = steps
        self.mask = mask
        self.maskCheck = maskCheck
        self.choices = choices
        self.checks = checks
        maskSeverity = maskCheck?.severity
        checkRefs = checks.map { Unmanaged.passUnretained($0) }
        maskRef = mask.map { Unmanaged.passUnretained($0) }
        choiceRefs = choices.map { Unmanaged.passUnretained($0) }
        stepBoxes = steps.map(NormalizeStepBox.init)
        stepRefs = stepBoxes.map { Unmanaged.passUnretained($0) }
        // The masks take part in the definition's order up to the first unconditional one:
        // the conditional ones are ``choices``, that one is ``mask``.
        var names: [String] = []
        var unconditional: String? = nil
        for rule in definition.masks {
            if rule.condition == nil { unconditional = rule.options.name; break }
            names.append(rule.options.name)
        }
        choiceNames = names.count == choices.count ? names : choices.map { $0.check?.rule ?? "mask" }
        maskName = mask == nil ? nil : unconditional ?? maskCheck?.rule ?? "mask"
        // Per check and chosen mask (`choice + 1`), whether a `mask-one-of` check passes in
        // the final stage: its names hold the chosen mask's. Read per value instead of
        // hashing the name into the check's set (a card number's fifth of a run's hashing).
        let stride = choices.count + 1
        var table = [Bool](repeating: true, count: checks.count * stride)
        for (i, check) in checks.enumerated() {
            guard let names = check.maskNames else { continue }
            table[i * stride] = maskName.map(names.contains) ?? false
            for k in choiceNames.indices { table[i * stride + k + 1] = names.contains(choiceNames[k]) }
        }
        maskOneOfFinal = table
        // Per ASCII byte, the choices whose condition can start with it (see ``chooseMask``).
        var starts: [Int32] = [0]
        var list: [Int32] = []
        for byte in 0..<128 {
            for (k, choice) in choices.enumerated() where choice.canStart(with: UInt8(byte)) { list.append(Int32(k)) }
            starts.append(Int32(list.count))
        }
        candidateStarts = starts
        candidates = list
        let plan = DigitPlan(steps: steps, mask: mask, choices: choices, choiceTable: choiceTable, checks: checks)
        digitPlan = plan
        digitPlanRef = plan.map { Unmanaged.passUnretained($0) }
    }

    /// For a type that only strips separators and formats digits (a card number, a phone
    /// number): its final stage in one pass over the value (``DigitPlan``); nil otherwise.
    let digitPlan: DigitPlan?
    private let digitPlanRef: Unmanaged<DigitPlan>?

    /// The final stage by ``digitPlan``: nil when the type has none or it cannot tell.
    @inline(__always)
    func passesByDigits(_ raw: Bytes, scratch: Scratch, countingWarnings: Bool) -> Bool? {
        guard let digitPlanRef else { return nil }
        let stride = choiceRefs.count &+ 1
        return digitPlanRef._withUnsafeGuaranteedRef { plan in
            maskOneOfFinal.withUnsafeBufferPointer { table in
                plan.passes(raw, scratch: scratch, choiceTable: choiceTable, countingWarnings: countingWarnings) {
                    table[$0 &* stride &+ $1 &+ 1]
                }
            }
        }
    }

    /// Per check `i` and mask `choice` (-1: ``mask``): `maskOneOfFinal[i * (choices.count + 1)
    /// + choice + 1]` says whether the check, when it is a `mask-one-of`, passes the final
    /// stage (true for other checks).
    let maskOneOfFinal: [Bool]
    /// The choices that can select a value whose first slot character is the ASCII byte `b`:
    /// `candidates[candidateStarts[b] ..< candidateStarts[b + 1]]`, in order.
    let candidateStarts: [Int32]
    let candidates: [Int32]

    /// The final stage's choice among ``choices`` as one automaton, when the type was tuned
    /// for batch validation (``tunedForBatch()``); nil otherwise.
    let choiceTable: MaskChoiceTable?

    /// This type with what makes judging many values faster built in advance, at a cost a
    /// single judgment should not pay: for a type with masks chosen by the value, the final
    /// stage's choice as one automaton (``MaskChoiceTable``). Judges exactly as `self` does.
    package func tunedForBatch() -> CompiledFieldType {
        guard choiceTable == nil && patternGate == nil else { return self }
        let table = choices.isEmpty ? nil : MaskChoiceTable(conditions: choices.map(\.condition.automaton))
        let patterns = checks.compactMap(\.gateablePattern)
        let gate = patterns.count < 2 ? nil : PatternProgram.intersection(of: patterns)
        guard table != nil || gate != nil else { return self }
        return CompiledFieldType(definition: definition, arguments: arguments, steps: steps, mask: mask,
                                 maskCheck: maskCheck, choices: choices, checks: checks, choiceTable: table,
                                 patternGate: gate)
    }

    /// For a batch-tuned type with two or more `pattern` checks of error severity: one
    /// automaton accepting what all of them accept (their product), run once in the final
    /// stage instead of each. A pass/fail answer needs no more; what fails is found, for a
    /// failing value, by the checks one by one. Nil otherwise.
    let patternGate: PatternProgram?
    private let patternGateRef: Unmanaged<PatternProgram>?
    /// Per check, whether ``patternGate`` answers for it.
    private let gated: [Bool]

    /// The name of each of ``choices`` (its `as NAME`), and of ``mask``: what `mask-one-of`
    /// compares and ``FieldResult/mask`` reports.
    let choiceNames: [String]
    let maskName: String?

    private let stepBoxes: [NormalizeStepBox]
    private let stepRefs: [Unmanaged<NormalizeStepBox>]

    // Unretained views of `checks` and `mask` (which own them) for the hot paths: reaching a
    // shared object without retaining it keeps threads from contending on its reference count.
    private let checkRefs: [Unmanaged<CompiledCheck>]
    private let maskRef: Unmanaged<CompiledMask>?
    let choiceRefs: [Unmanaged<MaskChoice>]

    /// The mask check's severity (nil: no fill check), kept apart from `maskCheck` so the
    /// fast path reads it without copying (and retaining) the message template.
    let maskSeverity: Severity?

    /// Whether the prepared value passes every final-stage check of error severity (and,
    /// with `countingWarnings`, of warning severity too).
    ///
    /// The checks are visited through an unsafe buffer so that no check is copied: copying
    /// would retain its payloads, and two threads retaining the same objects contend.
    @inline(__always)
    func passesFinal(_ b: Bytes, fit: CompiledMask.Fit?, choice: Int, scratch: Scratch, countingWarnings: Bool) -> Bool {
        let severity = choice < 0 ? maskSeverity : choiceRefs[choice]._withUnsafeGuaranteedRef { $0.severity }
        if let fit, let severity, fit != .filled, countingWarnings || severity == .error {
            return false
        }
        if let patternGateRef, !patternGateRef._withUnsafeGuaranteedRef({ $0.matches(b, scratch: scratch) }) {
            return false
        }
        return checkRefs.withUnsafeBufferPointer { all in
            for i in 0..<all.count {
                if patternGateRef != nil && gated[i] { continue }
                let passed = all[i]._withUnsafeGuaranteedRef { check in
                    guard countingWarnings || check.severity == .error else { return true }
                    if check.maskNames != nil {
                        return maskOneOfFinal.withUnsafeBufferPointer { $0[i &* (choiceRefs.count &+ 1) &+ choice &+ 1] }
                    }
                    return check.evaluate(b, stage: .final, scratch: scratch)
                }
                if !passed { return false }
            }
            return true
        }
    }

    /// Whether a present value (not blank; well-formed) passes the final stage.
    @inline(__always)
    func passesPresent(_ raw: Bytes, scratch: Scratch, countingWarnings: Bool) -> Bool {
        let (b, fit, choice) = prepared(raw, scratch: scratch)
        return passesFinal(b, fit: fit, choice: choice, scratch: scratch, countingWarnings: countingWarnings)
    }

    /// Runs the normalization steps on `raw`, ping-ponging between the scratch's two
    /// buffers; returns the result and the buffer it lives in (nil: `raw` itself, which
    /// `trim` alone never copies).
    @inline(__always)
    func normalized(_ raw: Bytes, scratch: Scratch) -> (Bytes, buffer: Int?) {
        var current = raw
        var buffer: Int? = nil
        stepRefs.withUnsafeBufferPointer { all in
            for i in 0..<all.count {
                let target = buffer == 0 ? 1 : 0
                all[i]._withUnsafeGuaranteedRef { step in
                    current = step.apply(current, scratch: scratch, buffer: target)
                    if !step.isTrim { buffer = target }
                }
            }
        }
        return (current, buffer)
    }

    /// Runs normalization and mask formatting on `raw`; returns the result with how it fits
    /// the mask (nil without a mask) and which mask formatted it (an index in ``choices``, or
    /// -1 for ``mask``), chosen for `stage`. The bytes are `raw` itself or live in `scratch`: valid
    /// until the scratch is used again. (No closure: a closure's context cost retains on the
    /// batch hot path when the optimizer did not inline it.)
    @inline(__always)
    func prepared(_ raw: Bytes, scratch: Scratch, stage: Stage = .final) -> (Bytes, CompiledMask.Fit?, Int) {
        let (current, buffer) = normalized(raw, scratch: scratch)
        let target = buffer == 0 ? 1 : 0
        if !choiceRefs.isEmpty {
            let choice = chooseMask(current, scratch: scratch, buffer: target, stage: stage)
            if choice >= 0 {
                let (b, fit) = choiceRefs[choice]._withUnsafeGuaranteedRef {
                    $0.mask.format(current, scratch: scratch, buffer: target)
                }
                return (b, fit, choice)
            }
        }
        guard let maskRef else { return (current, nil, -1) }
        let (b, fit) = maskRef._withUnsafeGuaranteedRef {
            $0.format(current, scratch: scratch, buffer: target)
        }
        return (b, fit, -1)
    }

    /// The value's canonical form: normalized and mask-formatted. An absent value is
    /// returned as it is.
    ///
    /// `stage` matters only for a type with masks chosen by the value: `.live` formats with
    /// the mask the live stage chooses (a `when` matching a prefix is enough), as the text
    /// shown while typing; `.final`, the canonical form, with the one the final stage chooses.
    public func format(_ value: String, stage: Stage = .final) -> String {
        var text = value
        return text.withUTF8 { raw in
            if isBlank(raw) { return value }
            return Scratch.withCurrent { scratch in
                let (formatted, _, _) = prepared(raw, scratch: scratch, stage: stage)
                return isSame(formatted, raw) ? value : makeString(formatted)
            }
        }
    }

    @inline(__always)
    private func isSame(_ a: Bytes, _ b: Bytes) -> Bool {
        a.baseAddress == b.baseAddress && a.count == b.count
    }

    /// Whether the value passes the final stage (warnings do not count). An absent value
    /// passes: whether it may be absent is the form's decision. Builds no strings when
    /// the value is valid.
    public func isValid(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { raw in
            if isBlank(raw) { return true }
            return Scratch.withCurrent { passesPresent(raw, scratch: $0, countingWarnings: false) }
        }
    }

    /// Judges one value in `stage`.
    ///
    /// Final: `valid`, or `invalid` when any check with error severity fails (warnings are
    /// listed but do not make the value invalid). Live: `valid` when the value already
    /// passes the final stage, `invalid` when a live-stage check (not a checksum, not
    /// marked `final`) with error severity fails, `incomplete` otherwise; the violations
    /// listed are the live-stage ones.
    public func validate(_ value: String, stage: Stage = .final) -> FieldResult {
        var text = value
        return text.withUTF8 { raw in
            if isBlank(raw) {
                return FieldResult(formatted: value, verdict: .valid, violations: [], isAbsent: true)
            }
            return Scratch.withCurrent { scratch in
                let (b, fit, choice) = prepared(raw, scratch: scratch)
                var formatted = isSame(b, raw) ? value : makeString(b)
                let finalViolations = violations(b, fit: fit, choice: choice, stage: .final, scratch: scratch)
                let finalValid = !finalViolations.contains { $0.severity == .error }
                switch stage {
                case .final:
                    return FieldResult(formatted: formatted, verdict: finalValid ? .valid : .invalid,
                                       violations: finalViolations, isAbsent: false, mask: namedMask(choice))
                case .live where !choices.isEmpty:
                    // The live stage may choose another mask: prepare again (this reuses the
                    // scratch buffers `b` lives in, so the final stage is done with them).
                    let (lb, lfit, lchoice) = prepared(raw, scratch: scratch, stage: .live)
                    formatted = makeString(lb)
                    let liveViolations = violations(lb, fit: lfit, choice: lchoice, stage: .live, scratch: scratch)
                    let verdict: Verdict = finalValid ? .valid
                        : liveViolations.contains { $0.severity == .error } ? .invalid : .incomplete
                    return FieldResult(formatted: formatted, verdict: verdict,
                                       violations: liveViolations, isAbsent: false, mask: namedMask(lchoice))
                case .live:
                    let liveViolations = violations(b, fit: fit, choice: choice, stage: .live, scratch: scratch)
                    let verdict: Verdict = finalValid ? .valid
                        : liveViolations.contains { $0.severity == .error } ? .invalid : .incomplete
                    return FieldResult(formatted: formatted, verdict: verdict,
                                       violations: liveViolations, isAbsent: false, mask: namedMask(choice))
                }
            }
        }
    }

    func violations(_ b: Bytes, fit: CompiledMask.Fit?, choice: Int, stage: Stage,
                            scratch: Scratch) -> [Violation] {
        var found: [Violation] = []
        if let fit, let maskCheck = maskCheck(for: choice), stage == .final || !maskCheck.finalOnly {
            let passes = stage == .final ? fit == .filled : fit != .broken
            if !passes {
                found.append(Violation(rule: maskCheck.rule, severity: maskCheck.severity,
                                       message: maskCheck.message.render(value: b)))
            }
        }
        for check in checks where stage == .final || check.runsLive {
            let passed = if let names = check.maskNames {
                maskOneOfPasses(names, b, choice: choice, stage: stage, scratch: scratch)
            } else {
                check.evaluate(b, stage: stage, scratch: scratch)
            }
            if !passed {
                found.append(Violation(rule: check.rule, severity: check.severity,
                                       message: check.message.render(value: b)))
            }
        }
        return found
    }
}
