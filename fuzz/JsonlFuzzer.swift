// libFuzzer target for the JSON Lines reader. Built by scripts/fuzz.sh (not a SwiftPM target).
//
// The input is a JSON Lines file. It is read to the end twice: with the default buffer in one
// read, and with a one-byte buffer fed one to three bytes at a time (so that every line end,
// CRLF, BOM, escape and UTF-8 sequence gets split across reads); then once more with tiny
// limits (8-byte lines, depth 2).
//
// Traps (findings) besides crashes and sanitizer reports:
// - the reader does not terminate: more calls to `next()` than the input can justify;
// - the outcome (records with their header, lines and values, and the errors) depends on
//   how the input was split into reads;
// - `next()` returns anything but nil after an error that is not recoverable (only the
//   file as a whole can be unreadable, e.g. UTF-16; every error about a line is recoverable);
// - a record whose values do not line up with its header, or a header that shrinks or
//   reorders (names only ever append).

import FormularyKit

/// What one read of the whole input produced, in order.
private enum Event: Equatable {
    case record(line: Int, names: [String], values: [String?])
    case error(RecordReadError)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = read(bytes, options: JSONLinesReader.Options(chunkSize: max(size, 1)), maxReadSize: .max)
    let split = read(bytes, options: JSONLinesReader.Options(chunkSize: 1), maxReadSize: 1 + size % 3)
    if whole != split {
        fatalError("the outcome depends on read sizes:\n\(whole)\n---\n\(split)")
    }
    // Limits small enough for fuzzed inputs to reach them.
    _ = read(bytes, options: JSONLinesReader.Options(chunkSize: 2, maxLineBytes: 8, maxDepth: 2), maxReadSize: 3)
    return 0
}

private func read(_ bytes: [UInt8], options: JSONLinesReader.Options, maxReadSize: Int) -> [Event] {
    let reader = JSONLinesReader(source: MemoryByteSource(bytes, maxReadSize: maxReadSize), fileName: "fuzz.jsonl",
                                 options: options)
    var events: [Event] = []
    var names: [String] = []
    // Every call ends the input, yields a record or reports an error about one line; each
    // consumes at least one line end, but for the last line.
    let limit = 2 * bytes.count + 4
    for _ in 0..<limit {
        do {
            guard let record = try reader.next() else { return events }
            let header = record.header.names
            if record.values.count != header.count {
                fatalError("line \(record.line): \(record.values.count) values for \(header.count) names")
            }
            if header.count < names.count || Array(header.prefix(names.count)) != names {
                fatalError("line \(record.line): the header went from \(names) to \(header)")
            }
            names = header
            events.append(.record(line: record.line, names: header, values: record.values))
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
        }
    }
    fatalError("the reader did not terminate after \(limit) calls on \(bytes.count) bytes: \(events.suffix(4))")
}
