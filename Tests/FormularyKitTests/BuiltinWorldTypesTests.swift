import Foundation
import Testing
import FormularyRules
@testable import FormularyKit

/// The built-in types that must match the world (issue 28): `iban` against the IBAN
/// registry, `credit-card` against the card brands' IIN ranges and lengths, `email` against
/// HTML's valid e-mail address with DNS label rules, `exp-date` against today, `phone-intl`
/// against E.164 and libphonenumber's metadata. Their self-tests run in `BuiltinTypesTests`;
/// these go through every country, brand and region, and the unhappy paths around each.
@Suite struct BuiltinWorldTypesTests {
    static let today = BuiltinTypesTests.today   // 2026-11-29

    static func compiled(_ name: String, _ arguments: [(String, ParameterValue)] = [],
                         today: CivilDate = today) throws -> CompiledFieldType {
        let args = arguments.map { TypeReference.Argument(name: $0.0, value: $0.1, location: .unknown) }
        let reference = TypeReference(name: name, arguments: args, location: .unknown)
        return try Registry(files: Registry.builtinFiles).compile(reference, today: today).get()
    }

    static func failed(_ type: CompiledFieldType, _ value: String, _ stage: Stage = .final) -> [String] {
        type.validate(value, stage: stage).violations.map(\.rule)
    }

    // MARK: iban

    /// The registry's example of each country, as the plugin's accept examples carry them.
    static func ibanExamples(_ type: CompiledFieldType) -> [String] {
        type.definition.examples.compactMap { example in
            guard case .accept = example.expectation, !example.live,
                  example.value.count >= 15, example.value.first!.isUppercase else { return nil }
            return example.value
        }
    }

    /// The mask of `country`, as its `when /CC.*/` condition picks it.
    static func ibanMask(_ type: CompiledFieldType, _ country: Substring) -> String? {
        type.definition.masks.first { $0.condition?.source == "\(country).*" }?.pattern
    }

    /// ISO 13616 check digits for `country` and `bban`: 98 minus the remainder of
    /// BBAN + country + "00", letters counted A = 10 … Z = 35.
    static func checkDigits(_ country: String, _ bban: String) -> String {
        var remainder = 0
        for c in (bban + country + "00") {
            let digits = c.isNumber ? String(c) : String(Int(c.asciiValue!) - 55)
            for d in digits { remainder = (remainder * 10 + Int(String(d))!) % 97 }
        }
        let value = 98 - remainder
        return value < 10 ? "0\(value)" : String(value)
    }

    @Test func ibanKnowsEveryCountryOfTheRegistry() throws {
        let type = try Self.compiled("iban")
        let examples = Self.ibanExamples(type)
        let countries = Set(examples.map { $0.prefix(2) })
        // Release 102 of the SWIFT IBAN Registry lists 89 countries.
        #expect(countries.count == 89)
        #expect(type.definition.masks.count == 89)
        for iban in examples {
            #expect(Self.failed(type, iban).isEmpty, "\(iban)")
            let mask = try #require(Self.ibanMask(type, iban.prefix(2)), "\(iban): no mask")
            // The mask holds exactly the country's length, in groups of four.
            #expect(mask.filter { $0 != " " }.count == iban.count, "\(iban): \(mask)")
            #expect(type.validate(iban, stage: .final).formatted.filter { $0 != " " } == iban)
        }
        #expect(Self.failed(type, "RU0204452560040702810412345678901").isEmpty)   // 33 characters
    }

