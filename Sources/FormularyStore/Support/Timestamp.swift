import Foundation
import FormularyRules

/// UTC ISO 8601 timestamps with milliseconds (`2026-11-29T15:39:27.123Z`): the one spelling of
/// times in the database, which sorts as text in time order.
package enum Timestamp {
    package static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = millis / 1000
        let fraction = Int(millis - seconds * 1000)
        var days = seconds / 86_400
        seconds -= days * 86_400
        if seconds < 0 { seconds += 86_400; days -= 1 }
        let civil = CivilDate(daysSince1970: Int(days))
        let (year, month, day) = (civil.year, civil.month, civil.day)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(seconds / 3600), 2)):"
            + "\(pad(Int(seconds / 60 % 60), 2)):\(pad(Int(seconds % 60), 2)).\(pad(fraction, 3))Z"
    }
}
