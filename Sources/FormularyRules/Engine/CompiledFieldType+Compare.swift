/// Reading two fields' values the way a form's `compare A OP B` compares them (see
/// ``ComparisonReading``).
extension CompiledFieldType {
    /// How this type reads its values on its own: by its first `date` check, as a number
    /// (an `integer` or `decimal` check), or as canonical text.
    package var comparisonReading: ComparisonReading {
        ComparisonReading(checks: definition.checks.map(\.kind))
    }

    /// -1, 0 or 1 as present value `x` of type `a` is below, equal to or above present
    /// value `y` of type `b`, read as `reading`; nil when either cannot be read so (a date
    /// that is no real date, text that is no number).
    ///
    /// Dates compare by the first day they denote (a `MM/yy` value by the first of its
    /// month), so two types with different date formats compare correctly; numbers by their
    /// exact value, each read with its type's decimal separator. Text compares by
    /// Unicode scalar values of the canonical forms.
    package static func compare(_ x: UnsafeRawBufferPointer, of a: CompiledFieldType,
                                _ y: UnsafeRawBufferPointer, of b: CompiledFieldType,
                                as reading: ComparisonReading) -> Int? {
        switch reading {
        case .date:
            guard let dx = a.comparisonDay(x), let dy = b.comparisonDay(y) else { return nil }
            return dx < dy ? -1 : dx == dy ? 0 : 1
        case .number:
            let cx = a.canonicalUTF8(x), cy = b.canonicalUTF8(y)
            return cx.withUnsafeBufferPointer { px in
                cy.withUnsafeBufferPointer { py in
                    guard let nx = DecimalParts(px, separator: a.decimalSeparator.byte),
                          let ny = DecimalParts(py, separator: b.decimalSeparator.byte) else { return nil }
                    return DecimalParts.compare(nx, ny)
                }
            }
        case .text:
            let cx = a.canonicalUTF8(x), cy = b.canonicalUTF8(y)
            // UTF-8 byte order is scalar order.
            return cx.lexicographicallyPrecedes(cy) ? -1 : cx == cy ? 0 : 1
        }
    }

    /// The first day a present value denotes by this type's first `date` check, after
    /// normalization and the mask; nil without a date check or for no real date.
    func comparisonDay(_ utf8: UnsafeRawBufferPointer) -> Int? {
        guard let check = checks.lazy.compactMap({ check -> DateCheck? in
            if case .date(let d) = check.kind { return d } else { return nil }
        }).first else { return nil }
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else { return nil }
        return Scratch.withCurrent { scratch in
            check.firstDay(prepared(bytes, scratch: scratch).0)
        }
    }
}

extension DateCheck {
    /// The first day (day number) that a complete value in this check's format denotes,
    /// ignoring the range; nil when the value does not have the format's shape or names no
    /// real date.
    func firstDay(_ b: Bytes) -> Int? {
        guard let (year, month, day) = fields(b) else { return nil }
        guard format.hasMonth else { return Calendar.dayNumber(year: year, month: 1, day: 1) }
        guard month >= 1, month <= 12 else { return nil }
        guard format.hasDay else { return Calendar.dayNumber(year: year, month: month, day: 1) }
        guard day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        return Calendar.dayNumber(year: year, month: month, day: day)
    }
}

extension CompiledFieldType {
    /// Calls `body` with the canonical form of a present value (normalized and
    /// mask-formatted), as `canonicalUTF8` gives it but without copying: the bytes live in
    /// `scratch` (or are the value's own) and are valid only during the call.
    package func withCanonicalUTF8<R>(_ utf8: UnsafeRawBufferPointer, scratch: Scratch,
                                      _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let bytes = utf8.assumingMemoryBound(to: UInt8.self)
        guard isWellFormedUTF8(bytes) else {
            return canonicalUTF8(utf8).withUnsafeBytes(body)
        }
        return body(UnsafeRawBufferPointer(prepared(bytes, scratch: scratch).0))
    }
}
