/// Which mask a value took, by name: ``FieldResult/mask`` and the `mask-one-of` check.
extension CompiledFieldType {
    /// The name of mask `choice` (an index in ``choices``, or -1 for ``mask``), nil when no
    /// mask applies.
    func maskName(of choice: Int) -> String? {
        choice >= 0 ? choiceNames[choice] : maskName
    }

    /// ``maskName(of:)`` when the mask was named with `as NAME`: what results report.
    func namedMask(_ choice: Int) -> String? {
        guard !definition.secure, let name = maskName(of: choice), name != "mask" else { return nil }
        return name
    }

    /// Whether `mask-one-of` with `names` passes for the formatted value `b`, whose mask is
    /// `choice` (chosen for `stage`).
    ///
    /// Final: the chosen mask is one of them. Live: some completion may still take one of
    /// them — the chosen one is named, an unconditional mask is named, there are no slot
    /// characters yet, or a named mask's condition matches the slot characters as a prefix
    /// (any value a named mask takes in the end has slot characters that condition matches,
    /// so no prefix of it fails here).
    func maskOneOfPasses(_ names: Set<String>, _ b: Bytes, choice: Int, stage: Stage, scratch: Scratch) -> Bool {
        if let name = maskName(of: choice), names.contains(name) { return true }
        guard stage == .live else { return false }
        if let maskName, names.contains(maskName) { return true }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(b.count, 1)) { buffer in
            let dst = buffer.baseAddress!
            let n = slotCharacters(of: b, into: dst).bytes
            if n == 0 { return true }
            let slots = Bytes(start: dst, count: n)
            for k in choices.indices where names.contains(choiceNames[k]) {
                if !choices[k].condition.end(slots, scratch: scratch).isDead { return true }
            }
            return false
        }
    }
}
