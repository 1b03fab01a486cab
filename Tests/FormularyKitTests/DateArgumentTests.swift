import FormularyKit
import FormularyRules
import Testing

/// Dates and times from the command line: the calendar's months and days (leap years by
/// the Gregorian rule), the clock's hours, minutes and seconds, and the stored spelling.
struct DateArgumentTests {
    @Test func datesFollowTheCalendar() throws {
        #expect(try DateArgument.date("2024-02-29") == CivilDate(year: 2024, month: 2, day: 29))
        #expect(try DateArgument.date("2000-02-29") == CivilDate(year: 2000, month: 2, day: 29))
        #expect(throws: DateArgument.Invalid(reason: "February 1900 has 28 days")) { try DateArgument.date("1900-02-29") }
        #expect(throws: DateArgument.Invalid(reason: "June 2026 has 30 days")) { try DateArgument.date("2026-06-31") }
        #expect(throws: DateArgument.Invalid(reason: "December 2026 has 31 days")) { try DateArgument.date("2026-12-32") }
        #expect(throws: DateArgument.Invalid(reason: "there is no month 13")) { try DateArgument.date("2026-13-01") }
        #expect(throws: DateArgument.Invalid(reason: "there is no day 0")) { try DateArgument.date("2026-01-00") }
        for shape in ["2026-1-01", "26-01-01", "2026/01/01", "２０２６-01-01", "2026-01-01 ", " 2026-01-01", ""] {
            #expect(throws: DateArgument.Invalid(reason: nil), "\(shape)") { try DateArgument.date(shape) }
        }
    }

    @Test func timesAreUTCInTheStoredSpelling() throws {
        #expect(try DateArgument.utcTime("2026-11-29") == "2026-11-29")
        #expect(try DateArgument.utcTime("2026-11-29T14:30") == "2026-11-29T14:30:00.000Z")
        #expect(try DateArgument.utcTime("2026-11-29T14:30:05Z") == "2026-11-29T14:30:05.000Z")
        #expect(try DateArgument.utcTime("2026-11-29T14:30:05.7") == "2026-11-29T14:30:05.700Z")
        #expect(try DateArgument.utcTime("2026-11-29T14:30:05.07Z") == "2026-11-29T14:30:05.070Z")
        #expect(try DateArgument.utcTime("2026-11-29t23:59:59.999z") == "2026-11-29T23:59:59.999Z")
        #expect(throws: DateArgument.Invalid(reason: "February 2026 has 28 days")) { try DateArgument.utcTime("2026-02-29T00:00") }
        #expect(throws: DateArgument.Invalid(reason: "there is no hour 24")) { try DateArgument.utcTime("2026-11-29T24:00") }
        #expect(throws: DateArgument.Invalid(reason: "there is no minute 60")) { try DateArgument.utcTime("2026-11-29T10:60") }
        #expect(throws: DateArgument.Invalid(reason: "there is no second 60")) { try DateArgument.utcTime("2026-11-29T10:00:60Z") }
        #expect(throws: DateArgument.Invalid(reason: "times are UTC: end it with Z or nothing, not an offset")) {
            try DateArgument.utcTime("2026-11-29T10:00-05:00")
        }
        for shape in ["2026-11-29T", "2026-11-29T1", "2026-11-29T10", "2026-11-29T10:0", "2026-11-29 10:00",
                      "2026-11-29T10:00:0", "2026-11-29T10:00:00.", "2026-11-29T10:00:00.1234", "2026-11-29T10:00:00,5"] {
            #expect(throws: DateArgument.Invalid(reason: nil), "\(shape)") { try DateArgument.utcTime(shape) }
        }
    }
}
