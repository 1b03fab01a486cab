import Foundation
import CMicroHTTPD
import FormularyRules

/// An HTTP server on libmicrohttpd: it parses requests, hands each to a plain function as
/// an ``HTTPRequest`` and sends back the ``HTTPResponse``. No HTTP is parsed here.
///
/// A polling thread and a pool of worker threads (`threads`) serve keep-alive connections;
/// idle or slow clients are dropped after a timeout; a body over 1 MiB is read and thrown
/// away (so memory stays bounded) and answered 413. ``stop()`` stops listening and waits
/// for the requests in flight.
///
/// Abuse is bounded: at most ``connectionLimit`` connections in all and
/// ``perAddressLimit`` from one address (so one client holding idle connections cannot
/// shut the others out); a connection that sends nothing for the timeout is closed, and so
/// is one whose body is still arriving when the timeout has passed since its headers (a
/// client trickling a byte at a time). Each connection reads into at most 16 KiB of
/// libmicrohttpd's memory, headers included.
public final class HTTPServer: @unchecked Sendable {
    /// The port listened on (the one the system chose when 0 was asked for).
    public private(set) var port: UInt16 = 0
    private var daemon: OpaquePointer?
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let log: (@Sendable (AccessLogLine) -> Void)?
    private let maxBody: Int
    private let timeout: TimeInterval

    /// Most connections open at once; more are refused until some close.
    public static let connectionLimit = 4_096
    /// Most connections open at once from one IP address.
    public static let perAddressLimit = 256

    /// One request as the access log says it: never a body, never a query, never a value.
    public struct AccessLogLine: Sendable {
        /// When the request ended.
        public var at: Date
        /// The method and path (without the query).
        public var method: String, path: String
        /// The status answered.
        public var status: Int
        /// How long it took, in milliseconds.
        public var milliseconds: Double
        /// The accepted token's name, or nil.
        public var tokenName: String?

        /// `2026-12-02T01:02:03.456Z POST /v1/check 200 0.41 ms token-name` (`-` without a token).
        public var text: String {
            var line: [UInt8] = []
            line.reserveCapacity(64 + method.utf8.count + path.utf8.count + (tokenName?.utf8.count ?? 1))
            Self.appendUTC(at, to: &line)
            line.append(0x20)
            line.append(contentsOf: method.utf8)
            line.append(0x20)
            line.append(contentsOf: path.utf8)
            line.append(0x20)
            Self.appendDigits(status, width: 1, to: &line)
            line.append(0x20)
            Self.appendTwoPlaces(milliseconds, to: &line)
            line.append(contentsOf: " ms ".utf8)
            line.append(contentsOf: (tokenName ?? "-").utf8)
            return String(decoding: line, as: UTF8.self)
        }

        /// `2026-12-02T01:02:03.456Z`.
        static func utc(_ date: Date) -> String {
            var bytes: [UInt8] = []
            appendUTC(date, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// `2026-12-02T01:02:03.456Z`, by hand and as bytes: the line is written on every
        /// request, and a Foundation date formatter, then strings padded piece by piece,
        /// were a large part of what a request cost the server. The calendar date comes from
        /// the day number by arithmetic (the proleptic Gregorian calendar, as `gmtime`'s),
        /// so no libc lock is taken either.
        static func appendUTC(_ date: Date, to line: inout [UInt8]) {
            let since1970 = date.timeIntervalSince1970
            let whole = since1970.rounded(.down)
            let seconds = Int(whole)
            let millis = min(999, Int(((since1970 - whole) * 1000).rounded()))
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let secondOfDay = seconds - days * 86_400
            let civil = CivilDate(daysSince1970: days)
            let (year, month, day) = (civil.year, civil.month, civil.day)
            appendDigits(year, width: 4, to: &line)
            line.append(UInt8(ascii: "-"))
            appendDigits(month, width: 2, to: &line)
            line.append(UInt8(ascii: "-"))
            appendDigits(day, width: 2, to: &line)
            line.append(UInt8(ascii: "T"))
            appendDigits(secondOfDay / 3_600, width: 2, to: &line)
            line.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay / 60 % 60, width: 2, to: &line)
            line.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay % 60, width: 2, to: &line)
            line.append(UInt8(ascii: "."))
            appendDigits(millis, width: 3, to: &line)
            line.append(UInt8(ascii: "Z"))
        }

