import Testing
@testable import FormularyRules

@Suite struct DateTests {
    private func dateType(_ format: String, _ range: RangeSpec<DateBound>? = nil,
                          today: CivilDate = testToday) throws -> CompiledFieldType {
        try compile(definition(checks: [check(.date(format: format, range: range))]), today: today)
    }

    private func between(_ a: DateBound?, _ b: DateBound?, upperInclusive: Bool = true) -> RangeSpec<DateBound> {
        RangeSpec(lower: a.map { .value($0) }, upper: b.map { .value($0) }, upperInclusive: upperInclusive)
    }

    @Test func realCalendarDates() throws {
        let type = try dateType("yyyy-MM-dd")
        for valid in ["2024-02-29", "2000-02-29", "0400-02-29", "1999-12-31", "0001-01-01"] {
            #expect(type.isValid(valid), "\(valid)")
        }
        for invalid in ["2023-02-29", "1900-02-29", "0100-02-29", "2024-04-31", "2024-13-01", "2024-00-10",
                        "2024-01-00", "2024-1-01", "2024/01/01", "2024-01-011", "２０２４-01-01"] {
            #expect(!type.isValid(invalid), "\(invalid)")
        }
    }

    @Test func literalsMayBeNonASCII() throws {
        let type = try dateType("dd.MM.yyyy г.")
        #expect(type.isValid("31.12.2020 г."))
        #expect(!type.isValid("31.12.2020 r."))
    }

    @Test func twoDigitYearsUseAWindowAroundToday() {
        #expect(DateFormat.windowYear(76, todayYear: 2026) == 1976)
        #expect(DateFormat.windowYear(75, todayYear: 2026) == 2075)
        #expect(DateFormat.windowYear(26, todayYear: 2026) == 2026)
        #expect(DateFormat.windowYear(0, todayYear: 2026) == 2000)
        #expect(DateFormat.windowYear(99, todayYear: 2026) == 1999)
    }

    @Test func twoDigitYearDecidesLeapDays() throws {
        let type = try dateType("dd/MM/yy")
        #expect(type.isValid("29/02/24"))    // 2024
        #expect(type.isValid("29/02/00"))    // 2000 is a leap year
        #expect(!type.isValid("29/02/23"))
        let earlier = try dateType("dd/MM/yy", today: CivilDate(year: 1960, month: 1, day: 1))
        #expect(earlier.isValid("29/02/00"))  // window 1910…2009: 00 is 2000, a leap year
        #expect(!earlier.isValid("29/02/10")) // 1910
    }

    @Test func partialFormatsDenoteWholeMonthsAndYears() throws {
        let range = between(.absolute(year: 2026, month: 3, day: 15), .absolute(year: 2027, month: 2, day: 1))
        let month = try dateType("MM/yyyy", range)
        #expect(month.isValid("03/2026"))     // March overlaps from the 15th
        #expect(!month.isValid("02/2026"))
        #expect(month.isValid("02/2027"))     // overlaps on the 1st
        #expect(!month.isValid("13/2026"))
        let year = try dateType("yyyy", range)
        #expect(year.isValid("2026"))
        #expect(year.isValid("2027"))
        #expect(!year.isValid("2025"))
    }

    @Test func relativeBoundsResolveAgainstToday() throws {
        let type = try dateType("yyyy-MM-dd", between(.today(offset: -18, unit: .years), .today(offset: 0, unit: .days)))
        #expect(type.isValid("2008-03-15"))
        #expect(!type.isValid("2008-03-14"))
        #expect(type.isValid("2026-03-15"))
        #expect(!type.isValid("2026-03-16"))
        let exclusive = try dateType("yyyy-MM-dd", between(nil, .today(offset: 6, unit: .months), upperInclusive: false))
        #expect(exclusive.isValid("2026-09-14"))
        #expect(!exclusive.isValid("2026-09-15"))
        let days = try dateType("yyyy-MM-dd", between(.today(offset: -30, unit: .days), nil))
        #expect(days.isValid("2026-02-13"))
        #expect(!days.isValid("2026-02-12"))
    }

