import FormularyJSON
import FormularyKit

/// Measures the import readers on a generated 7-field sign-up file (~90 bytes a line):
/// CSV and JSON Lines, read from memory so that the figure is the parser's, not the disk's.
func runReaderBench(records: Int = 1_000_000) {
    var csv: [UInt8] = Array("name,email,phone,age,card,expiry,cvv\n".utf8)
    var jsonLines: [UInt8] = []
    csv.reserveCapacity(records * 96)
    var writer = JSONWriter(reservingCapacity: 256)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func random(_ bound: UInt64) -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state % bound
    }
    for index in 0..<records {
        let name = index % 10 == 0 ? "\"Smith, Jo \(index)\"" : "Jo Smith \(index)"
        let fields = [
            "jo.smith\(index)@example.com",
            "555-\(100 + random(900))-\(1000 + random(9000))",
            "\(18 + random(80))",
            "4111 1111 1111 \(1000 + random(9000))",
            "\(1 + random(12))/\(26 + random(5))",
            "\(100 + random(900))",
        ]
        csv.append(contentsOf: name.utf8)
        for field in fields {
            csv.append(UInt8(ascii: ","))
            csv.append(contentsOf: field.utf8)
        }
        csv.append(0x0A)
        writer.removeAll()
        writer.object { o in
            o.field("name", "Jo Smith \(index)")
            for (key, field) in zip(["email", "phone", "age", "card", "expiry", "cvv"], fields) {
                o.field(key, field)
            }
        }
        writer.newline()
        jsonLines.append(contentsOf: writer.bytes)
    }

    func measure(_ label: String, bytes: [UInt8], _ makeReader: (MemoryByteSource) -> any RecordReader) {
        var best = Duration.seconds(1_000)
        var count = 0
        for _ in 0..<3 {
            let reader = makeReader(MemoryByteSource(bytes))
            let clock = ContinuousClock()
            var checksum = 0
            count = 0
            let elapsed = clock.measure {
                do {
                    while let record = try reader.next() {
                        count += 1
                        checksum &+= record.values.count
                    }
                } catch {
                    print("\(label): \(error)")
                }
            }
            precondition(checksum == count * 7)
            best = min(best, elapsed)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        let perSecond = Int(Double(count) / seconds)
        let megabytes = Double(bytes.count) / 1_048_576 / seconds
        print("\(label): \(count) records, \(bytes.count / max(count, 1)) bytes each: "
              + "\(perSecond) records/s, \(Int(megabytes)) MiB/s (best of 3)")
    }

    measure("CSV reader", bytes: csv) { CSVReader(source: $0, fileName: "bench.csv") }
    measureWriter(count: records)
    measure("JSON Lines reader", bytes: jsonLines) { JSONLinesReader(source: $0, fileName: "bench.jsonl") }
}

/// Writes `check`-shaped result objects (one JSON line each) into a reused buffer.
private func measureWriter(count: Int) {
    var writer = JSONWriter(reservingCapacity: 1 << 20)
    var written = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for index in 0..<count {
            writer.object { o in
                o.field("type", "credit-card")
                o.field("value", "4111 1111 1111 1112")
                o.field("formatted", "4111 1111 1111 1112")
                o.field("stage", "final")
                o.field("verdict", index % 2 == 0 ? "invalid" : "valid")
                o.field("valid", index % 2 != 0)
                o.array("violations") { a in
                    if index % 2 == 0 {
                        a.object { v in
                            v.field("rule", "luhn")
                            v.field("severity", "error")
                            v.field("message", "Card number is not valid")
                        }
                    }
                }
            }
            writer.newline()
            if writer.bytes.count > 1 << 20 {
                written += writer.bytes.count
                writer.removeAll()
            }
        }
    }
    written += writer.bytes.count
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("JSONWriter: \(count) check results, \(written / max(count, 1)) bytes each: "
          + "\(Int(Double(count) / seconds)) objects/s, \(Int(Double(written) / 1_048_576 / seconds)) MiB/s")
}
