import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

/// The built-in types for codes with a check digit or a variant chosen by a parameter:
/// `cvv(digits:)`, `gtin`, `isbn`, `phone-intl`. Their self-tests run in
/// `BuiltinTypesTests`; these cover what examples cannot (parameters) and pin each variant.
@Suite struct BuiltinCodeTypesTests {
    static func compiled(_ name: String, _ arguments: [(String, Int)] = []) throws -> CompiledFieldType {
        let args = arguments.map { TypeReference.Argument(name: $0.0, value: .integer(String($0.1)), location: .unknown) }
        let reference = TypeReference(name: name, arguments: args, location: .unknown)
        return try Registry(files: Registry.builtinFiles).compile(reference, today: BuiltinTypesTests.today).get()
    }

    static func failed(_ type: CompiledFieldType, _ value: String, _ stage: Stage = .final) -> [String] {
        type.validate(value, stage: stage).violations.map(\.rule)
    }

    @Test func cvvTakesThreeDigitsByDefaultAndFourForAmex() throws {
        let three = try Self.compiled("cvv")
        let four = try Self.compiled("cvv", [("digits", 4)])
        #expect(three.definition.secure && four.definition.secure)
        #expect(Self.failed(three, "123").isEmpty)
        #expect(Self.failed(three, "1234") == ["length"])
        #expect(Self.failed(four, "1234").isEmpty)
        #expect(Self.failed(four, " 1 2 3 4").isEmpty)
        #expect(Self.failed(four, "123") == ["length"])
        #expect(Self.failed(four, "12345") == ["length"])
        #expect(Self.failed(four, "12a4") == ["charset"])
        #expect(four.validate("123", stage: .live).verdict == .incomplete)
        #expect(four.validate("12345", stage: .live).verdict == .invalid)
        let message = four.validate("123", stage: .final).violations.first?.message
        #expect(message == "The security code has 4 digits")
    }

    @Test func gtinTakesEachLength() throws {
        let type = try Self.compiled("gtin")
        for valid in ["96385074", "036000291452", "4006381333931", "16291041500210", "00036000291452"] {
            #expect(Self.failed(type, valid).isEmpty, "\(valid)")
        }
        for (value, rules) in [("9638507", ["pattern", "gtin"]), ("123456784", ["pattern"]),
                               ("4006381333930", ["gtin"]), ("400638133393101", ["pattern", "gtin"]), ("400638133393100", ["pattern"])] {
            #expect(Self.failed(type, value) == rules, "\(value)")
        }
    }

    @Test func isbnTakesBothFormsAndRejectsOtherEANs() throws {
        let type = try Self.compiled("isbn")
        for valid in ["978-0-306-40615-7", "0-306-40615-2", "0-8044-2957-X", "0 9752298 0 X"] {
            #expect(Self.failed(type, valid).isEmpty, "\(valid)")
        }
        // A valid EAN-13 outside the 978/979 prefixes is no ISBN; an ISBN-10's check
        // digit under ISBN-13 rules is wrong.
        #expect(Self.failed(type, "4006381333931") == ["pattern", "isbn"])
        #expect(Self.failed(type, "978-0-306-40615-2") == ["isbn"])
        #expect(type.validate("0-8044-2957-x", stage: .final).formatted == "080442957X")
    }

    @Test func phoneIntlIsE164() throws {
        let type = try Self.compiled("phone-intl")
        #expect(type.validate("+44 20 7946 0958", stage: .final).formatted == "+442079460958")
        #expect(type.validate("+1 202 555 0143", stage: .final).formatted == "+12025550143")
        #expect(Self.failed(type, "+1234567").isEmpty)              // 7 digits, the fewest
        #expect(Self.failed(type, "+123456789012345").isEmpty)      // 15, the most
        #expect(Self.failed(type, "+123456") == ["pattern"])
        #expect(Self.failed(type, "+1234567890123456") == ["pattern"])
        #expect(Self.failed(type, "442079460958") == ["pattern"])
        #expect(type.validate("+44 2", stage: .live).verdict == .incomplete)
        #expect(type.validate("4", stage: .live).verdict == .invalid)
    }

    /// Clients read the algorithm by name: each new one is exported under its own name,
    /// with its rule name and its default message where the type gives none.
    @Test func exportNamesTheNewAlgorithms() throws {
        let (_, doc) = try ExportTests.export()
        for (type, algorithm) in [("gtin", "gtin"), ("isbn", "isbn")] {
            let exported = try #require(ExportTests.type(type, in: doc))
            let check = try #require(exported["checks"]?.arrayValue?.first { $0["kind"]?.stringValue == "checksum" })
            #expect(check["arguments"]?["algorithm"]?.stringValue == algorithm)
            #expect(check["rule"]?.stringValue == algorithm)
        }
        let verhoeff = PluginFile(path: "t/order.field", bytes: Array("field order\nchecksum verhoeff\n".utf8),
                                  source: .database)
        let (_, withOrder) = try ExportTests.export(extra: [verhoeff])
        let check = try #require(ExportTests.type("order", in: withOrder)?["checks"]?[0])
        #expect(check["arguments"]?["algorithm"]?.stringValue == "verhoeff")
        #expect(check["rule"]?.stringValue == "verhoeff")
    }
}
