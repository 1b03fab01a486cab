/// The members of a JSON object, in the order they were written or added.
///
/// Keys are unique. Lookup is a linear scan, which is faster than hashing for the
/// handful of members that records, results and audit details have.
public struct JSONObject: Sendable, Hashable {
    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]

    public init() {
        keys = []
        values = []
    }

    /// An object from key–value pairs. A repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// Adopts parallel arrays whose keys are known to be unique (the parser checks).
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
    }

    public func index(forKey key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The value of `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return values[index]
        }
        set {
            if let index = index(forKey: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// The members ordered by the UTF-8 bytes of their keys (which is Unicode scalar order).
    public func sortedByKey() -> JSONObject {
        let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        return JSONObject(uniqueKeys: order.map { keys[$0] }, values: order.map { values[$0] })
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)
    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    public subscript(position: Int) -> Element { (keys[position], values[position]) }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