    /// For every country: one character short or long, a letter where the country has a
    /// digit, a digit where it has a letter — each fails the country's mask, whatever the
    /// check digits say; and each prefix of the example is live-valid.
    @Test func ibanChecksEachCountrysLengthAndPositions() throws {
        let type = try Self.compiled("iban")
        for iban in Self.ibanExamples(type) {
            let slots = Array(try #require(Self.ibanMask(type, iban.prefix(2))).filter { $0 != " " })
            let chars = Array(iban)
            #expect(Self.failed(type, String(chars.dropLast())).contains("mask"), "\(iban) one short")
            #expect(Self.failed(type, iban + "0").contains("mask"), "\(iban) one long")
            if let k = slots.indices.dropFirst(4).first(where: { slots[$0] == "0" }) {
                var wrong = chars
                wrong[k] = "A"
                #expect(Self.failed(type, String(wrong)).contains("mask"), "\(iban): a letter at \(k)")
                #expect(type.validate(String(wrong[..<(k + 1)]), stage: .live).verdict == .invalid)
            }
            if let k = slots.indices.dropFirst(4).first(where: { slots[$0] == "A" }) {
                var wrong = chars
                wrong[k] = "7"
                #expect(Self.failed(type, String(wrong)).contains("mask"), "\(iban): a digit at \(k)")
            }
            for n in 1...chars.count {
                #expect(type.validate(String(chars[..<n]), stage: .live).verdict != .invalid, "\(iban) prefix \(n)")
            }
        }
    }

    @Test func ibanRefusesCountriesWithoutIBANsAndCheckDigitsOutOfRange() throws {
        let type = try Self.compiled("iban")
        // XX is no country; the United States, Canada and Australia have no IBANs.
        for country in ["XX", "US", "CA", "AU"] {
            let bban = "NWBK60161331926819"
            let iban = country + Self.checkDigits(country, bban) + bban
            #expect(Self.failed(type, iban) == ["pattern"], "\(iban)")
            #expect(type.validate(country, stage: .live).verdict == .invalid, "\(country)")
        }
        // A German BBAN whose check digits come out as 97: 00 passes MOD 97 as well, but
        // ISO 13616 check digits run from 02 to 98.
        var bban = "370400440532013000"
        var tail = 0
        while Self.checkDigits("DE", bban) != "97" {
            tail += 1
            bban = "37040044053201" + String(format: "%04d", tail)
        }
        #expect(Self.failed(type, "DE97" + bban).isEmpty)
        #expect(Self.failed(type, "DE00" + bban) == ["pattern"])
        // Letters are upper-cased and spaces dropped; any other character fails.
        #expect(Self.failed(type, " gb29 nwbk 6016 1331 9268 19 ").isEmpty)
        #expect(Self.failed(type, "GB29-NWBK-6016-1331-9268-19").contains("mask"))
    }

    @Test func ibanMessagesSayWhatTheCountryExpects() throws {
        let type = try Self.compiled("iban")
        let result = type.validate("GB29 NWBK 6016 1331 9268 1", stage: .final)
        #expect(result.violations.first?.message
                == "An IBAN from the United Kingdom has 22 characters: GB, 2 check digits, 4 letters and 14 digits")
        #expect(type.validate("NO9386011117947", stage: .final).formatted == "NO93 8601 1117 947")
    }

    // MARK: credit-card

    /// Luhn check digit appended to `body`.
    static func withLuhn(_ body: String) -> String {
        for d in 0...9 {
            let candidate = body + String(d)
            var sum = 0
            for (i, c) in candidate.reversed().enumerated() {
                var v = Int(String(c))!
                if i % 2 == 1 { v = v * 2 > 9 ? v * 2 - 9 : v * 2 }
                sum += v
            }
            if sum % 10 == 0 { return candidate }
        }
        fatalError()
    }

    /// A Luhn-valid number of `length` digits starting with `prefix`.
    static func card(_ prefix: String, _ length: Int) -> String {
        withLuhn(prefix + String(repeating: "0", count: length - prefix.count - 1))
    }

    /// Each brand's lengths, from the card networks' published tables (see the plugin's
    /// header): every length from 12 to 20 is tried with a prefix of each brand, Luhn-valid,
    /// so that a wrong length fails the brand's own rule and nothing else.
    static let brands: [(name: String, prefixes: [String], lengths: [Int])] = [
        ("visa", ["4111", "4000"], [13, 16, 19]),
        ("mastercard", ["5500", "2221", "2720"], [16]),
        ("amex", ["34", "37"], [15]),
        ("discover", ["6011", "644", "65"], [16, 17, 18, 19]),
        ("diners", ["300", "36", "38", "39"], [14, 15, 16, 17, 18, 19]),
        ("jcb", ["3528", "3589"], [16, 17, 18, 19]),
        ("unionpay", ["62", "8171"], [16, 17, 18, 19]),
        ("maestro", ["5018", "6304", "6759", "67"], Array(12...19)),
        ("mir", ["2200", "2204"], [16, 17, 18, 19]),
        ("rupay", ["508500", "607000", "652150", "8172", "82"], [16]),
        ("elo", ["401178", "506699", "636368"], [16]),
        ("troy", ["9792"], [16]),
        ("verve", ["506099", "650027", "507964"], [16, 18, 19]),
        ("hipercard", ["606282"], [16]),
    ]

    @Test func creditCardKnowsEachBrandsLengths() throws {
        let type = try Self.compiled("credit-card")
        for (brand, prefixes, lengths) in Self.brands {
            for prefix in prefixes {
                for length in 12...20 {
                    let number = Self.card(prefix, length)
                    let failed = Self.failed(type, number)
                    if lengths.contains(length) {
                        #expect(failed.isEmpty, "\(brand) \(number) (\(length) digits): \(failed)")
                    } else {
                        #expect(failed == [brand], "\(brand) \(number) (\(length) digits): \(failed)")
                    }
                }
            }
        }
    }

