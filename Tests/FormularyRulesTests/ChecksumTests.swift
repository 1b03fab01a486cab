import Testing
@testable import FormularyRules

@Suite struct ChecksumTests {
    @Test func luhnOverDigits() throws {
        let type = try compileType(check(.checksum(.luhn)))
        for valid in ["4111111111111111", "4111 1111 1111 1111", "79927398713", "0", "5500-0000-0000-0004"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        for invalid in ["4111111111111112", "79927398710", "1", "----"] {
            #expect(!type.isValid(invalid), "\(invalid)")
            #expect(type.failed(invalid) == ["luhn"])
        }
    }

    @Test func mod97AsForIBAN() throws {
        let type = try compileType(check(.checksum(.mod97)))
        for valid in ["GB82WEST12345698765432", "GB82 WEST 1234 5698 7654 32", "gb82west12345698765432",
                      "DE89370400440532013000", "NL91ABNA0417164300"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        for invalid in ["GB82WEST12345698765433", "GB82-WEST-1234-5698-7654-32", "GB82", "DE89370400440532013001", "ÄB82WEST12345698765432"] {
            #expect(!type.isValid(invalid), "\(invalid)")
            #expect(type.failed(invalid) == ["mod97"])
        }
    }

    @Test func mod97HandlesLongValuesIncrementally() throws {
        let type = try compileType(check(.checksum(.mod97)))
        // 10^(n) ≡ ... : build a value whose rotated number is ≡ 1 (mod 97) by choosing
        // the check digits the way IBANs do.
        let body = String(repeating: "1234567890", count: 1_000) + "GB"
        var r = 0
        for c in (body + "00").utf8 {
            let v = c >= 65 ? Int(c) - 55 : Int(c) - 48
            r = (v < 10 ? r * 10 + v : r * 100 + v) % 97
        }
        let check = 98 - r
        let digits = check < 10 ? "0\(check)" : "\(check)"
        let value = "GB" + digits + String(body.dropLast(2))
        #expect(type.isValid(value))
    }

    @Test func checksumsRunOnlyInTheFinalStage() throws {
        let type = try compileType(check(.checksum(.luhn)))
        #expect(type.live("4111111111111112") == .incomplete)
        #expect(type.failed("4111111111111112", .live).isEmpty)
    }
}
