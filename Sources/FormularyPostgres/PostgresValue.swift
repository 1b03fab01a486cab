import FormularyStore
/// A value bound to a statement's `$n` placeholder, or read from a row, by PostgreSQL type.
///
/// Bound values travel as parameters of the extended protocol (`PQexecParams`,
/// `PQexecPrepared`), never inside the SQL text, each with its type's OID so that the server
/// does not guess: `bigint`, `double precision`, `text`, `bytea` (sent as binary) and `boolean`.
package enum PostgresValue: Sendable, Hashable {
    case null
    /// `bigint` (int8).
    case integer(Int64)
    /// `double precision` (float8).
    case real(Double)
    /// `text`.
    case text(String)
    /// `bytea`.
    case bytes([UInt8])
    /// `boolean`.
    case bool(Bool)
}

extension PostgresValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
                         ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
                         ExpressibleByBooleanLiteral {
    /// `.null`.
    package init(nilLiteral: ()) { self = .null }
    /// `.integer(value)`.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// `.real(value)`.
    package init(floatLiteral value: Double) { self = .real(value) }
    /// `.text(value)`.
    package init(stringLiteral value: String) { self = .text(value) }
    /// `.bool(value)`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PostgresValue {
    /// `.text(value)`, or `.null` when `value` is nil.
    package static func text(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
    /// `.integer(value)`, or `.null` when `value` is nil.
    package static func integer(_ value: Int64?) -> PostgresValue { value.map(PostgresValue.integer) ?? .null }
    /// `.integer(Int64(value))`.
    package static func int(_ value: Int) -> PostgresValue { .integer(Int64(value)) }
}

/// The OIDs of the built-in types the wrapper binds and decodes (`pg_type.oid`, fixed since
/// PostgreSQL 7 and part of the protocol).
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let numeric: UInt32 = 1700
    static let name: UInt32 = 19
    static let unknown: UInt32 = 705

    static let integers: Set<UInt32> = [int2, int4, int8, oid]
    static let texts: Set<UInt32> = [text, varchar, bpchar, name, unknown]
}
