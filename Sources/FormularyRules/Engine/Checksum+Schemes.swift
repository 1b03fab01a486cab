/// The check-digit schemes added in the language's second round: GS1 (GTIN), ISBN-10,
/// ISBN (either form) and Verhoeff. Like `luhn`, each reads the digits of the value and
/// ignores every other character (hyphens, spaces, a mask's literals), so a formatted
/// value and its bare digits agree.
extension Checksum {
    /// GS1 mod 10 (GTIN-8, UPC-A/GTIN-12, EAN-13, GTIN-14, and other GS1 keys such as
    /// SSCC): weights 1, 3, 1, 3, … from the right, the rightmost digit being the check
    /// digit; the sum must be a multiple of 10. Fewer than two digits fail: there is then
    /// nothing for a check digit to protect. The length is not judged here (a mask or a
    /// pattern says which lengths a type takes), so the same check serves every GS1 key.
    @inline(__always)
    static func gtin(_ b: Bytes) -> Bool {
        var sum = 0, digits = 0
        var i = b.count - 1
        while i >= 0 {
            let c = b[i]
            if c.isASCIIDigit {
                let d = Int(c &- 0x30)
                sum &+= digits & 1 == 1 ? 3 &* d : d
                digits += 1
            }
            i -= 1
        }
        return digits >= 2 && sum % 10 == 0
    }

    /// ISBN-10: exactly ten characters that count — digits, and `X` (= 10) as the last one
    /// only — weighted 10, 9, … 1 from the left; the sum must be a multiple of 11. A
    /// lower-case `x` is not `X` (a type that allows it says `normalize uppercase`).
    static func isbn10(_ b: Bytes) -> Bool {
        guard let (sum, count, _) = isbn10Sum(b) else { return false }
        return count == 10 && sum % 11 == 0
    }

    /// ISBN-10 or ISBN-13: ten counted characters are judged as ISBN-10; thirteen digits
    /// starting 978 or 979 as ISBN-13, which is an EAN-13 (GS1 mod 10). Anything else fails.
    static func isbn(_ b: Bytes) -> Bool {
        guard let (sum, count, prefix) = isbn10Sum(b) else { return false }
        if count == 10 { return sum % 11 == 0 }
        guard count == 13, prefix == 978 || prefix == 979, !b.contains(UInt8(ascii: "X")) else { return false }
        return gtin(b)
    }

    /// The ISBN-10 weighted sum over the counted characters (weights 10 down to 1 when
    /// there are ten), their count, and the number their first three digits make; nil
    /// when an `X` is followed by another counted character.
    private static func isbn10Sum(_ b: Bytes) -> (sum: Int, count: Int, prefix: Int)? {
        var sum = 0, count = 0, prefix = 0
        var sawX = false
        for c in b {
            let value: Int
            if c.isASCIIDigit { value = Int(c &- 0x30) }
            else if c == UInt8(ascii: "X") { value = 10 }
            else { continue }
            if sawX { return nil }
            sawX = value == 10
            count += 1
            if count <= 3 { prefix = prefix * 10 + value }
            sum &+= max(0, 11 - count) &* value
        }
        return (sum, count, prefix)
    }

    /// Verhoeff (1969): the dihedral group D5 with the permutation σ = (1 5 8 9 4 2 7 0)(3 6)
    /// applied i times to the i-th digit from the right; the check digit is the rightmost and
    /// the product must be the identity. Catches every single-digit error and every adjacent
    /// transposition. Fewer than two digits fail.
    static func verhoeff(_ b: Bytes) -> Bool {
        var c: UInt8 = 0, digits = 0
        var i = b.count - 1
        while i >= 0 {
            let ch = b[i]
            if ch.isASCIIDigit {
                let p = Verhoeff.permutation[(digits & 7) &* 10 &+ Int(ch &- 0x30)]
                c = Verhoeff.multiplication[Int(c) &* 10 &+ Int(p)]
                digits += 1
            }
            i -= 1
        }
        return digits >= 2 && c == 0
    }
}

/// The Verhoeff tables, as published by Verhoeff (1969) and reproduced in every description
/// of the scheme: the multiplication table of D5 and the positional permutations.
enum Verhoeff {
    static let multiplication: [UInt8] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
        1, 2, 3, 4, 0, 6, 7, 8, 9, 5,
        2, 3, 4, 0, 1, 7, 8, 9, 5, 6,
        3, 4, 0, 1, 2, 8, 9, 5, 6, 7,
        4, 0, 1, 2, 3, 9, 5, 6, 7, 8,
        5, 9, 8, 7, 6, 0, 4, 3, 2, 1,
        6, 5, 9, 8, 7, 1, 0, 4, 3, 2,
        7, 6, 5, 9, 8, 2, 1, 0, 4, 3,
        8, 7, 6, 5, 9, 3, 2, 1, 0, 4,
        9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]
    static let permutation: [UInt8] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
        1, 5, 7, 6, 2, 8, 3, 0, 9, 4,
        5, 8, 0, 3, 7, 9, 6, 1, 4, 2,
        8, 9, 1, 6, 0, 4, 3, 5, 2, 7,
        9, 4, 5, 3, 1, 2, 6, 8, 7, 0,
        4, 2, 8, 6, 5, 7, 3, 9, 0, 1,
        2, 7, 9, 3, 8, 0, 6, 4, 1, 5,
        7, 0, 4, 6, 9, 1, 3, 2, 5, 8,
    ]
}
