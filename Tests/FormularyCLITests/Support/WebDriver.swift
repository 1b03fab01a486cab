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

    private var process = Process()
    private var port: UInt16 = 0
    private let profile: URL
    private var session = ""

    /// A new browser whose page is `width` × `height` CSS pixels. Narrow widths go through
    /// Chromium's device emulation: a headless window does not get narrower than 500 px.
    init(width: Int, height: Int) throws {
        guard let tools = Self.tools else { throw Failure(description: "chromedriver or chromium is missing") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-chromium-\(UUID().uuidString)")
        try startDriver(tools.driver)
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

    /// Starts chromedriver and waits until it says it is ready. On a machine loaded by the
    /// rest of the suite it has taken over 10 s to start, and the port picked for it can be
    /// taken by another test between `freePort()` and its bind; so it gets a minute, and a
    /// driver that exits early is started again on another port (three tries).
    private func startDriver(_ driver: String) throws {
        var exits: [String] = []
        for _ in 0..<3 {
            process = Process()
            port = try Self.freePort()
            process.executableURL = URL(fileURLWithPath: driver)
            process.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && process.isRunning {
                if let status = try? call("GET", "/status"), ((status as? [String: Any])?["ready"] as? Bool) == true { return }
                usleep(100_000)
            }
            if process.isRunning {
                process.terminate()
                throw Failure(description: "chromedriver did not answer /status on port \(port) within 60 s")
            }
            process.waitUntilExit()
            exits.append("port \(port): exit \(process.terminationStatus)")
        }
        throw Failure(description: "chromedriver exited before it was ready (\(exits.joined(separator: "; ")))")
    }

    // MARK: Commands

    /// Opens `url` and waits for the page's script to finish showing a view.
    func open(_ url: String) throws {
        _ = try call("POST", "/session/\(session)/url", ["url": url])
        try waitUntil("return document.body.dataset.view && document.body.dataset.view !== 'loading'", "the page to show a view")
    }

    /// Opens `url` without waiting for anything (a page that is not Formulary's).
    func navigate(_ url: String) throws {
        _ = try call("POST", "/session/\(session)/url", ["url": url])
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

    /// Polls `script` until it returns true (at most `seconds`, 10 by default).
    func waitUntil(_ script: String, _ what: String, seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try execute(script) as? Bool) == true { return }
            usleep(25_000)
        }
        throw Failure(description: "timed out waiting for \(what)")
    }

    /// Sends a Chrome DevTools Protocol command (`Input.insertText`, `Input.imeSetComposition`)
    /// to the page, as an IME or a paste would reach it.
    @discardableResult
    func cdp(_ command: String, _ parameters: [String: Any]) throws -> Any {
        try call("POST", "/session/\(session)/goog/cdp/execute", ["cmd": command, "params": parameters])
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

    /// One HTTP/1.1 exchange with the driver, on a connection of its own. ``HTTPConnection``
    /// reads the answer by its `Content-Length`: chromedriver keeps connections open even
    /// when asked to close them.
    private func exchange(_ method: String, _ path: String, body: String?) throws -> (status: Int, body: String) {
        let connection = try HTTPConnection(port: port, receiveTimeout: 60)
        let answer = try connection.exchange(method, path, body: body.map { Array($0.utf8) },
                                             contentType: "application/json; charset=utf-8")
        return (answer.status, answer.text)
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
