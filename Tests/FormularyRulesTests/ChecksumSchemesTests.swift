import Testing
@testable import FormularyRules

// Published vectors, by source:
// - GS1 check digit calculator page (gs1.org/barcodes/support/check_digit_calculator) and its
//   national copies (GS1 Hong Kong): 629104150021 → check digit 3 (6291041500213).
//   GS1 India's worked example: 890400021003 → 7 (8904000210037).
// - Wikipedia, "International Article Number": EAN-13 4006381333931; EAN-8 96385074.
//   Wikipedia, "Universal Product Code": UPC-A 036000291452.
// - GTIN-14 as GS1 General Specifications §2.1.8.2 builds it: an indicator digit, the
//   first twelve digits of the GTIN-13, the check digit recalculated — from 6291041500213
//   with indicator 1: 16291041500210; and a GTIN-13 right-justified in the 14-digit field
//   ("00" + GTIN-12 / "0" + GTIN-13, as the GS1 calculator page prescribes for databases).
// - Wikipedia, "ISBN": ISBN-10 0-306-40615-2 and ISBN-13 978-0-306-40615-7 (the check digit
//   examples), 0-8044-2957-X, 0-9752298-0-X, 99921-58-10-7, 80-902734-1-6, 85-359-0277-5,
//   1-84356-028-3, 0-684-84328-5, 0-85131-041-9, 93-86954-21-4, 0-943396-04-2 (its ISBN-10
//   examples); 978-3-16-148410-0 (its ISBN-13 example).
// - Verhoeff: Wikipedia, "Verhoeff algorithm": 236 → 3 (2363); Rosetta Code, "Verhoeff
//   algorithm": 236 → 3, 12345 → 1 (123451), 123456789012 → 0 (1234567890120).
// Each was also cross-checked with an independent Python implementation.

let gtinVectors = ["4006381333931", "036000291452", "96385074", "6291041500213", "8904000210037",
                   "16291041500210", "06291041500213", "00036000291452", "9780306406157", "9783161484100"]
let isbn10Vectors = ["0-306-40615-2", "0-8044-2957-X", "0-9752298-0-X", "99921-58-10-7", "80-902734-1-6",
                     "85-359-0277-5", "1-84356-028-3", "0-684-84328-5", "0-85131-041-9", "93-86954-21-4",
                     "0-943396-04-2"]
let verhoeffVectors = ["2363", "123451", "1234567890120"]

/// The value with the digit (or `X`) at counted position `k` replaced by `c`.
private func replacing(_ value: String, at k: Int, with c: Character) -> String {
    var chars = Array(value)
    let positions = chars.indices.filter { chars[$0].isNumber || chars[$0] == "X" }
    chars[positions[k]] = c
    return String(chars)
}

/// The counted characters (digits and `X`) of a value.
private func counted(_ value: String) -> [Character] { value.filter { $0.isNumber || $0 == "X" }.map { $0 } }

/// Every value that differs from `value` in one counted character, using `alphabet`.
private func singleErrors(_ value: String, alphabet: [Character]) -> [String] {
    let digits = counted(value)
    return digits.indices.flatMap { k in
        alphabet.filter { $0 != digits[k] }.map { replacing(value, at: k, with: $0) }
    }
}

/// Every adjacent transposition of two different counted characters, with the two characters.
private func transpositions(_ value: String) -> [(value: String, a: Character, b: Character)] {
    let digits = counted(value)
    return (0..<(digits.count - 1)).compactMap { k in
        guard digits[k] != digits[k + 1] else { return nil }
        return (replacing(replacing(value, at: k, with: digits[k + 1]), at: k + 1, with: digits[k]), digits[k], digits[k + 1])
    }
}

private let decimalDigits = Array("0123456789")

