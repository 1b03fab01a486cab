/// `unique A…`: what batch validation needs from the judge to find entries with the same
/// canonical values. The judge itself never fails `unique` (one entry has nothing to
/// collide with); the run hashes each entry's key as it judges it, and confirms colliding
/// hashes on the exact keys (``uniqueKey(_:values:layout:scratch:)``).
extension EntryJudge {
    /// The form's `unique` rules, in form order: the fields (indices into ``fields``) and
    /// the rule's options.
    package var uniqueRules: [(fields: [Int], options: RuleOptions)] {
        rules.compactMap { if case let .unique(fields, options) = $0 { (fields, options) } else { nil } }
    }

    /// The message of `unique` rule `u` (index into ``uniqueRules``) failed by an entry that
    /// shares its values with `count` other entries, of which `ids` are named (the first
    /// few): `the same 'email' as entries 12, 40`, each field named by its label, in the
    /// form's locale (``RuleTexts/uniqueMessage(_:fields:ids:count:texts:)``).
    package func uniqueMessage(_ u: Int, ids: [Int64], count: Int) -> String {
        let rule = uniqueRules[u]
        return RuleTexts.uniqueMessage(RuleTexts.template(rule.options, item: "unique", in: form),
                                       fields: rule.fields.map { fields[$0].name }, ids: ids, count: max(count, ids.count)) {
            RuleTexts.defaultText($0, in: form)
        }
    }

    /// For each `unique` rule (index into ``uniqueRules``) whose fields all hold a value in
    /// the entry just judged with `scratch`, a 64-bit hash of the canonical values. Call it
    /// right after ``judge(_:layout:scratch:into:)`` of the same entry.
    /// `seed` (say the form's id) goes into every hash, with the rule's index.
    package func forEachUniqueHash(_ values: UnsafeRawBufferPointer, layout: Layout, scratch: inout Scratch,
                                   seed: UInt64 = 0, _ body: (Int, UInt64) -> Void) {
        // Through unsafe buffers and unretained types: copying a `Field` or a rule's array
        // per entry would retain shared objects, which threads contend on.
        let engine = scratch.engine
        uniqueFields.withUnsafeBufferPointer { rules in
            for u in 0..<rules.count {
                var hash: UInt64 = (0x243F_6A88_85A3_08D3 ^ seed &* 0x9E37_79B9_7F4A_7C15) &+ UInt64(u)
                var present = true
                rules[u].withUnsafeBufferPointer { fields in
                    for f in fields {
                        guard scratch.states[f] != 0,
                              let bytes = scratch.spans[layout.columnOfField[f]].bytes(in: values) else { present = false; return }
                        hash = typeRefs[f]._withUnsafeGuaranteedRef {
                            $0.withCanonicalUTF8(bytes, scratch: engine) { Self.mix(hash, $0) }
                        }
                    }
                }
                if present { body(u, hash) }
            }
        }
    }

    /// The exact key of `unique` rule `u` for an entry: each field's canonical value,
    /// length-prefixed; nil when a field is absent. The entry's spans must be located in
    /// `scratch.spans`.
    package func uniqueKey(_ u: Int, values: UnsafeRawBufferPointer, layout: Layout, scratch: inout Scratch) -> [UInt8]? {
        var key: [UInt8] = []
        for f in uniqueFields[u] {
            let column = layout.columnOfField[f]
            guard column >= 0, let bytes = scratch.spans[column].bytes(in: values),
                  !CompiledFieldType.isAbsent(utf8: bytes) else { return nil }
            let canonical = fields[f].type.canonicalUTF8(bytes)
            withUnsafeBytes(of: UInt32(canonical.count).littleEndian) { key += $0 }
            key += canonical
        }
        return key
    }

    /// The hash of `unique` keys: the length, then 8 bytes at a time, each multiplied in.
    @inline(__always)
    static func mix(_ seed: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = (seed ^ UInt64(bytes.count)) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xC2B2_AE3D_27D4_EB4F
            h ^= h >> 31
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            for k in i..<n { tail |= UInt64(bytes[k]) << (8 * UInt64(k - i)) }
            h = (h ^ tail) &* 0x1656_67B1_9E37_79F9
        }
        h ^= h >> 29
        return h &* 0x94D0_49BB_1331_11EB
    }
}
