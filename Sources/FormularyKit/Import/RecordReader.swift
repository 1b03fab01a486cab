#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the records of an import file one at a time, in constant memory.
///
/// Errors are ``RecordReadError``s. When an error ``RecordReadError/isRecoverable`` (a
/// malformed record: wrong number of fields, invalid UTF-8, a stray quote, bad JSON…),
/// the caller chooses: stop, by letting the error propagate (what `import` does by
/// default), or skip the record, by calling ``next()`` again, which resumes at the
/// record after the bad one (what `import --skip-bad` does). After an error that is not
/// recoverable (a bad header, an unbalanced quote at the end of the input, a failed
/// read), ``next()`` returns `nil`.
package protocol RecordReader: AnyObject {
    /// The name used in error messages (`file:line:`); `-` for standard input.
    var fileName: String { get }

    /// The next record, or `nil` at the end of the input.
    func next() throws(RecordReadError) -> Record?
}

extension RecordReader {
    /// Calls `body` with every record. A bad record stops the reading with its error,
    /// unless `onBadRecord` is given: then recoverable errors are passed to it and the
    /// reading goes on (errors that are not recoverable are still thrown).
    package func forEachRecord(onBadRecord: ((RecordReadError) throws -> Void)? = nil,
                              _ body: (Record) throws -> Void) throws {
        while true {
            let record: Record?
            do {
                record = try next()
            } catch {
                guard error.isRecoverable, let onBadRecord else { throw error }
                try onBadRecord(error)
                continue
            }
            guard let record else { return }
            try body(record)
        }
    }
}

/// The column names of a file, shared by all the records read with them.
///
/// Map a form's fields to column indices once per header, not once per record: a
/// ``CSVReader`` has one header for the whole file; a ``JSONLinesReader`` starts a new,
/// longer header object when a line brings a key it has not seen, and the names of an
/// earlier header are always a prefix of a later one's. Compare headers with `===`.
package final class RecordHeader: Sendable {
    package let names: [String]
    private let indexByName: [String: Int]

    /// A header with unique `names` (for a repeated name, ``index(of:)`` finds the first).
    package init(names: [String]) {
        self.names = names
        var indexByName: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexByName[name] == nil {
            indexByName[name] = index
        }
        self.indexByName = indexByName
    }

    package var count: Int { names.count }

    package func index(of name: String) -> Int? { indexByName[name] }
}

/// One record of an import file: its values in header order.
package struct Record: Sendable {
    package let header: RecordHeader
    /// One value per header name, in header order; `nil` where the record does not
    /// have the field (JSON Lines: a missing key or `null`; never for CSV).
    package var values: [String?]
    /// The 1-based physical line on which the record starts.
    package let line: Int

    package init(header: RecordHeader, values: [String?], line: Int) {
        precondition(values.count == header.count, "one value per header name")
        self.header = header
        self.values = values
        self.line = line
    }

    /// The value of the column `name`, or `nil` when absent.
    package subscript(name: String) -> String? {
        guard let index = header.index(of: name) else { return nil }
        return values[index]
    }

    /// The fields the record has, in header order.
    package var fields: [(name: String, value: String)] {
        zip(header.names, values).compactMap { name, value in value.map { (name, $0) } }
    }
}

