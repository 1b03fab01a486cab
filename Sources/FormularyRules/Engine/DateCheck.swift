/// A compiled `date "FORMAT" [RANGE]`.
///
/// Final: the value has exactly the format's shape, denotes a real date (proleptic
/// Gregorian) and, with a range, its span — the day, or the whole month without `dd`, or
/// the whole year without `MM` — overlaps the range.
/// Live: the typed prefix fits the format and some completion is a real date in range.
struct DateCheck: Sendable {
    let format: DateFormat
    let range: DayRange
    let todayYear: Int
    /// The range's ends as month numbers (`year × 12 + month − 1`; nil: unbounded): a
    /// month's days overlap the range exactly when its number lies between them, so a
    /// format without `dd` is judged without day arithmetic.
    private let firstMonth: Int?
    private let lastMonth: Int?

    init(format: DateFormat, range: DayRange, todayYear: Int) {
        (self.format, self.range, self.todayYear) = (format, range, todayYear)
        firstMonth = range.firstDate.map { $0.year * 12 + $0.month - 1 }
        lastMonth = range.lastDate.map { $0.year * 12 + $0.month - 1 }
    }

    /// The day numbers a complete value spans, or nil when it is not a real date.
    @inline(__always)
    private func span(year: Int, month: Int?, day: Int?) -> (Int, Int)? {
        guard let month else {
            return (Calendar.dayNumber(year: year, month: 1, day: 1),
                    Calendar.dayNumber(year: year, month: 12, day: 31))
        }
        guard month >= 1, month <= 12 else { return nil }
        let days = CivilDate.daysIn(month: month, year: year)
        guard let day else {
            return (Calendar.dayNumber(year: year, month: month, day: 1),
                    Calendar.dayNumber(year: year, month: month, day: days))
        }
        guard day >= 1, day <= days else { return nil }
        let n = Calendar.dayNumber(year: year, month: month, day: day)
        return (n, n)
    }

    /// The year (windowed when the format has `yy`), month and day a complete value
    /// writes, or nil when it does not have the format's shape. Month and day are 0 when
    /// the format has none; nothing is checked against the calendar here.
    @inline(__always)
    func fields(_ b: Bytes) -> (year: Int, month: Int, day: Int)? {
        let items = format.items
        guard b.count == items.count else { return nil }
        var year = 0, month = 0, day = 0
        for i in 0..<items.count {
            let c = b[i]
            switch items[i] {
            case .literal(let l):
                guard c == l else { return nil }
            case .digit(let field):
                guard c.isASCIIDigit else { return nil }
                let d = Int(c &- 0x30)
                switch field {
                case .year: year = year * 10 + d
                case .month: month = month * 10 + d
                case .day: day = day * 10 + d
                }
            }
        }
        if format.twoDigitYear { year = DateFormat.windowYear(year, todayYear: todayYear) }
        return (year, month, day)
    }

    func passesFinal(_ b: Bytes) -> Bool {
        guard let (year, month, day) = fields(b) else { return false }
        if format.hasMonth && !format.hasDay {
            guard month >= 1, month <= 12 else { return false }
            let number = year * 12 + month - 1
            if let firstMonth, number < firstMonth { return false }
            if let lastMonth, number > lastMonth { return false }
            return true
        }
        guard let (start, end) = span(year: year, month: format.hasMonth ? month : nil,
                                      day: format.hasDay ? day : nil) else { return false }
        return range.overlaps(start, end)
    }

    func passesLive(_ b: Bytes) -> Bool {
        let items = format.items
        guard b.count <= items.count else { return false }
        var typed: [DateFormat.Field: [Int]] = [.year: [], .month: [], .day: []]
        for i in 0..<b.count {
            switch items[i] {
            case .literal(let l):
                guard b[i] == l else { return false }
            case .digit(let field):
                guard b[i].isASCIIDigit else { return false }
                typed[field, default: []].append(Int(b[i] - 0x30))
            }
        }
        func candidates(_ digits: [Int], _ values: ClosedRange<Int>) -> [Int] {
            values.filter { v in
                digits.enumerated().allSatisfy { k, d in (v / (k == 0 ? 10 : 1)) % 10 == d }
            }
        }
        let months: [Int?] = format.hasMonth ? candidates(typed[.month]!, 1...12) : [nil]
        let days: [Int?] = format.hasDay ? candidates(typed[.day]!, 1...31) : [nil]
        guard !months.isEmpty, !days.isEmpty else { return false }

        func exists(_ year: Int) -> Bool {
            for m in months {
                for d in days {
                    if let (start, end) = span(year: year, month: m, day: d), range.overlaps(start, end) {
                        return true
                    }
                }
            }
            return false
        }

        let yearDigits = typed[.year]!
        if format.twoDigitYear {
            let values = candidates(yearDigits, 0...99)
            return values.contains { exists(DateFormat.windowYear($0, todayYear: todayYear)) }
        }
        var prefix = 0
        for d in yearDigits { prefix = prefix * 10 + d }
        var scale = 1
        for _ in yearDigits.count..<4 { scale *= 10 }
        return existsInYears(prefix * scale, prefix * scale + scale - 1, exists)
    }

    /// Whether some year in `first...last` has a fitting date. Years strictly inside the
    /// range's years only differ by leap-ness, so besides the two ends at most nine
    /// consecutive years (which always hold a leap year and a common one) are tried.
    private func existsInYears(_ first: Int, _ last: Int, _ exists: (Int) -> Bool) -> Bool {
        let low = max(first, range.firstDate?.year ?? first)
        let high = min(last, range.lastDate?.year ?? last)
        guard low <= high else { return false }
        if exists(low) || exists(high) { return true }
        var year = low + 1
        while year < high && year <= low + 9 {
            if exists(year) { return true }
            year += 1
        }
        return false
    }
}
