/// The messages of checks whose line gives none.
enum DefaultMessages {
    static let pattern = "Is not in the expected format"
    /// `pattern not`.
    static let patternNot = "Is in a format that is not allowed"

    static func length(lower: Int, upper: Int?, unit: LengthUnit) -> String {
        let noun = switch unit {
        case .graphemes: "characters"
        case .scalars: "Unicode scalars"
        case .utf16: "UTF-16 code units"
        case .bytes: "bytes"
        }
        guard let upper else { return "Must be at least \(lower) \(noun) long" }
        if lower == upper { return "Must be exactly \(lower) \(noun) long" }
        if lower == 0 { return "Must be at most \(upper) \(noun) long" }
        return "Must be \(lower) to \(upper) \(noun) long"
    }

    static func decimal(_ places: Int?) -> String {
        switch places {
        case nil: "Must be a number"
        case 0?: "Must be a whole number"
        case 1?: "Must be a number with at most 1 decimal place"
        case let n?: "Must be a number with at most \(n) decimal places"
        }
    }

    /// The bounds written with the type's `separator`.
    static func range(_ r: DecimalRange, separator: DecimalSeparator) -> String {
        let lower = r.lower.map { separator.spell($0.text) }, upper = r.upper.map { separator.spell($0.text) }
        switch (r.lower, r.upper) {
        case (let l?, let u?) where !r.lowerExclusive && r.upperInclusive:
            return l.parts.isZero && u.parts.isZero || DecimalParts.compare(l.parts, u.parts) == 0
                ? "Must be \(lower!)" : "Must be a number from \(lower!) to \(upper!)"
        default:
            var parts: [String] = []
            if let l = lower { parts.append(r.lowerExclusive ? "above \(l)" : "at least \(l)") }
            if let u = upper { parts.append(r.upperInclusive ? "at most \(u)" : "below \(u)") }
            return parts.isEmpty ? "Must be a number" : "Must be a number " + parts.joined(separator: " and ")
        }
    }

    static func charset(_ classes: [CharsetClass]) -> String {
        let names = classes.map { c -> String in
            switch c {
            case .digits: "digits"
            case .letters: "letters"
            case .marks: "marks"
            case .spaces: "spaces"
            case .punctuation: "punctuation"
            case .alphanumerics: "letters and digits"
            case .literal(let text): "\"\(text)\""
            }
        }
        return "May only contain " + names.joined(separator: ", ")
    }

    static func date(_ format: String, _ range: DayRange) -> String {
        let base = "Must be a real date in the format \(format)"
        switch (range.firstDate, range.lastDate) {
        case (let a?, let b?): return base + " from \(a) to \(b)"
        case (let a?, nil): return base + " on or after \(a)"
        case (nil, let b?): return base + " on or before \(b)"
        case (nil, nil): return base
        }
    }

    static func checksum(_ algorithm: ChecksumAlgorithm) -> String {
        switch algorithm {
        case .luhn: "Fails the Luhn check digit test"
        case .mod97: "Fails the MOD 97-10 check"
        case .gtin: "Fails the GTIN check digit test"
        case .isbn10: "Is not a valid ISBN-10"
        case .isbn: "Is not a valid ISBN-10 or ISBN-13"
        case .verhoeff: "Fails the Verhoeff check digit test"
        }
    }
}