    /// The brand is in every answer (``FieldResult/mask``), for an app to show its logo, and
    /// `credit-card(brands: …)` takes only the brands listed.
    @Test func creditCardNamesTheBrandAndTakesOnlyTheListedBrands() throws {
        let type = try Self.compiled("credit-card")
        for (brand, prefixes, lengths) in Self.brands {
            for prefix in prefixes {
                let number = Self.card(prefix, lengths[0])
                #expect(type.validate(number).mask == brand, "\(number)")
                #expect(type.validate(String(number.prefix(7)), stage: .live).mask == brand, "\(number) typed")
            }
        }
        #expect(type.validate("1234 5678 9012 3452").mask == nil)
        let visaAndMastercard = try Self.compiled("credit-card", [("brands", .string("visa mastercard"))])
        #expect(Self.failed(visaAndMastercard, "4111 1111 1111 1111").isEmpty)
        #expect(Self.failed(visaAndMastercard, "5555 5555 5555 4444").isEmpty)
        #expect(Self.failed(visaAndMastercard, "378282246310005") == ["brand"])
        #expect(Self.failed(visaAndMastercard, "6011111111111117") == ["brand"])
        #expect(visaAndMastercard.validate("378282246310005").mask == "amex")   // named, and refused
        #expect(visaAndMastercard.validate("37", stage: .live).verdict == .invalid)
        #expect(visaAndMastercard.validate("5", stage: .live).verdict == .incomplete)
        #expect(visaAndMastercard.validate("2", stage: .live).verdict == .incomplete)   // 2221–2720
        #expect(visaAndMastercard.validate("3", stage: .live).verdict == .invalid)
        #expect(throws: (any Error).self) { try Self.compiled("credit-card", [("brands", .string("visa amx"))]) }
    }

    @Test func creditCardGroupsAsTheBrandPrints() throws {
        let type = try Self.compiled("credit-card")
        for (number, formatted) in [("378282246310005", "3782 822463 10005"), ("36227206271667", "3622 720627 1667"),
                                    ("3600000000000000004", "3600 0000 0000 0000 004"),
                                    ("6799990100000000019", "6799 9901 0000 0000 019"),
                                    ("501800000009", "5018 0000 0009"), ("4222222222222", "4222 2222 2222 2")] {
            #expect(type.validate(number, stage: .final).formatted == formatted)
        }
        // While typing, 3 then 7 takes the American Express grouping, 3 then 6 Diners Club's.
        #expect(type.validate("3782822", stage: .live).formatted == "3782 822")
        #expect(type.validate("37828224631", stage: .live).formatted == "3782 822463 1")
        #expect(type.validate("36227206271", stage: .live).formatted == "3622 720627 1")
    }

    @Test func creditCardRefusesNumbersOfNoBrand() throws {
        let type = try Self.compiled("credit-card")
        for prefix in ["1", "2220", "2721", "306", "351", "7", "9791", "0"] {
            let number = Self.card(prefix, 16)
            #expect(Self.failed(type, number) == ["brand"], "\(number)")
        }
        #expect(type.validate("351", stage: .live).verdict == .invalid)
        #expect(type.validate("4111 1111 1111 1111 1111", stage: .live).verdict == .invalid)
        #expect(Self.failed(type, "4111 1111 1111 1112") == ["luhn"])
        #expect(Self.failed(type, "4111 1111 1111 111a") == ["visa", "luhn"])
    }

    // MARK: email

