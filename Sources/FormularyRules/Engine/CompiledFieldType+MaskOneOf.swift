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
        var slots: [UInt8] = []
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                if c.isASCIIDigit || c.isASCIILetter { slots.append(c) }
                i += 1
                continue
            }
            let (s, length) = decodeScalar(b, at: i)
            if isLetter(s) { for k in 0..<length { slots.append(b[i + k]) } }
            i += length
        }
        if slots.isEmpty { return true }
        for k in choices.indices where names.contains(choiceNames[k]) {
            let alive = slots.withUnsafeBufferPointer { bytes in
                !choices[k].condition.end(bytes, scratch: scratch).isDead
            }
            if alive { return true }
        }
        return false
    }
}
