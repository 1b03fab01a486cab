import FormularyStore

/// `validate --max-failing PCT`: the share of a run's entries that may be invalid before the
/// run counts as failed (exit status 1).
///
/// The share is of the entries the run checked, carried forward ones included (a run that
/// carried most of its results forward still speaks for every entry), and counts invalid
/// entries only: warnings never fail a run. Compared exactly, in decimal: with `2.5`, 25
/// invalid entries of 1,000 pass and 26 fail.
public struct FailureThreshold: Sendable, Hashable, CustomStringConvertible {
    /// The percentage as a whole number of `10^-decimals` percent.
    let units: Int
    let decimals: Int

    /// Decimals allowed after the point.
    public static let maxDecimals = 6

    /// Why a text is not a threshold.
    public enum Refusal: Error, Sendable {
        /// Not a plain decimal number (`abc`, `-1`, `1e2`, `50%`).
        case notANumber
        /// More than 100.
        case above100
        /// More decimals than ``FailureThreshold/maxDecimals``.
        case tooManyDecimals
    }

    /// The threshold `text` spells: a decimal number from 0 to 100 (`5`, `2.5`, `0.01`).
    public init(percent text: String) throws(Refusal) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        let isDigits: (Substring) -> Bool = { $0.utf8.allSatisfy { (48...57).contains($0) } }
        guard !whole.isEmpty, isDigits(whole), parts.count == 1 || (!fraction.isEmpty && isDigits(fraction)) else {
            throw .notANumber
        }
        guard fraction.count <= Self.maxDecimals else { throw .tooManyDecimals }
        // Leading zeros are fine ("007"); anything past 3 digits is above 100 anyway.
        let trimmed = whole.drop { $0 == "0" }
        guard trimmed.count <= 3, let w = Int(trimmed.isEmpty ? "0" : trimmed), let f = Int(fraction.isEmpty ? "0" : fraction) else {
            throw .above100
        }
        var scale = 1
        for _ in 0..<fraction.count { scale *= 10 }
        let units = w * scale + f
        guard units <= 100 * scale else { throw .above100 }
        self.units = units
        self.decimals = fraction.count
    }

    /// Whether more than the threshold's share of `counts.entriesChecked` is invalid. A run
    /// that checked no entry exceeds no threshold.
    public func isExceeded(by counts: RunCounts) -> Bool {
        guard counts.entriesChecked > 0 else { return false }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        // invalid / checked > units / (100 · scale), without rounding.
        let (left, o1) = counts.entriesInvalid.multipliedReportingOverflow(by: 100 * scale)
        let (right, o2) = units.multipliedReportingOverflow(by: counts.entriesChecked)
        if o1 || o2 {
            return Double(counts.entriesInvalid) / Double(counts.entriesChecked) * 100
                > Double(units) / Double(scale)
        }
        return left > right
    }

    /// The percentage as given, without trailing zeros (`2.5`, `10`).
    public var description: String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let whole = units / scale, fraction = units % scale
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
