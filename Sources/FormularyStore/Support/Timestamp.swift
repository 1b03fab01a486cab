import Foundation

/// UTC ISO 8601 timestamps with milliseconds (`2026-11-29T15:39:27.123Z`): the one spelling of
/// times in the database, which sorts as text in time order.
public enum Timestamp {
    public static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = millis / 1000
        let fraction = Int(millis - seconds * 1000)
        var days = seconds / 86_400
        seconds -= days * 86_400
        if seconds < 0 { seconds += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(seconds / 3600), 2)):"
            + "\(pad(Int(seconds / 60 % 60), 2)):\(pad(Int(seconds % 60), 2)).\(pad(fraction, 3))Z"
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