/// A malformed import file or record, with its place: `file:line:column: message`.
public struct RecordReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the file or record.
    public enum Kind: Sendable, Hashable {
        /// The input ends inside a quoted CSV field.
        case unbalancedQuote
        /// A `"` inside a CSV field that does not start with one.
        case quoteInUnquotedField
        /// Something other than `,` or a line end right after a closing quote.
        case characterAfterClosingQuote
        case wrongFieldCount(expected: Int, found: Int)
        case invalidUTF8
        case fieldTooLarge(limit: Int)
        /// A CSV record or a JSON line larger than the reader's limit.
        case recordTooLarge(limit: Int)
        /// The input is empty: a CSV file needs a header row.
        case missingHeader
        /// 1-based position of the header field that is empty.
        case emptyHeaderName(position: Int)
        case duplicateHeaderName(String)
        /// The JSON parser's message.
        case invalidJSON(String)
        case notAnObject
        /// A JSON Lines field whose value is an array or an object.
        case nestedValue(field: String)
        case readFailed(String)
        /// `import --key FIELD`: the record has no value in the key column.
        case emptyKey(field: String)
        /// The input starts with the byte-order mark of another encoding (`UTF-16LE`…).
        case notUTF8(encoding: String)
    }

    /// What is wrong.
    public var kind: Kind
    /// The file as the user named it (`-` for standard input).
    public var file: String
    /// The 1-based physical line of the problem (for record-level problems, where the record starts).
    public var line: Int
    /// The 1-based column in characters, where it helps.
    public var column: Int?
    /// Whether the reader can go on with the next record (see ``RecordReader``).
    public var isRecoverable: Bool

    /// Makes an error.
    public init(kind: Kind, file: String, line: Int, column: Int? = nil, isRecoverable: Bool) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.isRecoverable = isRecoverable
    }

    /// What is wrong, in words, without the place.
    public var message: String {
        switch kind {
        case .unbalancedQuote: "quoted field is never closed (unbalanced quote)"
        case .quoteInUnquotedField: "quote in the middle of a field that is not quoted (quote the whole field and double the quote)"
        case .characterAfterClosingQuote: "unexpected character after a closing quote (expected ',' or the end of the line)"
        case .wrongFieldCount(let expected, let found):
            "record has \(found) field\(found == 1 ? "" : "s"), the header has \(expected)"
        case .invalidUTF8: "invalid UTF-8"
        case .fieldTooLarge(let limit): "field is larger than \(describeBytes(limit))"
        case .recordTooLarge(let limit): "record is larger than \(describeBytes(limit))"
        case .missingHeader: "the input is empty; a CSV file starts with a header row"
        case .emptyHeaderName(let position): "header field \(position) is empty"
        case .duplicateHeaderName(let name): "header names '\(name)' more than once"
        case .invalidJSON(let message): "invalid JSON: \(message)"
        case .notAnObject: "a JSON Lines record must be an object"
        case .nestedValue(let field): "field '\(field)' is an array or object; only strings, numbers, booleans and null can be imported"
        case .readFailed(let message): "read failed: \(message)"
        case .emptyKey(let field): "the key field '\(field)' is empty; every record needs a key with --key"
        case .notUTF8(let encoding):
            "the file is \(encoding) (it starts with a \(encoding) byte-order mark), not UTF-8; convert it first, e.g. with iconv -f \(encoding) -t UTF-8"
        }
    }

    /// `file:line:column: message` (without the column when there is none).
    public var description: String {
        let place = column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)"
        return "\(place): \(message)"
    }
}

/// The encoding that a byte-order mark at the start of the input announces, when it is
/// not UTF-8's: imports read UTF-8 only, and a UTF-16 file would otherwise be reported as
/// "invalid UTF-8" at 1:1, which does not say what is wrong.
func foreignByteOrderMark(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> String? {
    guard end - i >= 2 else { return nil }
    switch (base[i], base[i + 1]) {
    case (0xFF, 0xFE): return "UTF-16LE"
    case (0xFE, 0xFF): return "UTF-16BE"
    default: return nil
    }
}

private func describeBytes(_ count: Int) -> String {
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
}

/// The formats `import` reads.
public enum RecordFormat: String, Sendable, Hashable, CaseIterable {
    case csv
    case jsonLines = "jsonl"

    /// The format a file name's extension implies (`.csv`; `.jsonl`, `.ndjson`), or `nil`.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "csv": self = .csv
        case "jsonl", "ndjson": self = .jsonLines
        default: return nil
        }
    }

    /// A reader of this format over `source`, with default options.
    package func makeReader(source: any ByteSource, fileName: String) -> any RecordReader {
        switch self {
        case .csv: CSVReader(source: source, fileName: fileName)
        case .jsonLines: JSONLinesReader(source: source, fileName: fileName)
        }
    }
}

// MARK: - Byte sources

/// Where a reader gets its bytes.
package protocol ByteSource {
    /// Reads at most `buffer.count` bytes into `buffer`; returns how many, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A file that cannot be opened or read.
package struct ByteSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    package var message: String
    package var description: String { "\(path): \(message)" }
}

