import FormularyKit
import FormularyRules

// The kinds of values formulary's commands take, each with the words of its refusal.

/// Text as typed: every option and positional that is not read as anything else.
extension String: ExpressibleByArgument {
    init?(argument: String) { self = argument }
    static var noun: String { "a text" }
    static var expectation: String { "write any text" }
}

extension OutputFormat: ExpressibleByArgument {
    static var noun: String { "a format" }
}

extension ReportGrouping: ExpressibleByArgument {
    static var noun: String { "a grouping" }
}

extension RecordFormat: ExpressibleByArgument {
    static var noun: String { "a format" }
}

/// The shells `formulary completions` writes a script for.
enum Shell: String, CaseIterable, ExpressibleByArgument {
    case bash, zsh, fish
    static var noun: String { "a shell formulary completes for" }
}

/// How many of something: a whole number from 0 (`entries list --limit`).
struct Count: ExpressibleByArgument, Equatable {
    var value: Int
    init?(argument: String) {
        guard let n = Int(argument: argument), n >= 0 else { return nil }
        value = n
    }
    static var noun: String { "a count" }
    static var expectation: String { "use a whole number, 0 or more" }
}

/// The id of a stored row as typed: a whole number from 1. The refusal says which of the
/// two it is not (`0` is a whole number, but no id), and where ids are found.
protocol StoredID: ExpressibleByArgument {
    /// "entry", "run".
    static var kind: String { get }
    /// Where to find an id, in parentheses after every refusal.
    static var hint: String { get }
    init(value: Int64)
}

extension StoredID {
    static var noun: String { "\(kind.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(kind) id" }
    static var expectation: String { "ids are whole numbers, 1 or more (\(hint))" }

    init?(argument: String) {
        guard let id = try? Self.converting(argument) else { return nil }
        self = id
    }

    static func converting(_ argument: String) throws(ArgumentValueError) -> Self {
        let unsigned = argument.first == "-" || argument.first == "+" ? argument.dropFirst() : Substring(argument)
        guard !unsigned.isEmpty, unsigned.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw ArgumentValueError(reason: nil)
        }
        guard let id = Int64(argument: argument), id > 0 else {
            let why = argument.hasPrefix("-") || unsigned.allSatisfy({ $0 == "0" })
                ? "\(kind) ids start at 1" : "that is larger than any \(kind) id"
            throw ArgumentValueError(reason: nil, message: "there is no \(kind) \(argument): \(why) (\(hint))")
        }
        return Self(value: id)
    }
}

/// An entry id (`entries show ID`, `history ENTRY`).
struct EntryID: StoredID {
    var value: Int64
    static var kind: String { "entry" }
    static var hint: String { "see 'formulary entries list'" }
}

/// A validation run's id (`report --run ID`).
struct RunID: StoredID {
    var value: Int64
    static var kind: String { "run" }
    static var hint: String { "use the number 'validate' printed, or leave --run out for the newest run" }
}

/// A date `YYYY-MM-DD` or a UTC time `YYYY-MM-DDTHH:MM[:SS[.mmm]][Z]` (`audit --since`),
/// kept in the audit log's spelling of times so that comparing the text compares the times.
struct UTCTime: ExpressibleByArgument {
    var text: String
    init?(argument: String) {
        guard let time = try? Self.converting(argument) else { return nil }
        self = time
    }
    init(normalized: String) { text = normalized }

    static var noun: String { "a date or time" }
    static var expectation: String {
        "write a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MM[:SS[.mmm]][Z], e.g. 2026-11-29 or 2026-11-29T14:30Z"
    }

    static func converting(_ argument: String) throws(ArgumentValueError) -> UTCTime {
        do {
            return UTCTime(normalized: try DateArgument.utcTime(argument))
        } catch {
            throw ArgumentValueError(reason: error.reason)
        }
    }
}

/// An audit record's hash: 64 hexadecimal digits, or the whole `SEQ HASH` line that
/// `audit head` prints (its last word is taken).
struct RecordHash: ExpressibleByArgument {
    var hex: String
    init?(argument: String) {
        let word = String(argument.split(separator: " ").last ?? "").lowercased()
        guard word.utf8.count == 64, word.allSatisfy(\.isHexDigit) else { return nil }
        hex = word
    }
    static var noun: String { "a record hash" }
    static var expectation: String { "give the 64 hexadecimal digits 'formulary audit head' prints" }
}

/// A file to write (`report --output`): any non-empty path; whether it can be written is
/// found out when writing.
struct OutputPath: ExpressibleByArgument {
    var path: String
    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        path = argument
    }
    static var noun: String { "a file path" }
    static var expectation: String { "name the file to write, e.g. report.html" }
}

/// `validate --max-failing PCT`: a percentage from 0 to 100, decimals allowed.
extension FailureThreshold: ExpressibleByArgument {
    init?(argument: String) {
        guard let threshold = try? FailureThreshold(percent: argument) else { return nil }
        self = threshold
    }

    static var noun: String { "a percentage" }
    static var expectation: String { "use a number from 0 to 100, decimals allowed (e.g. 2.5), without '%'" }

    static func converting(_ argument: String) throws(ArgumentValueError) -> FailureThreshold {
        do {
            return try FailureThreshold(percent: argument)
        } catch {
            switch error {
            case .notANumber: throw ArgumentValueError(reason: nil)
            case .above100: throw ArgumentValueError(reason: "it is more than 100")
            case .tooManyDecimals: throw ArgumentValueError(reason: "more than \(FailureThreshold.maxDecimals) decimals")
            }
        }
    }
}
