/// What a compiled `date` check accepts, for a given today: the values of its format that
/// name a real date (or month, or year: its *granule*) whose span overlaps the range. Such
/// a set is an interval of granules, so two checks of one format compare as intervals; a
/// witness search tries the dates at the ends of every check's interval and just outside.
struct DateLanguage {
    let check: DateCheck

    enum Granule { case day, month, year }

    var granule: Granule { check.format.hasDay ? .day : check.format.hasMonth ? .month : .year }

    /// The years the format can write: 0000–9999, or the two-digit-year window.
    private var years: ClosedRange<Int> {
        check.format.twoDigitYear ? (check.todayYear - 50)...(check.todayYear + 49) : 0...9999
    }

    /// The granule a day falls in (day number, month number `year × 12 + month − 1`, year).
    private func granule(of date: CivilDate) -> Int {
        switch granule {
        case .day: Calendar.dayNumber(date)
        case .month: date.year * 12 + date.month - 1
        case .year: date.year
        }
    }

    private var writable: ClosedRange<Int> {
        let first = CivilDate(year: years.lowerBound, month: 1, day: 1)
        let last = CivilDate(year: years.upperBound, month: 12, day: 31)
        return granule(of: first)...granule(of: last)
    }

    /// The granules the check accepts (nil: none).
    var accepted: ClosedRange<Int>? {
        var low = writable.lowerBound, high = writable.upperBound
        if let first = check.range.firstDate { low = max(low, granule(of: first)) }
        if let last = check.range.lastDate { high = min(high, granule(of: last)) }
        return low <= high ? low...high : nil
    }

    /// The format's text for granule `g` (which must be writable).
    func text(of g: Int) -> String {
        var (year, month, day) = (g, 1, 1)
        switch granule {
        case .day:
            let d = Calendar.date(dayNumber: g)
            (year, month, day) = (d.year, d.month, d.day)
        case .month:
            (year, month) = (g / 12, g % 12 + 1)
        case .year:
            break
        }
        let items = check.format.items
        var bytes: [UInt8] = []
        var k = 0
        while k < items.count {
            guard case .digit(let field) = items[k] else {
                if case .literal(let b) = items[k] { bytes.append(b) }
                k += 1
                continue
            }
            var width = 0
            while k + width < items.count, case .digit(let f) = items[k + width], f == field { width += 1 }
            let value = switch field {
            case .year: width == 2 ? ((year % 100) + 100) % 100 : year
            case .month: month
            case .day: day
            }
            var digits = Array(String(value).utf8)
            while digits.count < width { digits.insert(0x30, at: 0) }
            bytes += digits.suffix(width)
            k += width
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Values worth trying as witnesses: the first and last accepted granules and their
    /// outer neighbours (the ends of what can be written, when none is accepted).
    var hints: [String] {
        let granules = accepted.map { [$0.lowerBound, $0.upperBound, $0.lowerBound - 1, $0.upperBound + 1] }
            ?? [writable.lowerBound, writable.upperBound]
        return granules.filter { writable.contains($0) }.map(text(of:))
    }

    /// Whether the check passes `text` (the text it reads).
    func passes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { check.passesFinal($0) }
    }

    /// What tells two date checks apart: the format and the granules accepted (a two-digit
    /// year also reads today's window).
    var key: String {
        let range = accepted.map { "\($0.lowerBound)...\($0.upperBound)" } ?? "none"
        return "date \(check.format.format) \(range) \(check.format.twoDigitYear ? check.todayYear : 0)"
    }

    /// Whether this check accepts every value `other` accepts (same format, same window).
    func includes(_ other: DateLanguage) -> Bool? {
        guard check.format.format == other.check.format.format,
              !check.format.twoDigitYear || check.todayYear == other.check.todayYear else { return nil }
        guard let theirs = other.accepted else { return true }
        guard let ours = accepted else { return false }
        return ours.lowerBound <= theirs.lowerBound && theirs.upperBound <= ours.upperBound
    }
}
