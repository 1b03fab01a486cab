import Testing
@testable import FormularyStore

struct EntryValuesTests {
    @Test func roundTripsPresentAbsentAndEmptyValues() throws {
        let values: [String?] = ["Ada", nil, "", "ünïcødé 👩‍👩‍👧", nil, String(repeating: "x", count: 300)]
        let encoded = EntryValues.encode(values)
        #expect(try EntryValues.decode(encoded) == values.dropLast(0))
        // A 300-byte value needs a two-byte tag: 301 = 0xAD 0x02.
        #expect(encoded.suffix(302).prefix(2) == [0xAD, 0x02])
    }

    @Test func trailingAbsentSlotsAreOmitted() throws {
        #expect(EntryValues.encode(["a", nil, nil]) == [2, UInt8(ascii: "a")])
        #expect(EntryValues.encode([nil, "a"]) == [0, 2, UInt8(ascii: "a")])
        #expect(EntryValues.encode([nil, nil]) == [])
        #expect(EntryValues.encode([""]) == [1])
        #expect(try EntryValues.decode([2, UInt8(ascii: "a")]) == ["a"])
    }

    @Test func locateFindsSpansWithoutCopying() throws {
        let encoded = EntryValues.encode(["name", nil, "", "42"])
        var spans = [EntryValueSpan](repeating: .absent, count: 6)
        try encoded.withUnsafeBytes { buffer in
            try EntryValues.locate(buffer, into: &spans)
            #expect(spans.count == 6)
            #expect(spans[0].bytes(in: buffer).map { String(decoding: $0, as: UTF8.self) } == "name")
            #expect(!spans[1].isPresent && spans[1].bytes(in: buffer) == nil)
            #expect(spans[2].isPresent && spans[2].length == 0)
            #expect(spans[3].bytes(in: buffer).map { String(decoding: $0, as: UTF8.self) } == "42")
            #expect(!spans[4].isPresent && !spans[5].isPresent) // past the end: absent
        }
    }

    @Test func refusesMalformedBytes() {
        // A length running past the end.
        #expect(throws: EntryValuesError.self) { try EntryValues.decode([5, 1, 2]) }
        // A varint that never ends.
        #expect(throws: EntryValuesError.self) { try EntryValues.decode([0x80, 0x80]) }
        #expect(throws: EntryValuesError.self) { try EntryValues.decode([UInt8](repeating: 0xFF, count: 12)) }
        // Layout names cannot be absent.
        #expect(throws: EntryValuesError.self) { try EntryValues.decodeNames([0, 2, 0x61]) }
        #expect(throws: EntryValuesError.self) {
            var spans = [EntryValueSpan](repeating: .absent, count: 2)
            try [UInt8]([9]).withUnsafeBytes { try EntryValues.locate($0, into: &spans) }
        }
    }

    /// `locate` finds what the slot reader finds, on well-formed and damaged bytes alike: the
    /// same spans, or the same error at the same offset.
    @Test func locateAgreesWithTheReaderOnAnyBytes() {
        var state: UInt64 = 27
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                // Well-formed, with short, absent, empty and long (two-byte tag) values.
                let values: [String?] = (0..<next(9)).map { _ in
                    switch next(5) {
                    case 0: nil
                    case 1: ""
                    case 2: String(repeating: "y", count: 120 + next(300))
                    default: String(repeating: "x", count: next(20))
                    }
                }
                bytes = EntryValues.encode(values)
                if round % 6 == 0, !bytes.isEmpty { bytes.removeLast(next(bytes.count) + 1) }   // cut short
            } else {
                bytes = (0..<next(16)).map { _ in next(4) == 0 ? UInt8(0x80 | next(128)) : UInt8(next(12)) }
            }
            let columns = next(12)
            bytes.withUnsafeBytes { buffer in
                var expected = [EntryValueSpan](repeating: .absent, count: columns)
                var expectedError: EntryValuesError?
                var reader = EntryValuesReader(buffer)
                do throws(EntryValuesError) {
                    for index in 0..<columns {
                        guard let slot = try reader.next() else { break }
                        if let slot {
                            expected[index] = EntryValueSpan(offset: Int32(reader.offset - slot.count), length: Int32(slot.count))
                        }
                    }
                } catch {
                    expectedError = error
                }
                var spans = [EntryValueSpan](repeating: EntryValueSpan(offset: 1, length: 1), count: columns)
                do throws(EntryValuesError) {
                    try EntryValues.locate(buffer, into: &spans)
                    #expect(expectedError == nil, "\(bytes) \(columns)")
                    if expectedError == nil { #expect(spans == expected, "\(bytes) \(columns)") }
                } catch {
                    #expect(error == expectedError, "\(bytes) \(columns)")
                }
            }
        }
    }

    @Test func readerWalksSlots() throws {
        let encoded = EntryValues.encode(["a", nil, "bc"])
        try encoded.withUnsafeBytes { buffer in
            var reader = EntryValuesReader(buffer)
            var seen: [String?] = []
            while let slot = try reader.next() { seen.append(slot.map { String(decoding: $0, as: UTF8.self) }) }
            #expect(seen == ["a", nil, "bc"])
            #expect(reader.offset == encoded.count)
        }
    }
}