@Suite struct ChecksumSchemesTests {
    @Test func gtinPassesPublishedVectors() throws {
        let type = try compileType(check(.checksum(.gtin)))
        for valid in gtinVectors + ["400 6381 33393 1", "0-36000-29145-2"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        for invalid in ["4006381333932", "036000291453", "96385075", "5", "0", "----"] {
            #expect(type.failed(invalid) == ["gtin"], "\(invalid)")
        }
    }

    @Test func gtinCatchesEverySingleDigitError() throws {
        let type = try compileType(check(.checksum(.gtin)))
        for vector in gtinVectors {
            for wrong in singleErrors(vector, alphabet: decimalDigits) {
                #expect(type.failed(wrong) == ["gtin"], "\(wrong) from \(vector)")
            }
        }
    }

    /// Swapping neighbours a, b changes the weighted sum by ±2(a − b), a multiple of 10
    /// exactly when the digits differ by 5: those transpositions (0↔5, 1↔6, 2↔7, 3↔8, 4↔9)
    /// pass, every other one fails.
    @Test func gtinMissesExactlyTheTranspositionsOfDigitsFiveApart() throws {
        let type = try compileType(check(.checksum(.gtin)))
        var missed = 0, caught = 0
        for vector in gtinVectors {
            for (swapped, a, b) in transpositions(vector) {
                let apart = abs(Int(String(a))! - Int(String(b))!)
                if apart == 5 {
                    #expect(type.isValid(swapped), "\(swapped) from \(vector)")
                    missed += 1
                } else {
                    #expect(type.failed(swapped) == ["gtin"], "\(swapped) from \(vector)")
                    caught += 1
                }
            }
        }
        #expect(missed > 0 && caught > 0)   // the vectors exercise both cases
        #expect(type.isValid("4006831333931"))    // 4006381333931 with 3↔8 swapped: missed
        #expect(!type.isValid("4060381333931"))   // with 0↔6 swapped: caught
    }

    @Test func isbn10PassesPublishedVectorsWithX() throws {
        let type = try compileType(check(.checksum(.isbn10)))
        for valid in isbn10Vectors + ["0306406152", "080442957X", "0 8044 2957 X"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        for invalid in ["0-306-40615-3", "0-8044-2957-x", "0-8044-2957-0", "X-306-40615-2", "0-306-4061X-2",
                        "030640615", "03064061520", "978-0-306-40615-7", "----"] {
            #expect(type.failed(invalid) == ["isbn10"], "\(invalid)")
        }
    }

    @Test func isbn10CatchesEverySingleErrorAndEveryAdjacentTransposition() throws {
        let type = try compileType(check(.checksum(.isbn10)))
        for vector in isbn10Vectors {
            // X counts as an error in every place, including the last (where it is 10).
            for wrong in singleErrors(vector, alphabet: decimalDigits + ["X"]) {
                #expect(type.failed(wrong) == ["isbn10"], "\(wrong) from \(vector)")
            }
            let swaps = transpositions(vector)
            #expect(!swaps.isEmpty)
            for (swapped, _, _) in swaps {
                #expect(type.failed(swapped) == ["isbn10"], "\(swapped) from \(vector)")
            }
        }
    }

    @Test func isbnTakesEitherFormAndNothingElse() throws {
        let type = try compileType(check(.checksum(.isbn)))
        // 979-10-90636-07-1: a 979 number whose check digit the Python implementation confirms.
        for valid in isbn10Vectors + ["978-0-306-40615-7", "9783161484100", "979-10-90636-07-1"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        // An EAN-13 outside the Bookland prefixes, a GTIN-12, a wrong check digit, an X in
        // a 13-digit value, and ISBN-13 single-digit errors.
        var invalid = ["4006381333931", "036000291452", "978-0-306-40615-8", "978-0-306-4061X-7", "97803064061X"]
        invalid += singleErrors("978-0-306-40615-7", alphabet: decimalDigits)
        for value in invalid {
            #expect(type.failed(value) == ["isbn"], "\(value)")
        }
    }

    @Test func verhoeffPassesPublishedVectors() throws {
        let type = try compileType(check(.checksum(.verhoeff)))
        for valid in verhoeffVectors + ["236 3", "1234-5678-9012-0"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        // The wrong check digits of the worked examples: 236 takes only 3, 12345 only 1.
        for d in decimalDigits where d != "3" { #expect(type.failed("236" + String(d)) == ["verhoeff"]) }
        for d in decimalDigits where d != "1" { #expect(type.failed("12345" + String(d)) == ["verhoeff"]) }
        #expect(type.failed("0") == ["verhoeff"])   // one digit: nothing to protect
    }

    @Test func verhoeffCatchesEverySingleErrorAndEveryAdjacentTransposition() throws {
        let type = try compileType(check(.checksum(.verhoeff)))
        for vector in verhoeffVectors {
            for wrong in singleErrors(vector, alphabet: decimalDigits) {
                #expect(type.failed(wrong) == ["verhoeff"], "\(wrong) from \(vector)")
            }
            for (swapped, _, _) in transpositions(vector) {
                #expect(type.failed(swapped) == ["verhoeff"], "\(swapped) from \(vector)")
            }
        }
        // Exhaustively over all 4-digit bodies: every body has exactly one check digit, and
        // every adjacent transposition of the resulting number is caught.
        for body in 0..<10_000 {
            let text = String(body)
            let passing = decimalDigits.filter { type.isValid(text + String($0)) }
            #expect(passing.count == 1, "\(text)")
            guard let digit = passing.first else { continue }
            for (swapped, _, _) in transpositions(text + String(digit)) {
                #expect(!type.isValid(swapped), "\(swapped)")
            }
        }
    }

    @Test func newChecksumsRunOnlyInTheFinalStage() throws {
        for algorithm in [ChecksumAlgorithm.gtin, .isbn10, .isbn, .verhoeff] {
            let type = try compileType(check(.checksum(algorithm)))
            #expect(type.live("400638133393") == .incomplete, "\(algorithm)")
            #expect(type.failed("4006381333932", .live).isEmpty, "\(algorithm)")
        }
    }

    @Test func parserKnowsTheNewAlgorithms() throws {
        for name in ["gtin", "isbn10", "isbn", "verhoeff"] {
            let def = try #require(resolvedField("field t\nchecksum \(name)\n"))
            #expect(def.checks.map(\.kind) == [.checksum(ChecksumAlgorithm(rawValue: name)!)])
            #expect(def.checks.first?.options.name == name)
        }
    }
}
