import FormularyRules

/// Decides what "today" is for date checks: `--today`, else `FORMULARY_TODAY`, else the
/// local calendar date. Fixing it makes validation repeatable (tests, re-runs, audits).
package enum Today {
    /// A "today" that is not a date, with where it came from.
    package struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The text as given.
        package var text: String
        /// Where it came from: `--today` or `FORMULARY_TODAY`.
        package var origin: String
        /// What is wrong beyond the form, e.g. "there is no month 13".
        package var reason: String?
        /// What is wrong and how to write a date.
        package var description: String {
            "\(origin) '\(text)' is not a date\(reason.map { " (\($0))" } ?? ""); write it as YYYY-MM-DD, e.g. 2026-11-29"
        }
    }

    /// The date from `--today` (`option`), else `FORMULARY_TODAY` (`environment`), else the
    /// local calendar date; a given text that is not a real date throws.
    package static func resolve(option: String?, environment: String?) throws(Invalid) -> CivilDate {
        if let option {
            do {
                return try DateArgument.date(option)
            } catch {
                throw Invalid(text: option, origin: "--today", reason: error.reason)
            }
        }
        if let environment, !environment.isEmpty {
            do {
                return try DateArgument.date(environment)
            } catch {
                throw Invalid(text: environment, origin: "FORMULARY_TODAY", reason: error.reason)
            }
        }
        return localDate()
    }

    /// The local calendar date of this process's time zone.
    package static func localDate() -> CivilDate {
        CivilDate.localToday()
    }
}
