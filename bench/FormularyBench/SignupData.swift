#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sign-up data set of the benchmarks (form `bench/signup.form`): deterministic for a
/// seed, with about 15% of the entries carrying exactly one defect.
///
/// Fields: name, email, phone (optional: sometimes empty, sometimes absent), age 18–120,
/// card (16 digits in fours, Luhn-valid), exp (MM/yy, from this month to ten years after
/// ``today``), cvv (3 digits). Defects: a bad Luhn digit, an expiry far outside the
/// twelve-year window or with month 13, an age out of range or not a number, a malformed
/// email, a short phone, a 4-digit cvv, a missing or blank name.
struct SignupData {
    static let columns = ["name", "email", "phone", "age", "card", "exp", "cvv"]
    /// The "today" the data set is generated (and must be validated) against.
    static let today = (year: 2026, month: 11, day: 29)

    enum Defect: String, CaseIterable {
        case badLuhn, expired, badMonth, ageTooLow, ageTooHigh, ageNotANumber, badEmail,
             shortPhone, longCVV, missingName, blankName

        /// The field (one of ``SignupData/columns``) the defect is in: the only field of the
        /// entry that a run must find failing.
        var field: String {
            switch self {
            case .badLuhn: "card"
            case .expired, .badMonth: "exp"
            case .ageTooLow, .ageTooHigh, .ageNotANumber: "age"
            case .badEmail: "email"
            case .shortPhone: "phone"
            case .longCVV: "cvv"
            case .missingName, .blankName: "name"
            }
        }
    }

    private var state: UInt64
    /// Entries made so far.
    private(set) var count = 0

    /// The share of entries (in percent) that carry a defect.
    private let defectPercent: Int

    init(seed: UInt64 = 0x5EED_F0F0_1234_5678, defectPercent: Int = 15) {
        state = seed
        self.defectPercent = defectPercent
    }

    /// SplitMix64: small, fast, and the same on every platform (no Foundation random).
    private mutating func next64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next64() % UInt64(bound)) }

    private mutating func pick(_ options: [String]) -> String { options[below(options.count)] }

    private static let first = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Zoë", "José", "Søren",
                                "Mary-Jane", "Jean-Luc", "Chloé", "Björn", "Ngozi", "Wei", "Aiko", "Liam",
                                "Olivia", "Noah", "Emma"]
    private static let last = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "O'Neil",
                               "García", "Kierkegaard", "Okafor", "Zhang", "Tanaka", "Smith", "Johnson",
                               "Müller", "Dubois", "Rossi", "van Dijk", "Nowak", "Silva"]
    private static let domains = ["example.com", "mail.example.org", "example.net", "post.example.co.uk"]

    /// The next entry's values in ``columns`` order (nil: absent), and its defect if any.
    mutating func next() -> (values: [String?], defect: Defect?) {
        count += 1
        let first = pick(Self.first), last = pick(Self.last)
        var name: String? = "\(first) \(last)"
        let local = "\(first.lowercased().filter { $0.isASCII && $0.isLetter }).\(count)"
        var email = "\(local)@\(pick(Self.domains))"
        var phone: String? = switch below(10) {
        case 0: nil
        case 1: ""
        case 2...5: "(\(200 + below(800))) \(100 + below(900))-\(1000 + below(9000))"
        default: "\(200 + below(800))-\(100 + below(900))-\(1000 + below(9000))"
        }
        var age = String(18 + below(103))
        var digits = (0..<15).map { _ in below(10) }
        digits[0] = 4
        digits.append(Self.luhnCheckDigit(digits))
        let monthsAhead = below(120)
        let months = Self.today.month - 1 + monthsAhead
        var exp = Self.twoDigits(months % 12 + 1) + "/" + Self.twoDigits((Self.today.year + months / 12) % 100)
        var cvv = String(100 + below(900))

        var defect: Defect? = nil
        if below(100) < defectPercent {
            defect = Defect.allCases[below(Defect.allCases.count)]
            switch defect! {
            case .badLuhn: digits[15] = (digits[15] + 1 + below(9)) % 10
            case .expired: exp = Self.twoDigits(1 + below(12)) + "/" + Self.twoDigits((Self.today.year - 13 - below(20)) % 100)
            case .badMonth: exp = "13/" + Self.twoDigits((Self.today.year + 1) % 100)
            case .ageTooLow: age = String(below(18))
            case .ageTooHigh: age = String(121 + below(50))
            case .ageNotANumber: age = pick(["abc", "4O", "30.5", "+30"])
            case .badEmail: email = pick(["\(local)example.com", "\(local)@", "@example.com", "\(local)@example"])
            case .shortPhone: phone = "\(100 + below(900))-\(1000 + below(9000))"
            case .longCVV: cvv = String(1000 + below(9000))
            case .missingName: name = nil
            case .blankName: name = "  "
            }
        }
        var card = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && i % 4 == 0 { card.append(" ") }
            card.append(Character(Unicode.Scalar(UInt8(48 + d))))
        }
        return ([name, email, phone, age, card, exp, cvv], defect)
    }

    static func luhnCheckDigit(_ digits: [Int]) -> Int {
        var sum = 0
        for (i, d) in digits.reversed().enumerated() {
            var v = d
            if i % 2 == 0 { v *= 2; if v > 9 { v -= 9 } }
            sum += v
        }
        return (10 - sum % 10) % 10
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    /// `count` entries as CSV (RFC 4180, header row; absent and empty values both empty).
    static func csv(count: Int, seed: UInt64 = 0x5EED_F0F0_1234_5678) -> String {
        var data = SignupData(seed: seed)
        var out = columns.joined(separator: ",") + "\n"
        for _ in 0..<count {
            out += data.next().values.map { quote($0 ?? "") }.joined(separator: ",") + "\n"
        }
        return out
    }

    /// Writes ``csv(count:seed:)`` to `path`, `defectPercent` % of the entries with a defect.
    static func writeCSV(count: Int, to path: String, seed: UInt64 = 0x5EED_F0F0_1234_5678,
                         defectPercent: Int = 15) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        var data = SignupData(seed: seed, defectPercent: defectPercent)
        var line = columns.joined(separator: ",") + "\n"
        for i in 0...count {
            if i > 0 { line = data.next().values.map { quote($0 ?? "") }.joined(separator: ",") + "\n" }
            guard fputs(line, file) >= 0 else { return false }
        }
        return true
    }

    private static func quote(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
