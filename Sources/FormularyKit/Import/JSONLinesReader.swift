#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyJSON

/// Reads JSON Lines: one flat JSON object per line, streaming, in constant memory.
///
/// Each value becomes text: a string as is, a number as written (`30`, `1.50`, `1e3`),
/// a boolean as `true` or `false`; `null` means the field is absent. An array or object
/// value is an error naming the field. Blank lines (only spaces, tabs or a `\r`) are
/// skipped; a line may end with `\n` or `\r\n`; a UTF-8 byte-order mark at the start
/// is skipped. Every line is parsed strictly (see `JSONParser`: duplicate keys and
/// invalid UTF-8 are errors).
///
/// The header grows as new keys appear (see ``RecordHeader``). Every error about a line
/// is recoverable: the reader goes on with the next line.
package final class JSONLinesReader: RecordReader {
    package struct Options: Sendable {
        /// Bytes asked of the source at a time (and the buffer's initial size).
        package var chunkSize: Int
        /// The longest line, in bytes.
        package var maxLineBytes: Int
        /// The deepest nesting the parser accepts before calling a line hostile.
        package var maxDepth: Int

        package init(chunkSize: Int = 64 << 10, maxLineBytes: Int = 16 << 20, maxDepth: Int = 64) {
            self.chunkSize = chunkSize
            self.maxLineBytes = maxLineBytes
            self.maxDepth = maxDepth
        }
    }

    package let fileName: String
    package let options: Options

    /// The names seen so far, in order of first appearance.
    package private(set) var header = RecordHeader(names: [])

    private let input: InputBuffer
    private let parser: JSONParser
    /// Start of the current line in `input`.
    private var lineStart = 0
    /// Where the search for the line's end goes on.
    private var searchFrom = 0
    private var line = 1
    /// Skipping the rest of an over-long line.
    private var discarding = false
    private var hasCheckedByteOrderMark = false
    private var isFinished = false
    /// The keys of the last line and the header column of each.
    private var lastKeys: [String] = []
    private var lastColumns: [Int] = []

    package init(source: any ByteSource, fileName: String, options: Options = Options()) {
        self.fileName = fileName
        self.options = options
        self.input = InputBuffer(source: source, chunkSize: options.chunkSize)
        self.parser = JSONParser(maxDepth: options.maxDepth)
    }

    package func next() throws(RecordReadError) -> Record? {
        guard !isFinished else { return nil }
        try skipByteOrderMark()
        while true {
            guard let lineEnd = try nextLineEnd() else {
                isFinished = true
                return nil
            }
            let start = lineStart
            let number = line
            lineStart = min(lineEnd + 1, input.end)
            searchFrom = lineStart
            line += 1
            if discarding {
                discarding = false
                continue
            }
            var end = lineEnd
            if end > start && input.base[end - 1] == 0x0D { end -= 1 }
            let bytes = UnsafeBufferPointer(start: input.base + start, count: end - start)
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            if bytes.count > options.maxLineBytes {
                throw RecordReadError(kind: .recordTooLarge(limit: options.maxLineBytes), file: fileName,
                                      line: number, isRecoverable: true)
            }
            return try record(from: bytes, line: number)
        }
    }

    /// The index of the `\n` ending the current line (or of the input's end when the
    /// last line has none); `nil` when no line is left.
    private func nextLineEnd() throws(RecordReadError) -> Int? {
        while true {
            let available = input.end - searchFrom
            if available > 0, let found = memchr(input.base + searchFrom, 0x0A, available) {
                return input.base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            searchFrom = input.end
            if input.isAtEnd {
                return lineStart < input.end ? input.end : nil
            }
            if !discarding && input.end - lineStart > options.maxLineBytes {
                discarding = true
                throw RecordReadError(kind: .recordTooLarge(limit: options.maxLineBytes), file: fileName,
                                      line: line, isRecoverable: true)
            }
            try refill(keepingFrom: discarding ? input.end : lineStart)
        }
    }

    private func record(from bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(RecordReadError) -> Record {
        let value: JSONValue
        do {
            value = try parser.parse(bytes)
        } catch {
            throw RecordReadError(kind: .invalidJSON(error.message), file: fileName, line: line,
                                  column: error.column, isRecoverable: true)
        }
        guard case .object(let object) = value else {
            throw RecordReadError(kind: .notAnObject, file: fileName, line: line, column: 1, isRecoverable: true)
        }
        // Refuse the line before its keys can join the header.
        for (key, member) in object {
            switch member {
            case .array, .object:
                throw RecordReadError(kind: .nestedValue(field: key), file: fileName, line: line, isRecoverable: true)
            case .null, .bool, .number, .string:
                continue
            }
        }
        // Lines of one file nearly always have the same keys in the same order: reuse
        // the previous line's key-to-column mapping instead of hashing every key.
        if object.keys != lastKeys {
            let newNames = object.keys.filter { header.index(of: $0) == nil }
            if !newNames.isEmpty {
                // New keys start a longer header; known ones keep the mapping callers made.
                header = RecordHeader(names: header.names + newNames)
            }
            // Safe: every key is in the header now.
            lastColumns = object.keys.map { header.index(of: $0)! }
            lastKeys = object.keys
        }
        var values = [String?](repeating: nil, count: header.count)
        for (position, member) in object.values.enumerated() {
            let text: String?
            switch member {
            case .null: text = nil
            case .bool(let flag): text = flag ? "true" : "false"
            case .number(let number): text = number
            case .string(let string): text = string
            case .array, .object: text = nil  // refused above
            }
            values[lastColumns[position]] = text
        }
        return Record(header: header, values: values, line: line)
    }

    private func skipByteOrderMark() throws(RecordReadError) {
        guard !hasCheckedByteOrderMark else { return }
        hasCheckedByteOrderMark = true
        do {
            lineStart = try input.leadingByteOrderMark(file: fileName)
            searchFrom = lineStart
        } catch {
            isFinished = true
            throw error
        }
    }

    private func refill(keepingFrom keep: Int) throws(RecordReadError) {
        let shift: Int
        do {
            shift = try input.refill(keepingFrom: keep, file: fileName, line: line)
        } catch {
            isFinished = true
            throw error
        }
        lineStart -= shift
        searchFrom -= shift
    }
}