    @Test func emailFollowsHTMLWithDNSLabelRules() throws {
        let type = try Self.compiled("email")
        let label63 = String(repeating: "a", count: 63)
        let valid = [
            "ada@example.com", "first.last+tag@mail.example.co.uk", "o'brien@example.ie",
            // RFC 5322's specials in the local part, as HTML's type=email takes them.
            "a!b#c$d%e&f'g*h+i/j=k?l^m_n`o{p|q}r~s-t@example.org", "{x}@example.com", "~@example.com",
            // An IDN top-level domain and labels in ASCII form.
            "ivan@xn--e1afmkfd.xn--p1ai", "ivan@example.xn--p1ai",
            "x@\(label63).com", "x@a-b.c-d.example", "x@1.example.com", "x@example.a1", "x@a.b",
        ]
        for address in valid { #expect(Self.failed(type, address).isEmpty, "\(address)") }
        let invalid: [(String, [String])] = [
            (".ada@example.com", ["pattern"]), ("ada.@example.com", ["pattern"]), ("a..b@example.com", ["pattern"]),
            ("ada@-example.com", ["pattern"]), ("ada@example-.com", ["pattern"]), ("ada@example.-com", ["pattern"]),
            ("ada@example..com", ["pattern"]), ("ada@.example.com", ["pattern"]), ("ada@example.com.", ["pattern"]),
            ("x@\(label63)a.com", ["pattern"]), ("x@example.\(label63)a", ["pattern"]),
            ("ada@example", ["pattern"]), ("ada@localhost", ["pattern"]),
            ("ada@127.0.0.1", ["top-level-domain"]), ("ada@example.123", ["top-level-domain"]),
            ("ada@@example.com", ["pattern"]), ("ada@", ["pattern"]), ("@example.com", ["pattern"]),
            ("ada lovelace@example.com", ["pattern"]), ("ada(x)@example.com", ["pattern"]),
            ("ada,b@example.com", ["pattern"]), ("ada@exa_mple.com", ["pattern"]), ("ada@bücher.de", ["pattern"]),
            ("\"ada\"@example.com", ["pattern"]),
        ]
        for (address, rules) in invalid { #expect(Self.failed(type, address) == rules, "\(address)") }
        // 254 bytes pass, 255 do not.
        let local = String(repeating: "a", count: 64)
        let long = local + "@" + [label63, label63, String(repeating: "b", count: 57), "com"].joined(separator: ".")
        #expect(long.utf8.count == 254 && Self.failed(type, long).isEmpty)
        #expect(Self.failed(type, "a" + long) == ["length"])
        // Live: a label may still grow past a hyphen or a dot; a leading dot can never pass.
        #expect(type.validate("ada@example-", stage: .live).verdict == .incomplete)
        #expect(type.validate("ada@example.1", stage: .live).verdict == .incomplete)
        #expect(type.validate(".", stage: .live).verdict == .invalid)
        #expect(type.validate("a..", stage: .live).verdict == .invalid)
    }

    // MARK: exp-date

    @Test func expDateRefusesAnExpiredCardAndTakesThisMonth() throws {
        let type = try Self.compiled("exp-date")    // today 2026-11-29
        #expect(Self.failed(type, "11/26").isEmpty)
        #expect(Self.failed(type, "10/26") == ["date"])
        #expect(Self.failed(type, "12/25") == ["date"])
        #expect(Self.failed(type, "11/38").isEmpty)          // today + 12 years
        #expect(Self.failed(type, "12/38") == ["date"])
        #expect(Self.failed(type, "13/30") == ["date"])
        #expect(type.validate("10/2", stage: .live).verdict == .incomplete)   // 10/27 still can be
        #expect(type.validate("10/26", stage: .live).verdict == .invalid)
        #expect(type.validate("10/26", stage: .final).violations.first?.message
                == "The card has expired or the date is not valid")
        // On the first of a month, that month is still good and the one before is not.
        let first = try Self.compiled("exp-date", today: CivilDate(year: 2027, month: 1, day: 1))
        #expect(Self.failed(first, "01/27").isEmpty)
        #expect(Self.failed(first, "12/26") == ["date"])
        // Stored records: the old window of twelve years either way, or any other bounds.
        let old = try Self.compiled("exp-date", [("earliest", .string("today-12y"))])
        #expect(Self.failed(old, "10/26").isEmpty)
        #expect(Self.failed(old, "11/14").isEmpty)
        #expect(Self.failed(old, "10/14") == ["date"])
        #expect(Self.failed(old, "13/20") == ["date"])
        let window = try Self.compiled("exp-date", [("earliest", .string("2020-01-01")),
                                                    ("latest", .string("today+5y"))])
        #expect(Self.failed(window, "01/20").isEmpty)
        #expect(Self.failed(window, "12/19") == ["date"])
        #expect(Self.failed(window, "12/31") == ["date"])
    }

    // MARK: phone-intl

    /// libphonenumber's example numbers, one per region and type of number (generated with
    /// the plugin by scripts/generate-phone-intl.py).
    static func phoneExamples() throws -> [(region: String, kind: String, number: String)] {
        // Outside the test target's folder, so that SwiftPM does not take it for a resource.
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/phone-intl-examples.txt").path
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let parts = line.split(separator: " ").map(String.init)
                return (parts[0], parts[1], parts[2])
            }
    }

