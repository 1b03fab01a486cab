import Foundation
import Testing
@testable import FormularyKit

/// What a reader produced: the records' values and lines, and the errors it reported.
struct ReadOutcome {
    var rows: [[String?]] = []
    var lines: [Int] = []
    var errors: [RecordReadError] = []
    var header: [String] = []
}

/// Reads everything, skipping bad records when `skipBad`, else stopping at the first error.
func readAll(_ reader: any RecordReader, skipBad: Bool = false) -> ReadOutcome {
    var outcome = ReadOutcome()
    while true {
        do {
            guard let record = try reader.next() else { break }
            outcome.rows.append(record.values)
            outcome.lines.append(record.line)
            outcome.header = record.header.names
        } catch {
            outcome.errors.append(error)
            if !skipBad { break }
        }
    }
    return outcome
}

func readCSV(_ text: String, maxReadSize: Int = .max, chunkSize: Int = 64 << 10,
             maxFieldBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20, skipBad: Bool = false) -> ReadOutcome {
    readCSV(bytes: Array(text.utf8), maxReadSize: maxReadSize, chunkSize: chunkSize,
            maxFieldBytes: maxFieldBytes, maxRecordBytes: maxRecordBytes, skipBad: skipBad)
}

func readCSV(bytes: [UInt8], maxReadSize: Int = .max, chunkSize: Int = 64 << 10,
             maxFieldBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20, skipBad: Bool = false) -> ReadOutcome {
    let options = CSVReader.Options(chunkSize: chunkSize, maxFieldBytes: maxFieldBytes, maxRecordBytes: maxRecordBytes)
    let reader = CSVReader(source: MemoryByteSource(bytes, maxReadSize: maxReadSize), fileName: "in.csv", options: options)
    return readAll(reader, skipBad: skipBad)
}

