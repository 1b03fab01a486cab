// libFuzzer target for the CSV reader. Built by scripts/fuzz.sh (not a SwiftPM target).
//
// The input is a CSV file. It is read to the end four times: stopping at the first bad
// record and skipping bad records, each with the default buffer and with a tiny one fed a
// byte or two at a time (so that every field, quote, CRLF, BOM and UTF-8 sequence gets
// split across reads), and once more with small size limits.
//
// Traps (findings) besides crashes and sanitizer reports:
// - the reader does not terminate: more calls to `next()` than the input can justify;
// - the outcome (records, their lines and values, and the errors) depends on how the
//   input was split into reads;
// - `next()` returns anything but nil after an error that is not recoverable.

import FormularyKit

/// What one read of the whole input produced, in order.
private enum Event: Equatable {
    case record(line: Int, values: [String?])
    case error(RecordReadError)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let small = CSVReader.Options(chunkSize: 1, maxFieldBytes: 1 << 20, maxRecordBytes: 4 << 20)
    for skipping in [false, true] {
        // The whole input in one read (fuzzed inputs are at most FUZZ_MAX_LEN bytes).
        let whole = read(bytes, options: CSVReader.Options(chunkSize: max(size, 1)), maxReadSize: .max,
                         skipping: skipping)
        let split = read(bytes, options: small, maxReadSize: 1 + size % 3, skipping: skipping)
        if whole != split {
            fatalError("the outcome depends on read sizes (skipping: \(skipping)):\n\(whole)\n---\n\(split)")
        }
    }
    // Limits small enough for fuzzed inputs to reach them.
    let tight = CSVReader.Options(chunkSize: 2, maxFieldBytes: 8, maxRecordBytes: 32)
    _ = read(bytes, options: tight, maxReadSize: 3, skipping: true)
    return 0
}

private func read(_ bytes: [UInt8], options: CSVReader.Options, maxReadSize: Int, skipping: Bool) -> [Event] {
    let reader = CSVReader(source: MemoryByteSource(bytes, maxReadSize: maxReadSize), fileName: "fuzz.csv",
                           options: options)
    var events: [Event] = []
    // Every call either ends the input, yields a record (one line end at least, but for
    // the last) or reports an error, after which the reader moves past the bad record.
    let limit = 2 * bytes.count + 4
    for _ in 0..<limit {
        do {
            guard let record = try reader.next() else { return events }
            events.append(.record(line: record.line, values: record.values))
        } catch {
            events.append(.error(error))
            if !error.isRecoverable {
                // The reader must keep saying the input is over.
                do {
                    if try reader.next() != nil { fatalError("a record after a fatal error: \(events)") }
                } catch {
                    fatalError("another error after a fatal error: \(error) after \(events)")
                }
                return events
            }
            if !skipping { return events }
        }
    }
    fatalError("the reader did not terminate after \(limit) calls on \(bytes.count) bytes: \(events.suffix(4))")
}