        /// `value` in decimal, zero-padded to `width` digits (a minus sign before them);
        /// written in place, without a string or array per number.
        static func appendDigits(_ value: Int, width: Int, to line: inout [UInt8]) {
            if value < 0 { line.append(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            var count = 1
            var rest = magnitude / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            let total = max(count, width)
            line.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: total))
            var index = line.count - 1
            repeat {
                line[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                index -= 1
            } while magnitude > 0
        }

        /// `0.41`: two decimals, rounded.
        static func twoPlaces(_ value: Double) -> String {
            var bytes: [UInt8] = []
            appendTwoPlaces(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        static func appendTwoPlaces(_ value: Double, to line: inout [UInt8]) {
            let hundredths = Int((value * 100).rounded())
            appendDigits(hundredths / 100, width: 1, to: &line)
            line.append(UInt8(ascii: "."))
            appendDigits(hundredths % 100, width: 2, to: &line)
        }
    }

    /// Starts listening on `host` (an IPv4 address, such as `127.0.0.1`) and `port` (0: any
    /// free port), with `threads` worker threads; a connection idle for `timeoutSeconds`,
    /// or whose body still arrives that long after its headers, is closed.
    ///
    /// - Throws: a ``ServiceError`` (environment) when the address is not an IPv4 address or
    ///   the port cannot be bound.
    public init(host: String, port: UInt16, threads: Int, maxBodyBytes: Int = RegistryAPI.maxBodyBytes,
                timeoutSeconds: Int = 30, log: (@Sendable (AccessLogLine) -> Void)? = nil,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        self.log = log
        maxBody = maxBodyBytes
        timeout = TimeInterval(max(1, timeoutSeconds))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw ServiceError(.badInput, "'\(host)' is not an IPv4 address; give --listen as HOST:PORT, e.g. 127.0.0.1:8080")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let flags = UInt32(MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_TURBO.rawValue)
        daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                formulary_mhd_start(flags, raw, accessHandler, context, completedHandler, context, requestLineHandler, nil,
                                    UInt32(max(1, threads)), UInt32(max(1, timeoutSeconds)),
                                    UInt32(Self.connectionLimit), UInt32(Self.perAddressLimit), 16 * 1024)
            }
        }
        guard let daemon else {
            throw ServiceError(.environment, "cannot listen on \(host):\(port) (is the port in use, or not allowed?)")
        }
        self.port = formulary_mhd_port(daemon)
    }

    deinit { stop() }

    /// Stops listening, lets the requests in flight finish, and closes every connection.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        _ = MHD_quiesce_daemon(daemon)
        MHD_stop_daemon(daemon)
    }

    /// One call of libmicrohttpd's access handler: the first for a request makes its state,
    /// the next ones bring body bytes, the last (no bytes) answers.
    fileprivate func access(_ connection: OpaquePointer, url: String, method: String,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // The state was made when the request line arrived (``requestLineHandler``).
        guard let raw = slot.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        // The idle timeout starts again with every byte; this one does not: a request
        // whose headers or body trickle in for longer than the timeout since its first line
        // is cut off (answering NO closes the connection).
        if !state.headersSeen || uploadSize.pointee > 0,
           Date().timeIntervalSince(state.started) > timeout {
            return .NO
        }
        guard state.headersSeen else {
            state.headersSeen = true
            return .YES
        }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            if state.body.count + count > maxBody {
                state.tooLarge = true   // read on and throw away: memory stays bounded
            } else if let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        // libmicrohttpd hands the query's arguments over decoded through its own calls; a
        // query left on the URL is cut so that the log and the router see the path alone.
        let path = url.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(url[..<$0]) } ?? url
        var response: HTTPResponse
        if state.tooLarge {
            response = .error(413, "too_large", "The request body is larger than 1 MiB; send less at a time.")
        } else {
            let request = HTTPRequest(method: method, path: path,
                                      query: Self.values(connection, .GET_ARGUMENT_KIND),
                                      lowercasedHeaders: Self.values(connection, .HEADER_KIND, lowercasingKeys: true),
                                      body: state.body)
            response = handler(request)
        }
        let queued = send(response, on: connection)
        log?(AccessLogLine(at: Date(), method: method, path: path, status: response.status,
                           milliseconds: Date().timeIntervalSince(state.started) * 1000, tokenName: response.tokenName))
        return queued
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    /// Every header (or query argument) of the request, by name; header names lower-cased
    /// here, as their bytes are copied (a later name of the same spelling wins, as in
    /// ``HTTPRequest``'s own init).
    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind,
                               lowercasingKeys: Bool = false) -> [String: String] {
        let box = ValuesBox(lowercasingKeys: lowercasingKeys)
        let context = Unmanaged.passUnretained(box).toOpaque()
        _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let box = Unmanaged<ValuesBox>.fromOpaque(context).takeUnretainedValue()
            let name = box.lowercasingKeys ? ValuesBox.lowercased(key) : String(cString: key)
            box.values[name] = value.map { String(cString: $0) } ?? ""
            return .YES
        }, context)
        return box.values
    }
}

/// The state of one request from its first line until it ends.
private final class RequestState {
    var body: [UInt8] = []
    var tooLarge = false
    var headersSeen = false
    /// When the request line arrived: the slow-client deadline counts from here.
    let started = Date()
}

private final class ValuesBox {
    var values: [String: String] = [:]
    let lowercasingKeys: Bool

    init(lowercasingKeys: Bool) {
        self.lowercasingKeys = lowercasingKeys
    }

    /// A header name lower-cased: ASCII by the byte (names are tokens), anything else by
    /// `lowercased()`, as ``HTTPRequest`` would.
    static func lowercased(_ name: UnsafePointer<CChar>) -> String {
        let count = strlen(name)
        let ascii = name.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            (0..<count).allSatisfy { bytes[$0] < 0x80 }
        }
        guard ascii else { return String(cString: name).lowercased() }
        return name.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(unsafeUninitializedCapacity: count) { buffer in
                for i in 0..<count {
                    let byte = bytes[i]
                    buffer[i] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
                }
                return count
            }
        }
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, state in
    guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.access(connection, url: String(cString: url), method: String(cString: method),
                         upload: upload, uploadSize: uploadSize, state: state)
}

/// Called when a request's first line has arrived: makes the request's state (handed to
/// ``accessHandler`` as its slot), so that its deadline starts before the headers.
private let requestLineHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer? = { _, _, _ in
    Unmanaged.passRetained(RequestState()).toOpaque()
}

private let completedHandler: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let raw = state.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(raw).release()
    state.pointee = nil
}
