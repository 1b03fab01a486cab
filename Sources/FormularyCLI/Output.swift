#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer to standard output or standard error. Writes go out in large
/// chunks (a `check` of many values or a long report is one syscall per 64 KiB) and are
/// flushed before the process exits.
final class OutputStream {
    private let fd: Int32
    private var buffer: [UInt8] = []
    let isTerminal: Bool
    /// The `errno` of the first write that failed for another reason than a closed pipe (a
    /// full disk, an I/O error): the output is incomplete and the command must say so.
    /// Later writes are dropped.
    private(set) var failure: Int32?

    init(fd: Int32) {
        self.fd = fd
        self.isTerminal = isatty(fd) == 1
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func line(_ text: String = "") {
        write(text)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count && failure == nil {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (`formulary … | head`): nothing useful left to do, and
                // no failure either. Anything else lost output.
                if errno != EPIPE { failure = errno }
                break
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Styles for text output: colour only on a terminal and never when `NO_COLOR` is set.
struct Style {
    var enabled: Bool

    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

/// An aligned text table: columns padded to their widest cell (counted in characters),
/// the last column left ragged.
struct TextTable {
    var header: [String]?
    var rows: [[String]] = []

    func render() -> String {
        let all = (header.map { [$0] } ?? []) + rows
        guard let columns = all.map(\.count).max(), columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() where i < columns - 1 {
                widths[i] = max(widths[i], Self.width(cell))
            }
        }
        var out = ""
        for row in all {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i < row.count - 1 {
                    line += cell + String(repeating: " ", count: widths[i] - Self.width(cell) + 2)
                } else {
                    line += cell
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// The characters a cell shows: colour escape sequences take no room.
    static func width(_ cell: String) -> Int {
        guard cell.contains("\u{1B}") else { return cell.count }
        var count = 0
        var inEscape = false
        for c in cell {
            if inEscape {
                if c == "m" { inEscape = false }
            } else if c == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
