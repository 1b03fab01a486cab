#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines of text from a file descriptor (`try`'s standard input), read as the standard
/// library's `readLine(strippingNewline: true)` reads them from the process's: split at
/// "\n", a "\r" before it dropped, invalid UTF-8 repaired with U+FFFD, and a last line
/// without a newline returned too. A descriptor rather than `stdin`, so that a command run
/// in-process reads the input it was given.
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var end = newline
                if end > 0 && buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            fill()
        }
    }

    private mutating func fill() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[..<n])
                return
            }
            if n < 0 && errno == EINTR { continue }
            atEnd = true
            return
        }
    }
}
