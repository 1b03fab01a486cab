import FormularyJSON

/// Reads RFC 4180 CSV with a header row, streaming, in constant memory.
///
/// Accepted: quoted fields with embedded commas, doubled quotes (`""`) and line breaks;
/// CRLF, LF or lone CR line ends; a UTF-8 byte-order mark at the start; a last line
/// without a line end. Lines that are completely empty are skipped (a record with a
/// single empty field cannot be told from one, so single-column files cannot hold
/// empty values). Inside quotes every byte is data: a CRLF stays a CRLF.
///
/// Refused, with `file:line:column`: a header with an empty or repeated name; a quote
/// in the middle of an unquoted field; anything but `,` or a line end after a closing
/// quote; a record whose number of fields differs from the header's; invalid UTF-8; a
/// field or record over the size limits; a quoted field still open at the end of the
/// input. All but the last and the header errors are recoverable (see ``RecordReader``):
/// the reader then skips to the end of the bad record. A quoted field that never closes
/// takes the rest of the input with it, as in every CSV reader, since quoted fields may
/// legitimately span lines.
///
/// Line numbers count `\n` (and record-ending lone `\r`); a record's line is the one on
/// which it starts.
package final class CSVReader: RecordReader {
    package struct Options: Sendable {
        /// Bytes asked of the source at a time (and the buffer's initial size).
        package var chunkSize: Int
        /// The largest field, in bytes.
        package var maxFieldBytes: Int
        /// The largest record, in bytes: bounds memory when a quote is left open.
        package var maxRecordBytes: Int

        package init(chunkSize: Int = 64 << 10, maxFieldBytes: Int = 16 << 20, maxRecordBytes: Int = 64 << 20) {
            self.chunkSize = chunkSize
            self.maxFieldBytes = maxFieldBytes
            self.maxRecordBytes = maxRecordBytes
        }
    }

    package let fileName: String
    package let options: Options

    /// The header, once read (by ``readHeader()`` or the first ``next()``).
    package private(set) var header: RecordHeader?

    private let input: InputBuffer

    private enum State: UInt8 { case fieldStart, unquoted, quoted, quoteInQuoted }
    private enum StepResult { case complete, needMore }

    /// A field of the record being read, as offsets from the record's start.
    private struct FieldSpan {
        var start: Int
        var end: Int
        /// Quoted, with doubled quotes to undo.
        var escaped: Bool
    }

    // Scanning state. Positions are indices into `input`.
    private var position = 0
    private var recordStart = 0
    private var fieldStart = 0
    private var openingQuote = 0
    private var state = State.fieldStart
    private var fieldHasEscapes = false
    private var spans: [FieldSpan] = []
    /// The physical line at `position`.
    private var line = 1
    private var recordLine = 1
    /// The last record ended with `\r`: a `\n` right after it belongs to that line end.
    private var pendingLineFeed = false
    /// Skipping the rest of a bad record.
    private var discarding = false
    private var hasCheckedByteOrderMark = false
    private var isFinished = false
    private var scratch: [UInt8] = []

    package init(source: any ByteSource, fileName: String, options: Options = Options()) {
        self.fileName = fileName
        self.options = options
        self.input = InputBuffer(source: source, chunkSize: options.chunkSize)
    }

    /// Reads the header row if it has not been read yet, and returns it. Errors here are
    /// never recoverable.
    package func readHeader() throws(RecordReadError) -> RecordHeader {
        if let header { return header }
        do throws(RecordReadError) {
            try skipByteOrderMark()
            guard try scanRecord() else {
                throw RecordReadError(kind: .missingHeader, file: fileName, line: 1, isRecoverable: false)
            }
            var names: [String] = []
            var seen: Set<String> = []
            for (index, span) in spans.enumerated() {
                let name = try string(for: span)
                if name.isEmpty {
                    throw error(.emptyHeaderName(position: index + 1), at: recordStart + span.start)
                }
                if !seen.insert(name).inserted {
                    throw error(.duplicateHeaderName(name), at: recordStart + span.start)
                }
                names.append(name)
            }
            finishRecord()
            let header = RecordHeader(names: names)
            self.header = header
            return header
        } catch {
            isFinished = true
            var fatal = error
            fatal.isRecoverable = false
            throw fatal
        }
    }

    package func next() throws(RecordReadError) -> Record? {
        guard !isFinished else { return nil }
        let header = try readHeader()
        do {
            guard try scanRecord() else {
                isFinished = true
                return nil
            }
        } catch {
            if !error.isRecoverable { isFinished = true }
            throw error
        }
        defer { finishRecord() }
        guard spans.count == header.count else {
            throw RecordReadError(kind: .wrongFieldCount(expected: header.count, found: spans.count),
                                  file: fileName, line: recordLine, isRecoverable: true)
        }
        var values: [String?] = []
        values.reserveCapacity(spans.count)
        for span in spans {
            values.append(try string(for: span))
        }
        return Record(header: header, values: values, line: recordLine)
    }

    // MARK: - Records

    /// Scans the next record into `spans`; `false` at the end of the input.
    private func scanRecord() throws(RecordReadError) -> Bool {
        if discarding {
            _ = try scan()
            finishRecord()
            discarding = false
        }
        return try scan()
    }

    private func finishRecord() {
        spans.removeAll(keepingCapacity: true)
        recordStart = position
        recordLine = line
        state = .fieldStart
    }

    private func scan() throws(RecordReadError) -> Bool {
        while true {
            do {
                if try step() == .complete { return true }
            } catch {
                discarding = true
                throw error
            }
            if input.isAtEnd { return try endOfInput() }
            if !discarding {
                if state != .fieldStart && position - fieldStart > options.maxFieldBytes {
                    let start = state == .unquoted ? fieldStart : openingQuote
                    let tooLarge = error(.fieldTooLarge(limit: options.maxFieldBytes), at: start)
                    discarding = true
                    throw tooLarge
                }
                if position - recordStart > options.maxRecordBytes {
                    discarding = true
                    throw RecordReadError(kind: .recordTooLarge(limit: options.maxRecordBytes), file: fileName,
                                          line: recordLine, isRecoverable: true)
                }
            }
            try refill(keepingFrom: discarding ? position : recordStart)
        }
    }

    /// Ends the record in progress when the input ends; `false` when there was none.
    private func endOfInput() throws(RecordReadError) -> Bool {
        if discarding { return true }
        switch state {
        case .fieldStart:
            // After a comma, the record ends with an empty field.
            if spans.isEmpty { return false }
            pushField(start: position, end: position, escaped: false)
        case .unquoted:
            pushField(start: fieldStart, end: position, escaped: false)
        case .quoteInQuoted:
            pushField(start: fieldStart, end: position - 1, escaped: fieldHasEscapes)
        case .quoted:
            isFinished = true
            var unbalanced = error(.unbalancedQuote, at: openingQuote)
            unbalanced.isRecoverable = false
            throw unbalanced
        }
        state = .fieldStart
        return true
    }

    @inline(__always)
    private func pushField(start: Int, end: Int, escaped: Bool) {
        if !discarding {
            spans.append(FieldSpan(start: start - recordStart, end: end - recordStart, escaped: escaped))
        }
    }

    /// Runs the state machine over the bytes in the buffer.
    private func step() throws(RecordReadError) -> StepResult {
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        let base = input.base
        let end = input.end
        var p = position
        defer { position = p }
        scanning: while p < end {
            switch state {
            case .fieldStart:
                let byte = base[p]
                if pendingLineFeed {
                    pendingLineFeed = false
                    if byte == lf {
                        p += 1
                        recordStart = p
                        continue scanning
                    }
                }
                if byte == quote {
                    openingQuote = p
                    p += 1
                    fieldStart = p
                    fieldHasEscapes = false
                    state = .quoted
                } else if (byte == lf || byte == cr) && spans.isEmpty && p == recordStart && !discarding {
                    // A blank line.
                    p += 1
                    line += 1
                    recordStart = p
                    recordLine = line
                    pendingLineFeed = byte == cr
                } else {
                    fieldStart = p
                    state = .unquoted
                }
            case .unquoted:
                while p < end {
                    let byte = base[p]
                    if byte == comma {
                        pushField(start: fieldStart, end: p, escaped: false)
                        p += 1
                        state = .fieldStart
                        continue scanning
                    }
                    if byte == lf || byte == cr {
                        pushField(start: fieldStart, end: p, escaped: false)
                        p += 1
                        line += 1
                        pendingLineFeed = byte == cr
                        state = .fieldStart
                        return .complete
                    }
                    if byte == quote && !discarding {
                        throw error(.quoteInUnquotedField, at: p)
                    }
                    p += 1
                }
            case .quoted:
                while p < end {
                    let byte = base[p]
                    p += 1
                    if byte == quote {
                        state = .quoteInQuoted
                        continue scanning
                    }
                    if byte == lf { line += 1 }
                }
            case .quoteInQuoted:
                let byte = base[p]
                if byte == quote {
                    fieldHasEscapes = true
                    state = .quoted
                    p += 1
                } else if byte == comma {
                    pushField(start: fieldStart, end: p - 1, escaped: fieldHasEscapes)
                    p += 1
                    state = .fieldStart
                } else if byte == lf || byte == cr {
                    pushField(start: fieldStart, end: p - 1, escaped: fieldHasEscapes)
                    p += 1
                    line += 1
                    pendingLineFeed = byte == cr
                    state = .fieldStart
                    return .complete
                } else if discarding {
                    state = .unquoted
                } else {
                    throw error(.characterAfterClosingQuote, at: p)
                }
            }
        }
        return .needMore
    }

    // MARK: - Values

    /// The field's text: exactly one `String` per field, validated as UTF-8 once.
    private func string(for span: FieldSpan) throws(RecordReadError) -> String {
        let count = span.end - span.start
        if count == 0 { return "" }
        if count > options.maxFieldBytes {
            throw error(.fieldTooLarge(limit: options.maxFieldBytes), at: recordStart + span.start)
        }
        let start = input.base + recordStart + span.start
        let raw = UnsafeBufferPointer(start: start, count: count)
        if span.escaped {
            scratch.removeAll(keepingCapacity: true)
            var index = 0
            while index < count {
                scratch.append(start[index])
                // Inside a quoted field every quote is doubled.
                index += start[index] == UInt8(ascii: "\"") ? 2 : 1
            }
            let text: String? = scratch.withUnsafeBufferPointer { unescaped in
                firstInvalidUTF8Offset(in: unescaped) == nil ? String(decoding: unescaped, as: UTF8.self) : nil
            }
            if let text { return text }
        } else if firstInvalidUTF8Offset(in: raw) == nil {
            return String(decoding: raw, as: UTF8.self)
        }
        let offset = firstInvalidUTF8Offset(in: raw) ?? 0
        throw error(.invalidUTF8, at: recordStart + span.start + offset)
    }

    // MARK: - Input

    private func skipByteOrderMark() throws(RecordReadError) {
        guard !hasCheckedByteOrderMark else { return }
        hasCheckedByteOrderMark = true
        do {
            position = try input.leadingByteOrderMark(file: fileName)
            recordStart = position
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
        position -= shift
        recordStart -= shift
        fieldStart -= shift
        openingQuote -= shift
    }

    /// An error at buffer index `position` of the current record.
    private func error(_ kind: RecordReadError.Kind, at position: Int) -> RecordReadError {
        let place = locate(position, recordStart: recordStart, recordLine: recordLine, in: input.base)
        return RecordReadError(kind: kind, file: fileName, line: place.line, column: place.column, isRecoverable: true)
    }
}
