/// A calendar date in the proleptic Gregorian calendar, without time or zone.
/// "Today" is always passed in as one of these so that validation is repeatable.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Makes a date from its parts; they are not checked (use ``init(iso:)`` for text).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (before it when negative), by arithmetic: no
    /// calendar object and no libc call, for code that turns many times into dates.
    package init(daysSince1970 days: Int) {
        self = Calendar.date(dayNumber: days)
    }

    /// Parses `YYYY-MM-DD` (exactly four, two and two ASCII digits) and checks that the
    /// date exists. Returns nil otherwise.
    public init?(iso text: String) {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var n = 0
            for i in r {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let y = num(0..<4), let m = num(5..<7), let d = num(8..<10),
              (1...12).contains(m), d >= 1, d <= CivilDate.daysIn(month: m, year: y) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Whether `year` has a 29 February.
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Calendar order.
    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ w: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
