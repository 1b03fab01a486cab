import FormularyKit
import Foundation
import FormularyRules

extension HTTPServer {
    /// One request as the access log says it: never a body, never a query, never a value.
    ///
    /// The method, path and token name come from the client (the path decoded, so `%1b`
    /// is an escape character and `%0a` a new line): ``text`` writes them percent-encoded,
    /// so that no byte of theirs can move the operator's terminal or start a line of its own.
    package struct AccessLogLine: Sendable {
        /// When the request ended.
        package var at: Date
        /// The method and path (without the query).
        package var method: String, path: String
        /// The status answered.
        package var status: Int
        /// How long it took, in milliseconds.
        package var milliseconds: Double
        /// The accepted token's name, or nil.
        package var tokenName: String?

        /// `2026-12-02T01:02:03.456Z POST /v1/check 200 0.41 ms token-name` (`-` without a token).
        ///
        /// In the method, path and token name, every byte but the letters, digits and
        /// `-._~!$&'()*+,;=:@/` is written `%XX` (upper-case hex): controls, space, `%`
        /// itself and each byte of a non-ASCII character (a path that was not UTF-8 reads
        /// as the router saw it, U+FFFD: `%EF%BF%BD`). The usual line needs no escape.
        package var text: String {
            var line: [UInt8] = []
            line.reserveCapacity(64 + method.utf8.count + path.utf8.count + (tokenName?.utf8.count ?? 1))
            Self.appendUTC(at, to: &line)
            line.append(0x20)
            Self.appendEscaped(method, to: &line)
            line.append(0x20)
            Self.appendEscaped(path, to: &line)
            line.append(0x20)
            Self.appendDigits(status, width: 1, to: &line)
            line.append(0x20)
            Self.appendTwoPlaces(milliseconds, to: &line)
            line.append(contentsOf: " ms ".utf8)
            if let tokenName { Self.appendEscaped(tokenName, to: &line) } else { line.append(UInt8(ascii: "-")) }
            return String(decoding: line, as: UTF8.self)
        }

        /// `text` as the access log writes a client's bytes (see ``text``).
        static func escaped(_ text: String) -> String {
            var bytes: [UInt8] = []
            appendEscaped(text, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        static func appendEscaped(_ text: String, to line: inout [UInt8]) {
            for byte in text.utf8 {
                if isLoggedAsIs(byte) {
                    line.append(byte)
                } else {
                    line.append(UInt8(ascii: "%"))
                    line.append(hexDigit(byte >> 4))
                    line.append(hexDigit(byte & 0x0F))
                }
            }
        }

        private static func hexDigit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
        }

        /// RFC 3986's unreserved and sub-delimiter characters, `:`, `@` and `/`: what a
        /// path holds unencoded, none of them special to a terminal or to a reader of the log.
        /// A bit per ASCII byte (two words), so that the test is a shift on every byte.
        @inline(__always)
        private static func isLoggedAsIs(_ byte: UInt8) -> Bool {
            let low: UInt64 = 0x2FFFFFD200000000, high: UInt64 = 0x47FFFFFE87FFFFFF
            return byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 && (high >> UInt64(byte - 64)) & 1 == 1
        }

        /// `2026-12-02T01:02:03.456Z`.
        static func utc(_ date: Date) -> String {
            var bytes: [UInt8] = []
            appendUTC(date, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// `2026-12-02T01:02:03.456Z`, by hand and as bytes: the line is written on every
        /// request, and a Foundation date formatter, then strings padded piece by piece,
        /// were a large part of what a request cost the server. The calendar date comes from
        /// the day number by arithmetic (the proleptic Gregorian calendar, as `gmtime`'s),
        /// so no libc lock is taken either.
        static func appendUTC(_ date: Date, to line: inout [UInt8]) {
            let since1970 = date.timeIntervalSince1970
            let whole = since1970.rounded(.down)
            let seconds = Int(whole)
            let millis = min(999, Int(((since1970 - whole) * 1000).rounded()))
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let secondOfDay = seconds - days * 86_400
            let civil = CivilDate(daysSince1970: days)
            let (year, month, day) = (civil.year, civil.month, civil.day)
            appendDigits(year, width: 4, to: &line)
            line.append(UInt8(ascii: "-"))
            appendDigits(month, width: 2, to: &line)
            line.append(UInt8(ascii: "-"))
            appendDigits(day, width: 2, to: &line)
            line.append(UInt8(ascii: "T"))
            appendDigits(secondOfDay / 3_600, width: 2, to: &line)
            line.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay / 60 % 60, width: 2, to: &line)
            line.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay % 60, width: 2, to: &line)
            line.append(UInt8(ascii: "."))
            appendDigits(millis, width: 3, to: &line)
            line.append(UInt8(ascii: "Z"))
        }

        /// `value` in decimal, zero-padded to `width` digits (a minus sign before them);
        /// written in place, without a string or array per number.
        static func appendDigits(_ value: Int, width: Int, to line: inout [UInt8]) {
            if value < 0 { line.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var count = 1
            var rest = magnitude / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            let total = max(count, width)
            line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: total))
            var index = line.count - 1
            repeat {
                line[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                index -= 1
            } while magnitude > 0
        }

        /// `0.41`: two decimals, rounded.
        static func twoPlaces(_ value: Double) -> String {
            var bytes: [UInt8] = []
            appendTwoPlaces(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        static func appendTwoPlaces(_ value: Double, to line: inout [UInt8]) {
            let hundredths = Int((value * 100).rounded())
            appendDigits(hundredths / 100, width: 1, to: &line)
            line.append(UInt8(ascii: "."))
            appendDigits(hundredths % 100, width: 2, to: &line)
        }
    }
}