    @Test func offsetsClampTheDay() {
        let leap = CivilDate(year: 2024, month: 2, day: 29)
        #expect(Calendar.offset(leap, by: 1, .years) == CivilDate(year: 2025, month: 2, day: 28))
        #expect(Calendar.offset(leap, by: 4, .years) == CivilDate(year: 2028, month: 2, day: 29))
        #expect(Calendar.offset(CivilDate(year: 2026, month: 1, day: 31), by: 1, .months) == CivilDate(year: 2026, month: 2, day: 28))
        #expect(Calendar.offset(CivilDate(year: 2026, month: 1, day: 31), by: -2, .months) == CivilDate(year: 2025, month: 11, day: 30))
        #expect(Calendar.offset(CivilDate(year: 2026, month: 3, day: 1), by: -1, .days) == CivilDate(year: 2026, month: 2, day: 28))
        for n in [-800_000, -1, 0, 59, 10_957, 730_000] {
            #expect(Calendar.dayNumber(Calendar.date(dayNumber: n)) == n)
        }
        #expect(Calendar.dayNumber(year: 1970, month: 1, day: 1) == 0)
        #expect(Calendar.dayNumber(year: 2000, month: 3, day: 1) == 11_017)
    }

    @Test func expiryDateWindow() throws {
        let range = between(.today(offset: -12, unit: .years), .today(offset: 12, unit: .years))
        let type = try dateType("MM/yy", range)
        #expect(type.isValid("03/14"))
        #expect(!type.isValid("02/14"))
        #expect(type.isValid("03/38"))
        #expect(!type.isValid("04/38"))
        #expect(!type.isValid("3/26"))
        #expect(type.live("0") == .incomplete)
        #expect(type.live("1") == .incomplete)
        #expect(type.live("13") == .invalid)
        #expect(type.live("00") == .invalid)
        #expect(type.live("12/") == .incomplete)
        #expect(type.live("12/5") == .invalid)   // 2050s and 1950s are out of range
        #expect(type.live("12/3") == .incomplete)
        #expect(type.live("12-") == .invalid)
        #expect(type.live("12/30") == .valid)
        #expect(type.live("12/301") == .invalid)
    }

    @Test func liveFindsLeapDaysAndRangeEdges() throws {
        let type = try dateType("dd.MM.yyyy", between(.absolute(year: 2000, month: 1, day: 1), .absolute(year: 2100, month: 12, day: 31)))
        #expect(type.live("29.02.") == .incomplete)
        #expect(type.live("29.02.21") == .invalid)      // 2100–2199 ∩ range = 2100, not leap
        #expect(type.live("29.02.20") == .incomplete)   // 2000, 2004…
        #expect(type.live("29.02.19") == .invalid)
        #expect(type.live("31.04") == .invalid)
        #expect(type.live("3") == .incomplete)
        #expect(type.live("32") == .invalid)
        #expect(type.live("31.1") == .incomplete)       // 31.10, 31.12
        #expect(type.live("30.02") == .invalid)
        let open = try dateType("yyyy-MM-dd")
        #expect(open.live("") == .valid)
        #expect(open.live("1") == .incomplete)
        #expect(open.live("1900-02-2") == .incomplete)
        #expect(open.live("1900-02-29") == .invalid)
    }

    @Test func invalidFormatsAndRangesAreLoadErrors() {
        #expect(diagnosticIDs(definition(checks: [check(.date(format: "MM/dd", range: nil))])) == ["invalid-date-format"])
        #expect(diagnosticIDs(definition(checks: [check(.date(format: "yyyy-dd", range: nil))])) == ["invalid-date-format"])
        #expect(diagnosticIDs(definition(checks: [check(.date(format: "yyyy-yy", range: nil))])) == ["invalid-date-format"])
        let empty = RangeSpec<DateBound>(lower: .value(.today(offset: 1, unit: .days)), upper: .value(.today(offset: 0, unit: .days)),
                                         upperInclusive: true)
        #expect(diagnosticIDs(definition(checks: [check(.date(format: "yyyy", range: empty))])) == ["empty-range"])
        let bad = RangeSpec<DateBound>(lower: .value(.absolute(year: 2023, month: 2, day: 29)), upper: nil, upperInclusive: false)
        #expect(diagnosticIDs(definition(checks: [check(.date(format: "yyyy", range: bad))])) == ["invalid-date"])
    }

    @Test func dateParametersTakeStrings() throws {
        let spec = RangeSpec<DateBound>(lower: .parameter("from", at(3)), upper: nil, upperInclusive: false)
        let d = definition(checks: [check(.date(format: "yyyy-MM-dd", range: spec))],
                           parameters: [Parameter(name: "from", defaultValue: .string("today-1y"), location: at(2))])
        let type = try compile(d)
        #expect(type.isValid("2025-03-15"))
        #expect(!type.isValid("2025-03-14"))
        let fixed = try compile(d, ["from": .string("2020-01-01")])
        #expect(fixed.isValid("2020-01-01"))
        #expect(diagnosticIDs(d, ["from": .string("soon")]) == ["parameter-kind"])
    }
}