@Suite struct CSVReaderTests {
    @Test func readsHeaderAndRecords() throws {
        let reader = CSVReader(source: MemoryByteSource("name,email,age\nAda,ada@example.com,36\nBob,,7\n"), fileName: "in.csv")
        #expect(try reader.readHeader().names == ["name", "email", "age"])
        let first = try #require(try reader.next())
        #expect(first.values == ["Ada", "ada@example.com", "36"])
        #expect(first.line == 2)
        #expect(first["email"] == "ada@example.com")
        #expect(first["missing"] == nil)
        #expect(first.fields.map(\.name) == ["name", "email", "age"])
        let second = try #require(try reader.next())
        #expect(second.values == ["Bob", "", "7"])
        #expect(second.line == 3)
        #expect(second.header === first.header)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func quotedFields() {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n\"\",\"\"\"\",plain\n\"crlf\r\ninside\",\"\",\"end\"\nlast,1,2\n"
        let outcome = readCSV(text)
        #expect(outcome.errors.isEmpty)
        #expect(outcome.rows == [["x, y", "say \"hi\"", "two\nlines"], ["", "\"", "plain"],
                                 ["crlf\r\ninside", "", "end"], ["last", "1", "2"]])
        #expect(outcome.lines == [2, 4, 5, 7])
    }

    @Test func lineEndings() {
        let crlf = readCSV("a,b\r\n1,2\r\n3,4\r\n")
        #expect(crlf.rows == [["1", "2"], ["3", "4"]])
        #expect(crlf.lines == [2, 3])
        let cr = readCSV("a,b\r1,2\r3,4")
        #expect(cr.rows == [["1", "2"], ["3", "4"]])
        #expect(cr.lines == [2, 3])
        let noFinalNewline = readCSV("a,b\n1,2\n3,\"4\"")
        #expect(noFinalNewline.rows == [["1", "2"], ["3", "4"]])
        let trailingComma = readCSV("a,b\n1,\n3,")
        #expect(trailingComma.rows == [["1", ""], ["3", ""]])
    }

    @Test func byteOrderMarkAndBlankLines() {
        let outcome = readCSV("\u{FEFF}name,age\n\nAda,36\r\n\r\n\nBob,7\n\n")
        #expect(outcome.errors.isEmpty)
        #expect(outcome.header == ["name", "age"])
        #expect(outcome.rows == [["Ada", "36"], ["Bob", "7"]])
        #expect(outcome.lines == [3, 6])
        // Not at the start, U+FEFF is data.
        #expect(readCSV("a\n\u{FEFF}x\n").rows == [["\u{FEFF}x"]])
    }

    @Test func headerOnlyAndEmptyInput() throws {
        let headerOnly = CSVReader(source: MemoryByteSource("a,b\n"), fileName: "h.csv")
        #expect(try headerOnly.readHeader().names == ["a", "b"])
        #expect(try headerOnly.next() == nil)
        for text in ["", "\u{FEFF}", "\n\n"] {
            let outcome = readCSV(text)
            #expect(outcome.errors.map(\.kind) == [.missingHeader])
            #expect(outcome.errors.first?.isRecoverable == false)
        }
    }

    @Test func headerErrorsAreFatal() {
        let empty = readCSV("a,,c\n1,2,3\n", skipBad: true)
        #expect(empty.errors.map(\.kind) == [.emptyHeaderName(position: 2)])
        #expect(empty.errors.first?.description == "in.csv:1:3: header field 2 is empty")
        #expect(empty.rows.isEmpty)
        let duplicate = readCSV("a,b,a\n1,2,3\n", skipBad: true)
        #expect(duplicate.errors.map(\.kind) == [.duplicateHeaderName("a")])
        #expect(duplicate.errors.first?.column == 5)
        #expect(duplicate.errors.first?.isRecoverable == false)
        #expect(duplicate.rows.isEmpty)
    }

    @Test func wrongFieldCount() {
        let outcome = readCSV("a,b\n1,2\n1,2,3\n4\n5,6\n", skipBad: true)
        #expect(outcome.rows == [["1", "2"], ["5", "6"]])
        #expect(outcome.errors.map(\.kind) == [.wrongFieldCount(expected: 2, found: 3), .wrongFieldCount(expected: 2, found: 1)])
        #expect(outcome.errors.map(\.line) == [3, 4])
        #expect(outcome.errors.first?.description == "in.csv:3: record has 3 fields, the header has 2")
        #expect(outcome.errors.allSatisfy { $0.isRecoverable })
        // Stopping is the caller's default: nothing after the first error is read.
        let stopped = readCSV("a,b\n1,2\n1,2,3\n5,6\n")
        #expect(stopped.rows == [["1", "2"]])
        #expect(stopped.errors.count == 1)
    }

    @Test func quoteInUnquotedFieldNamesLineAndColumn() {
        let outcome = readCSV("a,b\n1,2\né,x\"y\n3,4\n", skipBad: true)
        #expect(outcome.errors.map(\.kind) == [.quoteInUnquotedField])
        #expect(outcome.errors.first?.line == 3)
        #expect(outcome.errors.first?.column == 4)
        #expect(outcome.rows == [["1", "2"], ["3", "4"]])
        #expect(outcome.lines == [2, 4])
    }

    @Test func characterAfterClosingQuote() {
        let outcome = readCSV("a,b\n\"ok\"x,2\n3,4\n", skipBad: true)
        #expect(outcome.errors.map(\.kind) == [.characterAfterClosingQuote])
        #expect(outcome.errors.first?.line == 2)
        #expect(outcome.errors.first?.column == 5)
        #expect(outcome.rows == [["3", "4"]])
    }

    @Test func resynchronizesAcrossMultiLineRecords() {
        // The bad record's second field is quoted and spans two lines: skipping must not
        // take "line\"" for the start of a new record.
        let text = "a,b\nx\"y,\"multi\nline\"\n\"q\nq\",ok\n"
        let outcome = readCSV(text, skipBad: true)
        #expect(outcome.errors.map(\.line) == [2])
        #expect(outcome.rows == [["q\nq", "ok"]])
        #expect(outcome.lines == [4])
    }

    @Test func unbalancedQuoteIsFatalAndNamesTheOpeningQuote() {
        let outcome = readCSV("a,b\n1,2\n3,\"never\nclosed\n5,6\n", skipBad: true)
        #expect(outcome.rows == [["1", "2"]])
        #expect(outcome.errors.map(\.kind) == [.unbalancedQuote])
        #expect(outcome.errors.first?.line == 3)
        #expect(outcome.errors.first?.column == 3)
        #expect(outcome.errors.first?.isRecoverable == false)
    }

    @Test func invalidUTF8NamesLineAndColumn() {
        var bytes = Array("a,b\n1,2\nok,\"x\n".utf8)
        bytes += [0x79, 0xFF, 0x22, 0x0A]  // y, an invalid byte, the closing quote
        bytes += Array("3,4\n".utf8)
        let outcome = readCSV(bytes: bytes, skipBad: true)
        #expect(outcome.errors.map(\.kind) == [.invalidUTF8])
        #expect(outcome.errors.first?.line == 4)
        #expect(outcome.errors.first?.column == 2)
        #expect(outcome.rows == [["1", "2"], ["3", "4"]])
        // In the header, fatal.
        let header = readCSV(bytes: [0x61, 0xC3, 0x28, 0x0A, 0x31, 0x0A], skipBad: true)
        #expect(header.errors.map(\.kind) == [.invalidUTF8])
        #expect(header.errors.first?.isRecoverable == false)
    }

    @Test func largeFieldsWithinAndBeyondTheLimit() {
        let big = String(repeating: "x", count: 10 << 20)
        let text = "a,b\n1,\(big)\n2,\"\(big)\"\n3,small\n"
        let ok = readCSV(text)
        #expect(ok.errors.isEmpty)
        #expect(ok.rows.count == 3)
        #expect(ok.rows[0][1]?.utf8.count == 10 << 20)
        #expect(ok.rows[1][1]?.utf8.count == 10 << 20)
        let limited = readCSV(text, maxFieldBytes: 1 << 20, skipBad: true)
        #expect(limited.errors.map(\.kind) == [.fieldTooLarge(limit: 1 << 20), .fieldTooLarge(limit: 1 << 20)])
        #expect(limited.errors.map(\.line) == [2, 3])
        #expect(limited.errors.first?.description == "in.csv:2:3: field is larger than 1 MiB")
        #expect(limited.rows == [["3", "small"]])
        #expect(limited.lines == [4])
        // The limit also holds for a field that ends inside the buffer.
        let small = readCSV("a\n12345\n123\n", maxFieldBytes: 4, skipBad: true)
        #expect(small.errors.map(\.kind) == [.fieldTooLarge(limit: 4)])
        #expect(small.rows == [["123"]])
    }

    @Test func anOpenQuoteCannotEatAllMemory() {
        // Many short lines after an open quote: the record limit stops it.
        let text = "a,b\n1,\"open\n" + String(repeating: "x,y\n", count: 10_000)
        let outcome = readCSV(text, chunkSize: 1024, maxRecordBytes: 8 << 10, skipBad: true)
        #expect(outcome.errors.map(\.kind) == [.recordTooLarge(limit: 8 << 10)])
        #expect(outcome.errors.first?.line == 2)
        #expect(outcome.rows.isEmpty)
    }

    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func chunkBoundariesDoNotMatter(maxReadSize: Int) {
        let text = "\u{FEFF}name,note\r\nZoë,\"日本, \"\"quoted\"\"\r\nand 😀\"\r\n\r\n\"👨‍👩‍👧\",\r\nlast,\"\"\r\nx,y"
        let whole = readCSV(text)
        #expect(whole.errors.isEmpty)
        #expect(whole.rows == [["Zoë", "日本, \"quoted\"\r\nand 😀"], ["👨‍👩‍👧", ""], ["last", ""], ["x", "y"]])
        #expect(whole.lines == [2, 5, 6, 7])
        for chunkSize in [1, 2, 3, 16] {
            let split = readCSV(text, maxReadSize: maxReadSize, chunkSize: chunkSize)
            #expect(split.errors.isEmpty)
            #expect(split.header == ["name", "note"])
            #expect(split.rows == whole.rows)
            #expect(split.lines == whole.lines)
        }
        // Errors and their places do not depend on the reads either.
        let bad = "a,b\n1,2\n3,x\"y\n\"q\nq\",ok\n4\n"
        let expected = readCSV(bad, skipBad: true)
        let split = readCSV(bad, maxReadSize: maxReadSize, chunkSize: 1, skipBad: true)
        #expect(split.rows == expected.rows)
        #expect(split.errors == expected.errors)
        #expect(expected.errors.map(\.line) == [3, 6])
    }

    @Test func generatedRoundTrip() {
        var generator = SplitMix64(seed: 7)
        let pieces = ["a", "Z", "0", " ", ",", "\"", "\"\"", "\n", "\r\n", "\r", "é", "日本", "😀", "\t", "x,y"]
        for round in 0..<40 {
            let columns = Int.random(in: 1...6, using: &generator)
            let header = (0..<columns).map { "c\($0)" }
            var rows: [[String]] = []
            for _ in 0..<Int.random(in: 0...30, using: &generator) {
                rows.append((0..<columns).map { _ in
                    (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
                })
            }
            // A single empty column would be a blank line, which the reader skips.
            if columns == 1 { rows = rows.map { $0[0].isEmpty ? ["a"] : $0 } }
            let newline = round % 2 == 0 ? "\n" : "\r\n"
            let text = ([header] + rows).map { $0.map(csvQuoted).joined(separator: ",") }.joined(separator: newline)
                + (round % 3 == 0 ? "" : newline)
            let outcome = readCSV(text, maxReadSize: Int.random(in: 1...40, using: &generator),
                                  chunkSize: Int.random(in: 1...32, using: &generator))
            #expect(outcome.errors.isEmpty, "\(outcome.errors)")
            #expect(outcome.rows == rows.map { $0.map { Optional($0) } }, "round \(round)")
        }
    }

    @Test func readsFilesAndReportsOpenFailures() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csvreader-\(UUID().uuidString).csv").path
        try "a,b\n1,2\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = CSVReader(source: try FileByteSource(path: path), fileName: path)
        #expect(readAll(reader).rows == [["1", "2"]])
        #expect(throws: ByteSourceError.self) { try FileByteSource(path: path + ".missing") }
    }

    @Test func readFailuresAreFatal() {
        struct Broken: ByteSource {
            var calls = 0
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                calls += 1
                if calls > 1 { throw ByteSourceError(path: "in.csv", message: "Input/output error") }
                let bytes = Array("a,b\n1,2\n3,".utf8)
                buffer.copyBytes(from: bytes)
                return bytes.count
            }
        }
        let reader = CSVReader(source: Broken(), fileName: "in.csv", options: .init(chunkSize: 64))
        let outcome = readAll(reader, skipBad: true)
        #expect(outcome.rows == [["1", "2"]])
        #expect(outcome.errors.count == 1)
        #expect(outcome.errors.first?.isRecoverable == false)
        #expect(outcome.errors.first?.description == "in.csv:3: read failed: in.csv: Input/output error")
    }

    @Test func forEachRecordStopsOrSkips() throws {
        let text = "a\n1\n\"x\"y\n2\n"
        var seen: [String?] = []
        #expect(throws: RecordReadError.self) {
            try CSVReader(source: MemoryByteSource(text), fileName: "f").forEachRecord { seen.append($0["a"]) }
        }
        #expect(seen == ["1"])
        seen = []
        var skipped: [Int] = []
        try CSVReader(source: MemoryByteSource(text), fileName: "f")
            .forEachRecord(onBadRecord: { skipped.append($0.line) }) { seen.append($0["a"]) }
        #expect(seen == ["1", "2"])
        #expect(skipped == [3])
    }

    @Test func formatFromFileName() {
        #expect(RecordFormat(fileName: "people.csv") == .csv)
        #expect(RecordFormat(fileName: "dir.v2/people.CSV") == .csv)
        #expect(RecordFormat(fileName: "people.jsonl") == .jsonLines)
        #expect(RecordFormat(fileName: "people.ndjson") == .jsonLines)
        #expect(RecordFormat(fileName: "people.txt") == nil)
        #expect(RecordFormat(fileName: "dir.csv/people") == nil)
        #expect(RecordFormat(fileName: "-") == nil)
    }
}

func csvQuoted(_ field: String) -> String {
    let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A small deterministic generator, so that a failing case can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct RecordReadErrorTests {
    @Test func messagesAndPlaces() {
        let withColumn = RecordReadError(kind: .invalidUTF8, file: "a.csv", line: 3, column: 7, isRecoverable: true)
        #expect(withColumn.description == "a.csv:3:7: invalid UTF-8")
        let key = RecordReadError(kind: .emptyKey(field: "email"), file: "-", line: 12, isRecoverable: true)
        #expect(key.description == "-:12: the key field 'email' is empty; every record needs a key with --key")
        #expect(RecordReadError(kind: .recordTooLarge(limit: 1500), file: "f", line: 1, isRecoverable: true).message
                == "record is larger than 1500 bytes")
        #expect(RecordReadError(kind: .fieldTooLarge(limit: 16 << 20), file: "f", line: 1, isRecoverable: true).message
                == "field is larger than 16 MiB")
        #expect(RecordReadError(kind: .wrongFieldCount(expected: 2, found: 1), file: "f", line: 1, isRecoverable: true)
                .message == "record has 1 field, the header has 2")
    }
}
