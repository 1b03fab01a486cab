/// A value SQLite stores: the five storage classes.
///
/// Used to bind arguments where convenience matters more than speed; hot loops bind typed
/// values directly with ``Statement/bind(_:at:)-(Int64,_)`` and friends.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
                    ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    package init(nilLiteral: ()) { self = .null }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
    package init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue {
    /// `.text(value)`, or `.null` when `value` is nil.
    package static func text(_ value: String?) -> SQLValue {
        value.map(SQLValue.text) ?? .null
    }
    /// `.integer(value)`, or `.null` when `value` is nil.
    package static func integer(_ value: Int64?) -> SQLValue {
        value.map(SQLValue.integer) ?? .null
    }
    /// `.integer(Int64(value))`.
    package static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}
