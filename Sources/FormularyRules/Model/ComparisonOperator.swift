/// The operator of `compare A OP B`.
package enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "="
    case notEqual = "!="

    /// Whether `A OP B` holds when comparing A with B gives `order` (-1, 0 or 1).
    package func holds(order: Int) -> Bool {
        switch self {
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        case .equal: order == 0
        case .notEqual: order != 0
        }
    }
}

/// How `compare A OP B` reads its two fields' values, decided by their types: by date when
/// both have a `date` check (the first one's format), as exact decimals when both have an
/// `integer` or `decimal` check, and otherwise as canonical (normalized, formatted) text.
package enum ComparisonReading: String, Sendable, Hashable {
    case date, number, text

    /// How a type with these checks reads its values on its own.
    package init(checks: [CheckKind]) {
        if checks.contains(where: { if case .date = $0 { true } else { false } }) {
            self = .date
        } else if checks.contains(where: { if case .integer = $0 { true } else if case .decimal = $0 { true } else { false } }) {
            self = .number
        } else {
            self = .text
        }
    }

    /// How a comparison of a field read as `self` with one read as `other` goes: the common
    /// reading, or text when they differ.
    package func common(with other: ComparisonReading) -> ComparisonReading {
        self == other ? self : .text
    }
}
