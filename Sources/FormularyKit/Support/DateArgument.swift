import FormularyRules

/// Dates and times given on the command line (`--today`, `FORMULARY_TODAY`, `audit --since`),
/// checked as the calendar and the clock have them: month 1–12, the day within its month
/// (leap years included), hours 0–23, minutes and seconds 0–59. A refusal says what is wrong.
package enum DateArgument {
    /// Why a text is not a date or time, in a few words (`"February 2026 has 28 days"`), or
    /// nothing when it is not even written in the expected form.
    package struct Invalid: Error, Sendable, Equatable {
        /// What is wrong beyond the form, if anything.
        package var reason: String?

        /// Makes a refusal.
        package init(reason: String?) { self.reason = reason }

        /// `" (February 2026 has 28 days)"`, or "" when there is no reason beyond the form.
        package var parenthesized: String { reason.map { " (\($0))" } ?? "" }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    /// `YYYY-MM-DD`: exactly four, two and two ASCII digits, a date that exists.
    package static func date(_ text: String) throws(Invalid) -> CivilDate {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0..<4), let month = number(b, 5..<7), let day = number(b, 8..<10) else {
            throw Invalid(reason: nil)
        }
        guard (1...12).contains(month) else { throw Invalid(reason: "there is no month \(month)") }
        let days = CivilDate.daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            throw Invalid(reason: day == 0 ? "there is no day 0" : "\(monthNames[month - 1]) \(year) has \(days) days")
        }
        return CivilDate(year: year, month: month, day: day)
    }

    /// A date `YYYY-MM-DD`, or a UTC time `YYYY-MM-DDTHH:MM[:SS[.mmm]]` with an optional `Z`,
    /// as the audit log stores times (`2026-11-29T14:30:00.000Z`), so that comparing the
    /// text compares the times. A date stays a date (it sorts before every time of its day).
    package static func utcTime(_ text: String) throws(Invalid) -> String {
        guard text.utf8.count > 10 else { return try date(text).description }
        let b = Array(text.utf8)
        let day = try date(String(decoding: b[0..<10], as: UTF8.self))
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") else {
            throw Invalid(reason: nil)
        }
        var clock = Array(b[11...])
        if let last = clock.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            clock.removeLast()
        } else if clock.contains(UInt8(ascii: "+")) || clock.contains(UInt8(ascii: "-")) {
            throw Invalid(reason: "times are UTC: end it with Z or nothing, not an offset")
        }
        // HH:MM, HH:MM:SS, HH:MM:SS.f to HH:MM:SS.fff
        guard [5, 8].contains(clock.count) || (10...12).contains(clock.count),
              clock[2] == UInt8(ascii: ":"), clock.count == 5 || clock[5] == UInt8(ascii: ":"),
              clock.count <= 8 || clock[8] == UInt8(ascii: "."),
              let hour = number(clock, 0..<2), let minute = number(clock, 3..<5),
              let second = clock.count >= 8 ? number(clock, 6..<8) : 0,
              let fraction = clock.count > 9 ? number(clock, 9..<clock.count) : 0 else {
            throw Invalid(reason: nil)
        }
        guard hour <= 23 else { throw Invalid(reason: "there is no hour \(hour)") }
        guard minute <= 59 else { throw Invalid(reason: "there is no minute \(minute)") }
        guard second <= 59 else { throw Invalid(reason: "there is no second \(second)") }
        let digits = clock.count > 9 ? clock.count - 9 : 0
        let millis = fraction * [1, 100, 10, 1][digits]
        func pad(_ n: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(n).count)) + String(n)
        }
        return "\(day)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millis, 3))Z"
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var n = 0
        for i in range {
            guard bytes[i] >= 48, bytes[i] <= 57 else { return nil }
            n = n * 10 + Int(bytes[i] - 48)
        }
        return n
    }
}
