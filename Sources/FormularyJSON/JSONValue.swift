/// A JSON value, as written.
///
/// Numbers keep their source text (`.number("1.50")`), so that reading and writing a
/// document never rounds a value through `Double`; objects keep their members in the
/// order they were written. Two values are equal when they are written the same way
/// (member order and number spelling included), which is what hashing and audit
/// records need.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number's text, which must follow the JSON number grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`).
    /// Build one from a Swift number with ``integer(_:)`` or ``double(_:)``.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number from an integer.
    public static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }

    /// A number from a `Double`, written in Swift's shortest round-tripping form.
    ///
    /// JSON has no infinity or NaN; a non-finite value becomes `null`, as in JavaScript's
    /// `JSON.stringify`.
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            // "3.0" is valid JSON, but "3" is what people and other tools expect.
            return .number(String(Int64(value)))
        }
        return .number(value.description)
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number's source text, exactly as written.
    public var numberText: String? {
        if case .number(let text) = self { return text }
        return nil
    }

    /// The number as an `Int` when it is written as an integer that fits (`30`, not `30.0` or `3e1`).
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    /// The number as the nearest `Double`.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(String(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object with the members in the order written. A repeated key keeps its first
    /// position and its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { serialized() }
}
