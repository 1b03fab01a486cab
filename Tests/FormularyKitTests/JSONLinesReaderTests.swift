import Testing
@testable import FormularyKit

func readJSONLines(_ text: String, maxReadSize: Int = .max, chunkSize: Int = 64 << 10,
                   maxLineBytes: Int = 16 << 20, skipBad: Bool = false) -> ReadOutcome {
    readJSONLines(bytes: Array(text.utf8), maxReadSize: maxReadSize, chunkSize: chunkSize,
                  maxLineBytes: maxLineBytes, skipBad: skipBad)
}

func readJSONLines(bytes: [UInt8], maxReadSize: Int = .max, chunkSize: Int = 64 << 10,
                   maxLineBytes: Int = 16 << 20, skipBad: Bool = false) -> ReadOutcome {
    let options = JSONLinesReader.Options(chunkSize: chunkSize, maxLineBytes: maxLineBytes)
    let reader = JSONLinesReader(source: MemoryByteSource(bytes, maxReadSize: maxReadSize), fileName: "in.jsonl",
                                 options: options)
    return readAll(reader, skipBad: skipBad)
}

@Suite struct JSONLinesReaderTests {
    @Test func valuesBecomeText() throws {
        let reader = JSONLinesReader(source: MemoryByteSource(
            #"{"name":"Ada","age":30,"ratio":1.50,"big":1e3,"ok":true,"no":false,"gone":null}"# + "\n"),
            fileName: "in.jsonl")
        let record = try #require(try reader.next())
        #expect(record.header.names == ["name", "age", "ratio", "big", "ok", "no", "gone"])
        #expect(record.values == ["Ada", "30", "1.50", "1e3", "true", "false", nil])
        #expect(record["gone"] == nil)
        #expect(record.fields.map(\.name) == ["name", "age", "ratio", "big", "ok", "no"])
        #expect(record.line == 1)
        #expect(try reader.next() == nil)
    }

    @Test func headerGrowsAndIsSharedWhileItDoesNot() throws {
        let reader = JSONLinesReader(source: MemoryByteSource(
            "{\"a\":\"1\",\"b\":\"2\"}\n{\"b\":\"3\"}\n{\"c\":\"4\",\"a\":\"5\"}\n{\"a\":\"6\"}\n"), fileName: "in.jsonl")
        let first = try #require(try reader.next())
        let second = try #require(try reader.next())
        let third = try #require(try reader.next())
        let fourth = try #require(try reader.next())
        #expect(first.header === second.header)
        #expect(second.values == [nil, "3"])
        #expect(third.header !== second.header)
        #expect(third.header.names == ["a", "b", "c"])
        #expect(third.values == ["5", nil, "4"])
        #expect(fourth.header === third.header)
        #expect(fourth.values == ["6", nil, nil])
        #expect(reader.header === third.header)
    }

    @Test func sameKeysInAnotherOrderMapToTheSameColumns() {
        let outcome = readJSONLines("{\"a\":\"1\",\"b\":\"2\"}\n{\"b\":\"3\",\"a\":\"4\"}\n{\"a\":\"5\",\"b\":\"6\"}\n")
        #expect(outcome.header == ["a", "b"])
        #expect(outcome.rows == [["1", "2"], ["4", "3"], ["5", "6"]])
    }

    @Test func blankLinesCRLFAndByteOrderMark() {
        let outcome = readJSONLines("\u{FEFF}{\"a\":\"1\"}\r\n\r\n   \n\t\r\n{\"a\":\"2\"}\n\n{\"a\":\"3\"}")
        #expect(outcome.errors.isEmpty)
        #expect(outcome.rows == [["1"], ["2"], ["3"]])
        #expect(outcome.lines == [1, 5, 7])
    }

    @Test func nestedValuesNameTheField() {
        let outcome = readJSONLines("{\"a\":\"1\"}\n{\"a\":\"2\",\"tags\":[\"x\"]}\n{\"a\":{\"b\":1}}\n{\"a\":\"4\"}\n", skipBad: true)
        #expect(outcome.errors.map(\.kind) == [.nestedValue(field: "tags"), .nestedValue(field: "a")])
        #expect(outcome.errors.map(\.line) == [2, 3])
        #expect(outcome.errors.first?.description.hasPrefix("in.jsonl:2: field 'tags' is an array or object") == true)
        #expect(outcome.rows.compactMap { $0.first ?? nil } == ["1", "4"])
    }

    @Test func invalidLinesNameLineAndColumn() {
        let text = "{\"a\":\"1\"}\n{\"a\": tru}\n[1,2]\n\"text\"\n{\"a\":\"1\",\"a\":\"2\"}\n{\"a\":\"5\"} x\n{\"a\":\"6\"}\n"
        let outcome = readJSONLines(text, skipBad: true)
        #expect(outcome.rows == [["1"], ["6"]])
        #expect(outcome.lines == [1, 7])
        #expect(outcome.errors.map(\.line) == [2, 3, 4, 5, 6])
        #expect(outcome.errors[0].column == 10)
        #expect(outcome.errors[0].description.hasPrefix("in.jsonl:2:10: invalid JSON: "))
        #expect(outcome.errors[1].kind == .notAnObject)
        #expect(outcome.errors[2].kind == .notAnObject)
        #expect(outcome.errors[3].kind == .invalidJSON("duplicate key \"a\""))
        #expect(outcome.errors[4].column == 11)
        #expect(outcome.errors.allSatisfy { $0.isRecoverable })
        // The default is to stop.
        let stopped = readJSONLines(text)
        #expect(stopped.rows == [["1"]])
        #expect(stopped.errors.count == 1)
    }

    @Test func invalidUTF8() {
        var bytes = Array("{\"a\":\"1\"}\n{\"a\":\"é".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"}\n{\"a\":\"3\"}\n".utf8)
        let outcome = readJSONLines(bytes: bytes, skipBad: true)
        #expect(outcome.rows == [["1"], ["3"]])
        #expect(outcome.errors.map(\.line) == [2])
        #expect(outcome.errors.first?.column == 8)
        #expect(outcome.errors.first?.kind == .invalidJSON("invalid UTF-8"))
    }

    @Test func overlongLinesAreSkippedWhole() {
        let long = "{\"a\":\"" + String(repeating: "x", count: 5000) + "\"}"
        let text = "{\"a\":\"1\"}\n\(long)\n{\"a\":\"3\"}\n\(long)"
        let outcome = readJSONLines(text, chunkSize: 256, maxLineBytes: 1000, skipBad: true)
        #expect(outcome.rows == [["1"], ["3"]])
        #expect(outcome.lines == [1, 3])
        #expect(outcome.errors.map(\.kind) == [.recordTooLarge(limit: 1000), .recordTooLarge(limit: 1000)])
        #expect(outcome.errors.map(\.line) == [2, 4])
        // A line over the limit that fits in one read is refused too.
        let inBuffer = readJSONLines("\(long)\n{\"a\":\"2\"}\n", maxLineBytes: 1000, skipBad: true)
        #expect(inBuffer.rows == [["2"]])
        #expect(inBuffer.errors.map(\.line) == [1])
    }

    @Test(arguments: [1, 2, 3, 7])
    func chunkBoundariesDoNotMatter(maxReadSize: Int) {
        let text = "\u{FEFF}{\"name\":\"Zoë 日本 😀\",\"n\":-1.5e3}\r\n\n{\"name\":\"\\u00e9\\ud83d\\ude00\",\"ok\":true}\n{\"x\":[1]}\n{\"n\":0}"
        let whole = readJSONLines(text, skipBad: true)
        #expect(whole.rows == [["Zoë 日本 😀", "-1.5e3"], ["é😀", nil, "true"], [nil, "0", nil]])
        #expect(whole.errors.map(\.line) == [4])
        // A refused line adds nothing to the header.
        #expect(whole.header == ["name", "n", "ok"])
        for chunkSize in [1, 2, 5] {
            let split = readJSONLines(text, maxReadSize: maxReadSize, chunkSize: chunkSize, skipBad: true)
            #expect(split.rows == whole.rows)
            #expect(split.lines == whole.lines)
            #expect(split.errors == whole.errors)
        }
    }

    @Test func emptyInputHasNoRecords() {
        #expect(readJSONLines("").rows.isEmpty)
        #expect(readJSONLines("").errors.isEmpty)
        #expect(readJSONLines("\n\n").rows.isEmpty)
    }

    @Test func factoryPicksTheReader() throws {
        let reader = RecordFormat.jsonLines.makeReader(source: MemoryByteSource("{\"a\":1}\n"), fileName: "x")
        #expect(reader is JSONLinesReader)
        #expect(try reader.next()?.values == ["1"])
        #expect(RecordFormat.csv.makeReader(source: MemoryByteSource(""), fileName: "x") is CSVReader)
    }
}
