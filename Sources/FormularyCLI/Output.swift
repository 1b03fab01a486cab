#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyKit

/// A buffered writer to standard output or standard error. Writes go out in large
/// chunks (a `check` of many values or a long report is one syscall per 64 KiB) and are
/// flushed before the process exits.
///
/// Anything written while a ``ProgressLine`` is on the screen erases it first, so that no
/// output — a summary, a warning, an error — lands on the end of a progress line.
///
/// A stream made by ``capturing()`` keeps what is written instead (in-process tests read it
/// from ``captured``); it is no terminal.
package final class OutputStream {
    /// Nil for a capturing stream.
    private let fd: Int32?
    private var buffer: [UInt8] = []
    /// Everything flushed so far, for a capturing stream.
    package private(set) var captured: [UInt8] = []
    let isTerminal: Bool
    /// The progress line to erase before writing (both streams share one).
    weak var progress: ProgressLine?
    /// The `errno` of the first write that failed for another reason than a closed pipe (a
    /// full disk, an I/O error): the output is incomplete and the command must say so.
    /// Later writes are dropped.
    private(set) var failure: Int32?

    init(fd: Int32) {
        self.fd = fd
        self.isTerminal = isatty(fd) == 1
        buffer.reserveCapacity(1 << 16)
    }

    private init() {
        fd = nil
        isTerminal = false
    }

    /// A stream that keeps what is written, in ``captured``.
    package static func capturing() -> OutputStream { OutputStream() }

    func write(_ text: String) {
        progress?.clear()
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(bytes: [UInt8]) {
        progress?.clear()
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func line(_ text: String = "") {
        write(text)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `bytes` at once, after what is buffered, bypassing the progress line's
    /// erasing (it is how the progress line itself is drawn and erased).
    fileprivate func writeNow(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        flush()
    }

    func flush() {
        guard let fd else {
            captured.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
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

/// The one progress line of a long command (`import`, `validate`) on standard error.
///
/// Drawn only where it can be erased: standard error is a terminal that is not dumb
/// (`TerminalKind`). Each ``show(_:)`` redraws it in place (`\r`, the text, then "erase to
/// the end of the line"); the first write to standard output or standard error after it
/// erases it (`\r` and erase-line) before anything else goes out, and so does the end of
/// the process, so that the last thing on the screen is the command's own output — its
/// summary or its error — never a stale progress line, in whatever order the two streams
/// are flushed.
final class ProgressLine {
    let isEnabled: Bool
    private let stdout: OutputStream
    private let stderr: OutputStream
    private(set) var isShown = false

    static let erase: [UInt8] = Array("\r\u{1B}[K".utf8)

    init(stdout: OutputStream, stderr: OutputStream, environment: [String: String]) {
        self.stdout = stdout
        self.stderr = stderr
        isEnabled = stderr.isTerminal && TerminalKind(environment: environment).isCapable
        stdout.progress = self
        stderr.progress = self
    }

    /// Replaces the progress line with `text` (one short line: a long one would wrap, and
    /// only its last row could be erased).
    func show(_ text: String) {
        guard isEnabled else { return }
        // Whatever the command already printed goes out first, above the line.
        isShown = false
        stdout.flush()
        stderr.flush()
        stderr.writeNow(Array("\r".utf8) + Array(ReportEscaping.terminal(text).utf8) + Array("\u{1B}[K".utf8))
        isShown = true
    }

    /// Erases the progress line, if it is shown.
    func clear() {
        guard isShown else { return }
        isShown = false
        stderr.writeNow(Self.erase)
    }
}

/// Styles for text output: ANSI colours, or the text as it is when colour is off.
struct Style {
    var enabled: Bool

    /// Colour for a stream: only on a terminal that can show it (`TERM` set and not
    /// `dumb`), and not when `NO_COLOR` is set to something — an empty `NO_COLOR` does not
    /// count (no-color.org).
    init(stream: OutputStream, environment: [String: String]) {
        enabled = stream.isTerminal && TerminalKind(environment: environment).isCapable
            && (environment["NO_COLOR"] ?? "").isEmpty
    }

    init(enabled: Bool) { self.enabled = enabled }

    func red(_ s: String) -> String { wrap(s, "31") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

/// What the terminal named by `TERM` can do. A dumb terminal (Emacs' shell, some CI logs)
/// and a terminal that does not say what it is show escape sequences as garbage: they get
/// no colour and no progress line (which needs "erase line").
struct TerminalKind {
    var isCapable: Bool

    init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        isCapable = !term.isEmpty && term != "dumb"
    }
}

/// An aligned text table: columns padded to their widest cell (counted in characters),
/// the last column left ragged. A cell wider than ``widestAligned`` does not widen its
/// column: the rest of its line follows it after two spaces.
///
/// Every cell is escaped for the terminal (`ReportEscaping.terminal`): cells hold names,
/// keys, labels and messages that come from files, and none may send an escape sequence.
/// Colour is the one thing a cell may add, through its `paint`, applied after escaping and
/// padding so that it neither counts towards the width nor gets escaped.
struct TextTable {
    struct Cell {
        /// The text as shown: escaped.
        var text: String
        var paint: ((String) -> String)?

        init(_ text: String, paint: ((String) -> String)? = nil) {
            self.text = ReportEscaping.terminal(text)
            self.paint = paint
        }
    }

    var header: [String]?
    var rows: [[Cell]]

    init(header: [String]? = nil, rows: [[String]]) {
        self.header = header
        self.rows = rows.map { $0.map { Cell($0) } }
    }

    init(header: [String]? = nil, cells: [[Cell]]) {
        self.header = header
        self.rows = cells
    }

    /// The widest cell, in characters, that its column is widened for. One long cell (a label
    /// of megabytes) would otherwise pad every other line of the table to its width: output,
    /// and time, of lines × width.
    static let widestAligned = 100

    func render() -> String {
        let all = (header.map { [$0.map { Cell($0) }] } ?? []) + rows
        guard let columns = all.map(\.count).max(), columns > 0 else { return "" }
        // Counted once: a character count walks the whole text.
        let counts = all.map { row in row.map(\.text.count) }
        var widths = [Int](repeating: 0, count: columns)
        for row in counts {
            for (i, count) in row.enumerated() where i < columns - 1 && count <= Self.widestAligned {
                widths[i] = max(widths[i], count)
            }
        }
        var out = ""
        for (row, rowCounts) in zip(all, counts) {
            let shown = row.map { $0.paint?($0.text) ?? $0.text }
            // No padding after the last cell that shows something: it would only be trimmed.
            guard let last = shown.lastIndex(where: { !$0.isEmpty }) else {
                out += "\n"
                continue
            }
            var line = ""
            for i in 0...last {
                line += shown[i]
                if i < last {
                    line += String(repeating: " ", count: max(0, widths[i] - rowCounts[i]) + 2)
                }
            }
            // Trailing spaces of the last cell's own text go too, as they always have.
            let trailing = line.utf8.reversed().prefix(while: { $0 == UInt8(ascii: " ") }).count
            out += trailing == 0 ? line : String(line.utf8.dropLast(trailing))!
            out += "\n"
        }
        return out
    }
}

extension String {
    /// The text escaped for a terminal (`ReportEscaping.terminal`): for names, paths, labels
    /// and messages put into a line of text output by hand (table cells are escaped by
    /// `TextTable` itself).
    var forTerminal: String { ReportEscaping.terminal(self) }
}