/// Reads a file descriptor with `read(2)`.
package final class FileByteSource: ByteSource {
    package let fileDescriptor: Int32
    private let closesOnDeinit: Bool
    private let path: String
    /// How many bytes were read so far, for progress displays.
    package private(set) var bytesRead: Int64 = 0

    /// How many bytes there are to read when the descriptor is a regular file (from its
    /// current offset to its end, as it was when asked); nil for a pipe, a terminal, a
    /// socket — anything whose length is not known in advance.
    package var regularFileSize: Int64? {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(fileDescriptor, 0, SEEK_CUR)
        return max(0, Int64(info.st_size) - Int64(max(0, offset)) + bytesRead)
    }

    /// Opens `path` for reading.
    package init(path: String) throws(ByteSourceError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ByteSourceError(path: path, message: String(cString: strerror(errno)))
        }
        self.fileDescriptor = fd
        self.closesOnDeinit = true
        self.path = path
    }

    /// Reads an open descriptor; it is closed on deinit only when `closesOnDeinit`.
    package init(fileDescriptor: Int32, closesOnDeinit: Bool = false, path: String = "-") {
        self.fileDescriptor = fileDescriptor
        self.closesOnDeinit = closesOnDeinit
        self.path = path
    }

    deinit {
        if closesOnDeinit { close(fileDescriptor) }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(fileDescriptor, base, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(fileDescriptor, base, buffer.count)
            #else
            let count = Glibc.read(fileDescriptor, base, buffer.count)
            #endif
            if count >= 0 {
                bytesRead += Int64(count)
                return count
            }
            if errno == EINTR { continue }
            throw ByteSourceError(path: path, message: String(cString: strerror(errno)))
        }
    }
}

/// Bytes in memory, handed out at most `maxReadSize` at a time (tests use small sizes
/// to split fields and characters across reads).
package struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private let maxReadSize: Int
    private var offset = 0

    package init(_ bytes: [UInt8], maxReadSize: Int = .max) {
        precondition(maxReadSize > 0)
        self.bytes = bytes
        self.maxReadSize = maxReadSize
    }

    package init(_ text: String, maxReadSize: Int = .max) {
        self.init(Array(text.utf8), maxReadSize: maxReadSize)
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, maxReadSize, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
        }
        offset += count
        return count
    }
}

// MARK: - The readers' buffer

/// A growable window over the input: the readers keep the bytes of the record they are
/// reading and let go of the rest, so memory depends on the largest record, not the file.
final class InputBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// One past the last valid byte.
    private(set) var end = 0
    /// The source has no more bytes.
    private(set) var isAtEnd = false
    private var source: any ByteSource

    init(source: any ByteSource, chunkSize: Int) {
        self.source = source
        self.capacity = max(1, chunkSize)
        self.base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Drops the bytes before `keep`, moving the others to the front, and reads more
    /// (growing the buffer when the kept bytes fill it). Returns how far the data moved
    /// left: callers subtract it from their indices.
    func refill(keepingFrom keep: Int) throws -> Int {
        precondition(keep >= 0 && keep <= end)
        if keep > 0 {
            memmove(base, base + keep, end - keep)
            end -= keep
        }
        if end == capacity {
            // Doubling keeps the total work linear when one record spans many reads.
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            larger.update(from: base, count: end)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: capacity - end))
        if count == 0 { isAtEnd = true }
        end += count
        return keep
    }

    /// ``refill(keepingFrom:)``, with a failed read reported as the fatal error it is for a
    /// reader of `file` (at `line`).
    func refill(keepingFrom keep: Int, file: String, line: Int) throws(RecordReadError) -> Int {
        do {
            return try refill(keepingFrom: keep)
        } catch {
            throw RecordReadError(kind: .readFailed(String(describing: error)), file: file, line: line,
                                  isRecoverable: false)
        }
    }

    /// Reads the start of a file (nothing of it consumed yet) and returns the length of a
    /// UTF-8 byte-order mark there: 3, or 0 without one. A UTF-16 mark is a fatal `notUTF8`
    /// error: such a file must be converted first.
    func leadingByteOrderMark(file: String) throws(RecordReadError) -> Int {
        while end < 3 && !isAtEnd { _ = try refill(keepingFrom: 0, file: file, line: 1) }
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { return 3 }
        if let encoding = foreignByteOrderMark(base, at: 0, end: end) {
            throw RecordReadError(kind: .notUTF8(encoding: encoding), file: file, line: 1, column: 1,
                                  isRecoverable: false)
        }
        return 0
    }
}

/// The 1-based line and character column of `position`, for a record starting at
/// `recordStart` on `recordLine` (lines inside a record end at `\n`).
func locate(_ position: Int, recordStart: Int, recordLine: Int, in base: UnsafePointer<UInt8>) -> (line: Int, column: Int) {
    var line = recordLine
    var lineStart = recordStart
    var index = recordStart
    while index < position {
        if base[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }
    let prefix = UnsafeBufferPointer(start: base + lineStart, count: max(0, position - lineStart))
    return (line, String(decoding: prefix, as: UTF8.self).count + 1)
}
