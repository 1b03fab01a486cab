extension JSONValue {
    /// The compact JSON text of the value: no insignificant whitespace, members in
    /// insertion order, or ordered by key bytes when `sortedKeys` is true (the canonical
    /// form used for hashing: equal values with differently ordered members then hash alike).
    public func serialized(sortedKeys: Bool = false) -> String {
        String(decoding: serializedBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// The compact JSON text of the value as UTF-8 bytes. See ``serialized(sortedKeys:)``.
    public func serializedBytes(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, sortedKeys: sortedKeys)
        return out
    }

    /// Appends the compact JSON text of the value to `out`. See ``serialized(sortedKeys:)``.
    public func write(to out: inout [UInt8], sortedKeys: Bool = false) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let text):
            assert(isValidJSONNumber(text), "not a JSON number: \(text)")
            out.append(contentsOf: text.utf8)
        case .string(let text):
            appendJSONString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            let members = sortedKeys ? object.sortedByKey() : object
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendJSONString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
