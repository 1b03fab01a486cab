/// Day arithmetic in the proleptic Gregorian calendar.
enum Calendar {
    /// Days since 1970-01-01 (negative before), valid for any year.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func dayNumber(_ d: CivilDate) -> Int { dayNumber(year: d.year, month: d.month, day: d.day) }

    static func date(dayNumber n: Int) -> CivilDate {
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return CivilDate(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// `date` moved by an offset; adding years or months clamps the day to the target
    /// month's length (Feb 29 + 1y → Feb 28).
    static func offset(_ date: CivilDate, by amount: Int, _ unit: DateOffsetUnit) -> CivilDate {
        switch unit {
        case .days:
            return self.date(dayNumber: dayNumber(date) + amount)
        case .years:
            let year = date.year + amount
            return CivilDate(year: year, month: date.month,
                             day: min(date.day, CivilDate.daysIn(month: date.month, year: year)))
        case .months:
            let total = date.year * 12 + (date.month - 1) + amount
            let year = total >= 0 ? total / 12 : (total - 11) / 12
            let month = total - year * 12 + 1
            return CivilDate(year: year, month: month,
                             day: min(date.day, CivilDate.daysIn(month: month, year: year)))
        }
    }
}

/// A compiled `date "FORMAT"`: `yyyy`, `yy`, `MM`, `dd` are runs of exactly that many ASCII
/// digits; every other character is a literal, matched byte for byte.
struct DateFormat: Sendable {
    enum Field: Sendable { case year, month, day }
    enum Item: Sendable {
        case digit(Field)
        case literal(UInt8)
    }

    enum FormatError: Error, Equatable {
        case duplicate(String), missingYear, dayWithoutMonth
    }

    let format: String
    let items: [Item]
    let twoDigitYear: Bool
    let hasMonth: Bool
    let hasDay: Bool

    init(_ format: String) throws(FormatError) {
        self.format = format
        var items: [Item] = []
        var seen: Set<String> = []
        let scalars = Array(format.unicodeScalars)
        var i = 0
        var twoDigitYear = false
        func run(_ s: Unicode.Scalar, _ n: Int) -> Bool {
            i + n <= scalars.count && scalars[i..<(i + n)].allSatisfy { $0 == s }
        }
        while i < scalars.count {
            let token: String?
            if run("y", 4) { token = "yyyy" } else if run("y", 2) { token = "yy" }
            else if run("M", 2) { token = "MM" } else if run("d", 2) { token = "dd" } else { token = nil }
            if let token {
                let key = token.hasPrefix("y") ? "year" : token
                guard seen.insert(key).inserted else { throw .duplicate(token) }
                let field: Field = token.hasPrefix("y") ? .year : token == "MM" ? .month : .day
                if token == "yy" { twoDigitYear = true }
                items += Array(repeating: .digit(field), count: token.count)
                i += token.count
            } else {
                items += UTF8.encode(scalars[i])!.map { .literal($0) }
                i += 1
            }
        }
        guard seen.contains("year") else { throw .missingYear }
        guard !seen.contains("dd") || seen.contains("MM") else { throw .dayWithoutMonth }
        self.items = items
        self.twoDigitYear = twoDigitYear
        hasMonth = seen.contains("MM")
        hasDay = seen.contains("dd")
    }

    /// The year a two-digit year stands for: the one nearest to `todayYear`, in the window
    /// todayYear − 50 … todayYear + 49.
    static func windowYear(_ yy: Int, todayYear: Int) -> Int {
        let base = todayYear - 50
        return base + (((yy - base) % 100) + 100) % 100
    }
}

/// A resolved date range as inclusive day numbers; nil ends are open.
struct DayRange: Sendable {
    var first: Int?
    var last: Int?
    var firstDate: CivilDate?
    var lastDate: CivilDate?

    var isEmpty: Bool {
        if let first, let last { return first > last }
        return false
    }

    @inline(__always)
    func overlaps(_ start: Int, _ end: Int) -> Bool {
        if let first, end < first { return false }
        if let last, start > last { return false }
        return true
    }
}