    @Test func phoneIntlTakesEveryExampleNumberOfTheMetadata() throws {
        let type = try Self.compiled("phone-intl")
        let examples = try Self.phoneExamples()
        #expect(examples.count > 1_000)
        #expect(Set(examples.map(\.region)).count > 240)
        for (region, kind, number) in examples {
            #expect(Self.failed(type, number).isEmpty, "\(region) \(kind) \(number)")
        }
    }

    /// `phone-intl(region: R)`: each example number of the metadata passes in its own
    /// region, and a number of another calling code fails the region's rule.
    @Test func phoneIntlChecksARegionsCallingCodeAndLengths() throws {
        let examples = try Self.phoneExamples().filter { $0.region != "001" }
        var byRegion: [String: [String]] = [:]
        for (region, _, number) in examples { byRegion[region, default: []].append(number) }
        #expect(byRegion.count > 240)
        let foreign = ["GB": "+12025550143", "US": "+442079460958"]
        for (region, numbers) in byRegion.sorted(by: { $0.key < $1.key }) {
            let type = try Self.compiled("phone-intl", [("region", .string(region))])
            for number in numbers { #expect(Self.failed(type, number).isEmpty, "\(region) \(number)") }
            let rule = "region-" + region.lowercased()
            let other = foreign[region] ?? (numbers[0].hasPrefix("+1") ? "+442079460958" : "+12025550143")
            #expect(Self.failed(type, other) == [rule], "\(region): \(other)")
        }
        // Lengths: GB takes 7, 9 and 10 national digits, not 8 or 11.
        let gb = try Self.compiled("phone-intl", [("region", .string("GB"))])
        #expect(Self.failed(gb, "+44 800 1111").isEmpty)
        #expect(Self.failed(gb, "+44 8001 1111") == ["region-gb"])
        #expect(Self.failed(gb, "+44 20 7946 09581") == ["region-gb"])
        #expect(gb.validate("+44 20 7946 0958", stage: .final).violations.isEmpty)
        #expect(gb.validate("+1", stage: .live).verdict == .invalid)
        #expect(gb.validate("+4", stage: .live).verdict == .incomplete)
        #expect(gb.validate("+44 800 1111", stage: .final).violations.isEmpty)
        let message = gb.validate("+1 202 555 0143", stage: .final).violations.first?.message
        #expect(message == "GB (United Kingdom) numbers are +44 and 7, 9 or 10 digits")
        // Niue: +683 and 4 or 7 digits.
        let niue = try Self.compiled("phone-intl", [("region", .string("NU"))])
        #expect(Self.failed(niue, "+683 7012").isEmpty)
        #expect(Self.failed(niue, "+683 888 4012").isEmpty)
        #expect(Self.failed(niue, "+683 70123") == ["region-nu"])
        // Regions are spelled as in the metadata; another spelling is an error.
        #expect(throws: (any Error).self) { try Self.compiled("phone-intl", [("region", .string("gb"))]) }
        #expect(throws: (any Error).self) { try Self.compiled("phone-intl", [("region", .string("ZZ"))]) }
    }

    @Test func phoneIntlIsE164AsItIs() throws {
        let type = try Self.compiled("phone-intl")
        // libphonenumber's printed forms, and Niue's seven digits.
        for (typed, stored) in [("+1 268-460-1234", "+12684601234"), ("+44 (0)20", "+44020"),
                                ("+1 (268) 464.1234", "+12684641234"), ("+683 7012", "+6837012"),
                                ("+49 30 123456", "+4930123456"), ("+800 1234 5678", "+80012345678")] {
            #expect(type.validate(typed, stage: .final).formatted == stored, "\(typed)")
        }
        #expect(Self.failed(type, "+6837012").isEmpty)
        #expect(Self.failed(type, "+1 268-460-1234").isEmpty)
        #expect(Self.failed(type, "+683701") == ["pattern"])                 // 6 digits
        #expect(Self.failed(type, "+123456789012345").isEmpty)               // 15
        #expect(Self.failed(type, "+1234567890123456") == ["pattern"])       // 16
        // Calling codes no country has.
        for number in ["+0123456789", "+28 1234 5678", "+425 1234 5678", "+999 1234 5678", "+80 1234 5678"] {
            #expect(Self.failed(type, number).contains("country-code"), "\(number)")
        }
        #expect(type.validate("+28", stage: .live).verdict == .invalid)
        #expect(type.validate("+38", stage: .live).verdict == .incomplete)   // +380, +381 …
        #expect(Self.failed(type, "+44 20 7946 095a") == ["pattern"])
        #expect(Self.failed(type, "0044 20 7946 0958") == ["pattern"])
    }
}
