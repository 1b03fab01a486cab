/// Where a rendered report goes, a chunk at a time: renderers write into it as rows arrive,
/// and it hands full chunks on (to standard output, a file), so that no report is ever
/// whole in memory.
public final class ReportSink {
    private var buffer: [UInt8] = []
    private let chunk: Int
    private let deliver: ([UInt8]) throws -> Void

    /// A sink that hands on chunks of about `chunk` bytes to `deliver`.
    public init(chunk: Int = 1 << 16, deliver: @escaping ([UInt8]) throws -> Void) {
        self.chunk = chunk
        self.deliver = deliver
        buffer.reserveCapacity(chunk + 4096)
    }

    /// Appends text.
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= chunk { try flush() }
    }

    /// Appends bytes.
    public func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= chunk { try flush() }
    }

    /// How many bytes are written and not yet handed on.
    package var buffered: Int { buffer.count }

    /// Hands on what is buffered.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try deliver(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Renders into memory: for tests and small outputs.
    static func collect(_ render: (ReportSink) throws -> Void) -> [UInt8] {
        var out: [UInt8] = []
        let sink = ReportSink(chunk: 1 << 20) { out.append(contentsOf: $0) }
        try? render(sink)
        try? sink.flush()
        return out
    }
}

/// Numbers as reports print them.
package enum ReportNumbers {
    /// `65040` → `65,040` (commas, whatever the locale: the rest of the output is English).
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return n < 0 ? "−" + out : out
    }

    /// `part` as a percentage of `whole` with one decimal (`30.0%`); `—` of nothing.
    package static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "—" }
        let tenths = (part * 1000 + whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// `51 → 38, −13` (or `38, new` when there was none before; `=` when unchanged).
    package static func change(from before: Int?, to now: Int) -> String {
        guard let before else { return "\(grouped(now)), new" }
        let delta = now - before
        let sign = delta > 0 ? "+" : delta < 0 ? "−" : "±"
        return "\(grouped(before)) → \(grouped(now)), \(sign)\(grouped(abs(delta)))"
    }
}
