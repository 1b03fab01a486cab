#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A W3C WebDriver session on Debian's `chromedriver` driving headless `chromium`, over
/// loopback: enough of the protocol to open a page, find elements, type into them key by
/// key, run a script and take a screenshot.
///
/// Both are installed by `scripts/browser-deps.sh` (`make browser-deps`, run by `make test`)
/// when missing; ``WebDriver/available`` is false where they are not, and the tests that need
/// them are skipped with the reason.
final class WebDriver {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The driver and browser executables, when both are installed.
    /// Runs `scripts/browser-deps.sh` first when one of them is missing.
    static let tools: (driver: String, browser: String)? = {
        func installed() -> (driver: String, browser: String)? {
            let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }
            let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let driver, let browser else { return nil }
            return (driver, browser)
        }
        if let tools = installed() { return tools }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/sh")
        script.arguments = [root.appendingPathComponent("scripts/browser-deps.sh").path]
        guard (try? script.run()) != nil else { return nil }
        script.waitUntilExit()
        return installed()
    }()

    static var available: Bool { tools != nil }

    private let process = Process()
    private let port: UInt16
    private let profile: URL
    private var session = ""

    /// A new browser whose page is `width` × `height` CSS pixels. Narrow widths go through
    /// Chromium's device emulation: a headless window does not get narrower than 500 px.
    init(width: Int, height: Int) throws {
        guard let tools = Self.tools else { throw Failure(description: "chromedriver or chromium is missing") }
        port = try Self.freePort()
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-chromium-\(UUID().uuidString)")
        process.executableURL = URL(fileURLWithPath: tools.driver)
        process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var ready = false
        for _ in 0..<200 where !ready {
            if let status = try? call("GET", "/status"), ((status as? [String: Any])?["ready"] as? Bool) == true { ready = true } else { usleep(50_000) }
        }
        guard ready else { process.terminate(); throw Failure(description: "chromedriver did not start on port \(port)") }
        var options: [String: Any] = [
            "binary": tools.browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--user-data-dir=\(profile.path)",
                     "--window-size=\(max(width, 800)),\(height)"],
        ]
        if width < 800 {
            options["mobileEmulation"] = ["deviceMetrics": ["width": width, "height": height, "pixelRatio": 1.0]]
        }
        let answer = try call("POST", "/session", [
            "capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]],
        ])
        guard let id = (answer as? [String: Any])?["sessionId"] as? String else {
            process.terminate()
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        session = id
    }

    deinit {
        if !session.isEmpty { _ = try? call("DELETE", "/session/\(session)") }
        // chromedriver leaves on its own /shutdown; SIGTERM alone does not always end it.
        _ = try? exchange("GET", "/shutdown", body: nil)
        for _ in 0..<100 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
    }

    // MARK: Commands

    /// Opens `url` and waits for the page's script to finish showing a view.
    func open(_ url: String) throws {
        _ = try call("POST", "/session/\(session)/url", ["url": url])
        try waitUntil("return document.body.dataset.view && document.body.dataset.view !== 'loading'", "the page to show a view")
    }

    /// The element `css` selects (the first).
    func element(_ css: String) throws -> String {
        let answer = try call("POST", "/session/\(session)/element", ["using": "css selector", "value": css])
        guard let found = answer as? [String: Any], let id = found.values.first as? String else {
            throw Failure(description: "no element \(css): \(answer)")
        }
        return id
    }

    /// Types `text` into `element` as key presses.
    func type(_ text: String, into element: String) throws {
        _ = try call("POST", "/session/\(session)/element/\(element)/value", ["text": text])
    }

    func click(_ element: String) throws {
        _ = try call("POST", "/session/\(session)/element/\(element)/click", [String: Any]())
    }

    /// Runs `script` (a function body) in the page with `arguments`; its return value.
    @discardableResult
    func execute(_ script: String, _ arguments: [Any] = []) throws -> Any {
        try call("POST", "/session/\(session)/execute/sync", ["script": script, "args": arguments])
    }

    /// Polls `script` until it returns true (at most 10 s).
    func waitUntil(_ script: String, _ what: String) throws {
        for _ in 0..<400 {
            if (try execute(script) as? Bool) == true { return }
            usleep(25_000)
        }
        throw Failure(description: "timed out waiting for \(what)")
    }

    /// Writes a PNG of the viewport to `path`.
    func screenshot(to path: String) throws {
        guard let encoded = try call("GET", "/session/\(session)/screenshot") as? String,
              let data = Data(base64Encoded: encoded) else { throw Failure(description: "no screenshot") }
        try data.write(to: URL(fileURLWithPath: path))
    }

    // MARK: Protocol

    /// One WebDriver command; its `value`, or a failure with the driver's message.
    @discardableResult
    private func call(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let answer = try exchange(method, path, body: text)
        let decoded = try JSONSerialization.jsonObject(with: Data(answer.body.utf8), options: [.fragmentsAllowed])
        let value = (decoded as? [String: Any])?["value"] ?? NSNull()
        if answer.status != 200 {
            let message = (value as? [String: Any])?["message"] as? String ?? answer.body
            throw Failure(description: "\(method) \(path): \(answer.status) \(message.prefix(300))")
        }
        return value
    }

    /// One HTTP/1.1 exchange with the driver. The body is read by its `Content-Length`:
    /// chromedriver keeps the connection open even when asked to close it.
    private func exchange(_ method: String, _ path: String, body: String?) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to chromedriver: errno \(errno)") }
        let payload = Array((body ?? "").utf8)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if body != nil { request += "Content-Type: application/json; charset=utf-8\r\n" }
        request += "Content-Length: \(payload.count)\r\n\r\n"
        let bytes = Array(request.utf8) + payload
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send to chromedriver: errno \(errno)") }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var expected: Int?
        while expected.map({ answer.count < $0 }) ?? true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += chunk[..<n]
            if expected == nil, let end = Self.headerEnd(answer) {
                let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + 4 + length
            }
        }
        guard let end = Self.headerEnd(answer),
              let status = Int(String(decoding: answer[..<end], as: UTF8.self).split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "not an HTTP answer from chromedriver to \(method) \(path)")
        }
        return (status, String(decoding: answer[(end + 4)...], as: UTF8.self))
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }

    /// A loopback port nobody listens on now.
    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}
