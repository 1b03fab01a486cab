import Testing
@testable import FormularyJSON

@Suite struct JSONWriterTests {
    @Test func writesTheCheckResultShape() throws {
        var writer = JSONWriter()
        writer.object { o in
            o.field("type", "credit-card")
            o.field("value", "4111 1111 1111 1112")
            o.field("valid", false)
            o.field("count", 2)
            o.field("ratio", 0.5)
            o.nullField("nothing")
            o.fieldIfPresent("absent", nil)
            o.fieldIfPresent("present", "yes")
            o.field("raw", JSONValue.number("1.50"))
            o.array("violations") { a in
                a.object { v in
                    v.field("rule", "luhn")
                    v.field("message", "Card number is \"not\" valid")
                }
                a.value(1)
                a.value("two")
                a.value(true)
                a.null()
                a.array { _ in }
                a.value(["k": 1])
            }
            o.object("nested") { _ in }
        }
        writer.newline()
        let expected = #"{"type":"credit-card","value":"4111 1111 1111 1112","valid":false,"count":2,"ratio":0.5,"nothing":null,"present":"yes","raw":1.50,"violations":[{"rule":"luhn","message":"Card number is \"not\" valid"},1,"two",true,null,[],{"k":1}],"nested":{}}"# + "\n"
        #expect(writer.text == expected)
        // What the writer produces, the parser accepts.
        #expect(throws: Never.self) { try JSONValue(parsing: Array(writer.bytes.dropLast())) }
    }

    @Test func topLevelValuesAndReuse() {
        var writer = JSONWriter()
        writer.value("a\nb")
        #expect(writer.text == #""a\nb""#)
        writer.removeAll()
        writer.array { a in a.value(-3) }
        #expect(writer.text == "[-3]")
        writer.removeAll()
        writer.value(.double(.infinity))
        writer.value(false)
        #expect(writer.text == "nullfalse")
    }

    @Test func sortedKeysForEmbeddedValues() {
        var writer = JSONWriter()
        writer.object { o in o.field("d", ["b": 1, "a": 2], sortedKeys: true) }
        #expect(writer.text == #"{"d":{"a":2,"b":1}}"#)
    }

    @Test func bodyErrorsPropagate() {
        struct Stop: Error {}
        var writer = JSONWriter()
        #expect(throws: Stop.self) {
            try writer.object { o in
                o.field("a", 1)
                throw Stop()
            }
        }
    }
}
