/// Writes compact JSON straight into a byte buffer, without building ``JSONValue`` trees.
///
/// Meant for output written once per value or per record (JSON Lines of `check`,
/// reports, audit details), where building a tree first would cost more than the writing:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.object { o in
///     o.field("type", "credit-card")
///     o.field("valid", false)
///     o.array("violations") { a in
///         a.object { v in v.field("rule", "luhn") }
///     }
/// }
/// writer.newline()
/// ```
///
/// Members are written in the order of the calls; the writer does not check that keys are
/// unique. Reuse one writer with ``removeAll()`` to keep its capacity.
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public var bytes: [UInt8]

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The bytes written so far, as a `String`.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets what was written, keeping the buffer's capacity.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends a line feed, the separator of JSON Lines.
    public mutating func newline() { bytes.append(0x0A) }

    public mutating func value(_ value: String) { appendJSONString(value, to: &bytes) }
    public mutating func value(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func value(_ value: Double) { JSONValue.double(value).write(to: &bytes) }
    public mutating func value(_ value: Bool) { bytes.append(contentsOf: value ? "true".utf8 : "false".utf8) }
    public mutating func value(_ value: JSONValue, sortedKeys: Bool = false) {
        value.write(to: &bytes, sortedKeys: sortedKeys)
    }
    public mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// Writes an object whose members `body` adds.
    public mutating func object(_ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        var members = JSONObjectWriter(taking: &bytes)
        defer { swap(&members.bytes, &bytes) }
        try members.write(body)
    }

    /// Writes an array whose elements `body` adds.
    public mutating func array(_ body: (inout JSONArrayWriter) throws -> Void) rethrows {
        var elements = JSONArrayWriter(taking: &bytes)
        defer { swap(&elements.bytes, &bytes) }
        try elements.write(body)
    }
}

/// Adds the members of an object being written by a ``JSONWriter``.
public struct JSONObjectWriter: Sendable {
    fileprivate var bytes: [UInt8]
    private var isFirst = true

    /// Moves the buffer in rather than copying it: the caller swaps it back afterwards.
    fileprivate init(taking buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
    }

    fileprivate mutating func write(_ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        defer { bytes.append(UInt8(ascii: "}")) }
        try body(&self)
    }

    private mutating func key(_ key: String) {
        if isFirst { isFirst = false } else { bytes.append(UInt8(ascii: ",")) }
        appendJSONString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func field(_ key: String, _ value: String) {
        self.key(key)
        appendJSONString(value, to: &bytes)
    }

    public mutating func field(_ key: String, _ value: Int) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func field(_ key: String, _ value: Double) {
        self.key(key)
        JSONValue.double(value).write(to: &bytes)
    }

    public mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func field(_ key: String, _ value: JSONValue, sortedKeys: Bool = false) {
        self.key(key)
        value.write(to: &bytes, sortedKeys: sortedKeys)
    }

    /// Writes `"key":null`.
    public mutating func nullField(_ key: String) {
        self.key(key)
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes the member only when `value` is not `nil` (JSON's usual way to say "absent").
    public mutating func fieldIfPresent(_ key: String, _ value: String?) {
        if let value { field(key, value) }
    }

    /// Writes a member whose value is an object that `body` fills.
    public mutating func object(_ key: String, _ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        self.key(key)
        var members = JSONObjectWriter(taking: &bytes)
        defer { swap(&members.bytes, &bytes) }
        try members.write(body)
    }

    /// Writes a member whose value is an array that `body` fills.
    public mutating func array(_ key: String, _ body: (inout JSONArrayWriter) throws -> Void) rethrows {
        self.key(key)
        var elements = JSONArrayWriter(taking: &bytes)
        defer { swap(&elements.bytes, &bytes) }
        try elements.write(body)
    }
}

/// Adds the elements of an array being written by a ``JSONWriter``.
public struct JSONArrayWriter: Sendable {
    fileprivate var bytes: [UInt8]
    private var isFirst = true

    fileprivate init(taking buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
    }

    fileprivate mutating func write(_ body: (inout JSONArrayWriter) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        defer { bytes.append(UInt8(ascii: "]")) }
        try body(&self)
    }

    private mutating func separate() {
        if isFirst { isFirst = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func value(_ value: String) {
        separate()
        appendJSONString(value, to: &bytes)
    }

    public mutating func value(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func value(_ value: Double) {
        separate()
        JSONValue.double(value).write(to: &bytes)
    }

    public mutating func value(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func value(_ value: JSONValue, sortedKeys: Bool = false) {
        separate()
        value.write(to: &bytes, sortedKeys: sortedKeys)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func object(_ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        separate()
        var members = JSONObjectWriter(taking: &bytes)
        defer { swap(&members.bytes, &bytes) }
        try members.write(body)
    }

    public mutating func array(_ body: (inout JSONArrayWriter) throws -> Void) rethrows {
        separate()
        var elements = JSONArrayWriter(taking: &bytes)
        defer { swap(&elements.bytes, &bytes) }
        try elements.write(body)
    }
}
