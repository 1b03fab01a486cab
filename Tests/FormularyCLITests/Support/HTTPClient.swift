#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One keep-alive HTTP/1.1 connection over loopback, by hand, for tests that must misbehave
/// as no HTTP library would let them: send half a request, trickle bytes, open a thousand
/// idle connections, send a malformed request line. Every wait is bounded by a receive
/// timeout, so a test fails rather than hangs.
final class HTTPConnection {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// One answer: status, headers (lower-case names) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    /// Where reads land, made once: a fresh 64 KiB array per read was most of a request's cost.
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address, such as
    /// 127.0.0.2, stands for another client) when given; a read waits at most
    /// `receiveTimeout` seconds.
    init(port: UInt16, from source: String? = nil, receiveTimeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw Failure(description: "bind \(source): \(String(cString: strerror(errno)))") }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    private static func address(_ host: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Sends all of `bytes`; false when the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A whole request: method, path, headers, and the body with its length.
    static func request(_ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = "application/json",
                        headers: [String] = []) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        if let body {
            if let contentType { text += "Content-Type: \(contentType)\r\n" }
            text += "Content-Length: \(body.count)\r\n"
        }
        return Array((text + "\r\n").utf8) + (body ?? [])
    }

    /// Sends a request and reads its answer on this connection (kept alive).
    func exchange(_ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = "application/json",
                  headers: [String] = []) throws -> Answer {
        guard send(Self.request(method, path, body: body, contentType: contentType, headers: headers)) else {
            throw Failure(description: "the server closed the connection before the request was sent")
        }
        return try readAnswer()
    }

    /// Reads one answer (its body by `Content-Length`; none for the answer to a `HEAD`,
    /// `bodyless`, whose `Content-Length` is the length of the body a `GET` would get).
    func readAnswer(bodyless: Bool = false) throws -> Answer {
        var end: Int?
        var searched = 0
        while end == nil {
            end = Self.headerEnd(in: buffer, from: max(0, searched - 3))
            searched = buffer.count
            if end == nil, try !fill() { throw Failure(description: "the connection ended before an answer's headers") }
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let status = lines.first.flatMap({ $0.split(separator: " ").dropFirst().first }).flatMap({ Int($0) }) else {
            throw Failure(description: "not an HTTP answer: \(head.prefix(100))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let start = end! + 4
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < start + length {
            guard try fill() else { throw Failure(description: "the connection ended inside an answer's body") }
        }
        let body = Array(buffer[start..<start + length])
        buffer.removeFirst(start + length)
        return Answer(status: status, headers: headers, body: body)
    }

    /// Where `\r\n\r\n` starts in `bytes`, looking from `from`.
    private static func headerEnd(in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = from
        while index + 3 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// Every byte the server sends until it closes the connection (or the receive timeout
    /// passes), after what was already read: to see that nothing more was answered.
    func readRest() -> [UInt8] {
        while (try? fill()) == true {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server has closed the connection: true at end of input or a reset,
    /// false when the receive timeout passes with the connection still open (or, with
    /// `waiting` false, at once when nothing has arrived).
    func isClosedByServer(waiting: Bool = true) -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, waiting ? 0 : Int32(MSG_DONTWAIT)) }
            if n > 0 { buffer += chunk[..<n]; continue }
            if n == 0 { return true }
            if errno == EINTR { continue }
            return errno == ECONNRESET || errno == EPIPE
        }
    }

    /// Reads what has arrived into the buffer; false at end of input.
    private func fill() throws -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[..<n]
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
    }
}
