import Testing
@testable import FormularyJSON

@Suite struct JSONValueTests {
    @Test func serializesCompactlyInInsertionOrder() {
        let value: JSONValue = ["type": "credit-card", "valid": false, "n": 30, "x": 1.5,
                                "list": [nil, true, "a"], "empty": [:]]
        #expect(value.serialized() == #"{"type":"credit-card","valid":false,"n":30,"x":1.5,"list":[null,true,"a"],"empty":{}}"#)
    }

    @Test func sortedKeysUseByteOrder() {
        let value: JSONValue = ["b": 1, "a": ["z": 1, "y": 2], "B": 3, "é": 4, "e": 5]
        #expect(value.serialized(sortedKeys: true) == #"{"B":3,"a":{"y":2,"z":1},"b":1,"e":5,"é":4}"#)
        // Insertion order survives the canonical form.
        #expect(value.serialized() == #"{"b":1,"a":{"z":1,"y":2},"B":3,"é":4,"e":5}"#)
    }

    @Test func escapesPerRFC8259() {
        let value = JSONValue.string("q\" b\\ n\n r\r t\t \u{0} \u{1F} \u{7F} é 😀 /")
        #expect(value.serialized() == #""q\" b\\ n\n r\r t\t \u0000 \u001f \#u{7F} é 😀 /""#)
        #expect(JSONValue.string("\u{8}\u{C}").serialized() == #""\b\f""#)
    }

    @Test func roundTripsThroughTheParser() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let value = randomValue(depth: 0, using: &generator)
            let text = value.serialized()
            #expect(try JSONValue(parsing: text) == value, "\(text)")
            #expect(try JSONValue(parsing: value.serializedBytes()) == value)
        }
    }

    @Test func numbersFromSwiftValues() {
        #expect(JSONValue.integer(-42) == .number("-42"))
        #expect(JSONValue.integer(UInt64.max) == .number("18446744073709551615"))
        #expect(JSONValue.double(3) == .number("3"))
        #expect(JSONValue.double(-0.25) == .number("-0.25"))
        #expect(JSONValue.double(1e300) == .number("1e+300"))
        #expect(JSONValue.double(.nan) == .null)
        #expect(JSONValue.double(-.infinity) == .null)
        #expect(JSONValue.number("30").intValue == 30)
        #expect(JSONValue.number("30.0").intValue == nil)
        #expect(JSONValue.number("1.5e1").doubleValue == 15)
    }

    @Test func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["c"] = 3
        object["a"] = "one"
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == "one")
        #expect(object.map(\.key) == ["a", "c"])
        #expect(JSONObject([("x", 1), ("y", 2), ("x", 3)]).keys == ["x", "y"])
        #expect(JSONObject([("x", 1), ("y", 2), ("x", 3)])["x"] == 3)
    }

    @Test func accessorsAnswerOnlyForTheirCase() {
        let value: JSONValue = "s"
        #expect(value.stringValue == "s")
        #expect(value.boolValue == nil)
        #expect(value.numberText == nil)
        #expect(value.arrayValue == nil)
        #expect(value.objectValue == nil)
        #expect(!value.isNull)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(value["key"] == nil)
        #expect(value[0] == nil)
    }

    @Test func equalityIncludesMemberOrder() {
        let ab: JSONValue = ["a": 1, "b": 2]
        let ba: JSONValue = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab.serialized(sortedKeys: true) == ba.serialized(sortedKeys: true))
    }
}

/// A small deterministic generator, so that a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private let alphabet: [Character] = ["a", "Z", "0", " ", ",", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}",
                                     "\u{1F}", "é", "日", "😀", "👨‍👩‍👧", "\u{2028}", "{", "["]

func randomString(using generator: inout SplitMix64) -> String {
    String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
}

private func randomValue(depth: Int, using generator: inout SplitMix64) -> JSONValue {
    switch Int.random(in: 0...(depth > 3 ? 4 : 6), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .integer(Int.random(in: -1_000_000...1_000_000, using: &generator))
    case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
    case 4: return .string(randomString(using: &generator))
    case 5:
        return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
    default:
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            object[randomString(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
        }
        return .object(object)
    }
}
