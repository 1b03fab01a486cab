import FormularyKit
import Foundation
import CMicroHTTPD
import FormularyRules

/// An HTTP server on libmicrohttpd: it parses requests, hands each to a plain function as
/// an ``HTTPRequest`` and sends back the ``HTTPResponse``. No HTTP is parsed here.
///
/// A polling thread and a pool of worker threads (`threads`) serve keep-alive connections;
/// idle or slow clients are dropped after a timeout; a body over 1 MiB is read and thrown
/// away (so memory stays bounded) and answered 413. ``stop()`` stops listening and waits
/// for the requests in flight. Every answer carries `X-Content-Type-Options: nosniff`.
///
/// Abuse is bounded: at most ``connectionLimit`` connections in all and
/// ``perAddressLimit`` from one address, so that a client — or sixteen addresses of one —
/// holding connections cannot shut the others out. A connection that sends nothing for
/// the timeout is closed; so is one whose request head (line and headers) is not all in
/// the timeout after the connection opened or its previous request ended, and one whose
/// body is still arriving the timeout after its first line (clients trickling a byte at
/// a time). A head over ``headLimit`` is answered 431; one framed two ways
/// (`Content-Length` twice, or with `Transfer-Encoding`) 400, and the connection closed.
package final class HTTPServer: @unchecked Sendable {
    /// The port listened on (the one the system chose when 0 was asked for).
    package private(set) var port: UInt16 = 0
    private var daemon: OpaquePointer?
    /// libmicrohttpd's functions, loaded when the first server starts (``LibMicroHTTPD``).
    let mhd: UnsafePointer<formulary_mhd>
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let log: (@Sendable (AccessLogLine) -> Void)?
    private let maxBody: Int
    private let timeout: TimeInterval
    /// The Host names answered for; nil: any.
    let hosts: HostPolicy?
    let timeoutNanoseconds: Int64
    let watch = ConnectionWatch()

    /// Most connections open at once; more are refused until some close.
    package static let connectionLimit = 4_096
    /// Most connections open at once from one IP address: an eighth of
    /// ``connectionLimit`` (and the 64 a benchmark or a proxy's pool needs, twice over).
    package static let perAddressLimit = 128

    /// Starts listening on `host` (an IPv4 address, such as `127.0.0.1`) and `port` (0: any
    /// free port), with `threads` worker threads; a connection idle for `timeoutSeconds`,
    /// or whose head or body still arrives that long after it started, is closed. With
    /// `hosts`, a request whose `Host` header it refuses is answered 421 (400 for an
    /// HTTP/1.1 request without one).
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the address is not an IPv4 address, or
    ///   (environment) when the port cannot be bound or libmicrohttpd cannot be loaded.
    package init(host: String, port: UInt16, threads: Int, maxBodyBytes: Int = RegistryAPI.maxBodyBytes,
                timeoutSeconds: Int = 30, hosts: HostPolicy? = nil, log: (@Sendable (AccessLogLine) -> Void)? = nil,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        self.handler = handler
        self.log = log
        self.hosts = hosts
        maxBody = maxBodyBytes
        timeout = TimeInterval(max(1, timeoutSeconds))
        timeoutNanoseconds = Int64(max(1, timeoutSeconds)) * 1_000_000_000
        do {
            mhd = try LibMicroHTTPD.functions()
        } catch {
            watch.stop()
            throw error
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            watch.stop()
            throw ServiceError(.badInput, "'\(host)' is not an IPv4 address; give --listen as HOST:PORT, e.g. 127.0.0.1:8080")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let flags = UInt32(MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_TURBO.rawValue)
        daemon = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                formulary_mhd_start(mhd, flags, raw, accessHandler, context, completedHandler, context, requestLineHandler, context,
                                    connectionNotice, context, UInt32(max(1, threads)), UInt32(max(1, timeoutSeconds)),
                                    UInt32(Self.connectionLimit), UInt32(Self.perAddressLimit), Self.poolBytes)
            }
        }
        guard let daemon else {
            watch.stop()
            throw ServiceError(.environment, "cannot listen on \(host):\(port) (is the port in use, or not allowed?)")
        }
        self.port = formulary_mhd_port(mhd, daemon)
    }

    deinit { stop() }

    /// Stops listening, lets the requests in flight finish, and closes every connection.
    package func stop() {
        guard let daemon else { return }
        self.daemon = nil
        _ = mhd.pointee.MHD_quiesce_daemon(daemon)
        mhd.pointee.MHD_stop_daemon(daemon)
        watch.stop()
    }

    /// One call of libmicrohttpd's access handler: the first for a request (its head is
    /// in) checks the head, the next ones bring body bytes, the last (no bytes) answers.
    fileprivate func access(_ connection: OpaquePointer, url: String, method: String, version: UnsafePointer<CChar>?,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // The state was made when the request line arrived (``requestLineHandler``).
        guard let raw = slot.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        guard let headers = state.headers else {
            // A head that came too late, or whose connection the watch is cutting, ends
            // here (answering NO closes the connection).
            guard state.connection?.headArrived() ?? true else { return .NO }
            let head = Self.head(connection, mhd)
            if let refusal = refusal(of: head, on: connection, version: version) {
                var response = refusal
                response.headers.append(("Connection", "close"))
                return answer(response, on: connection, method: method, path: Self.path(url), state: state)
            }
            state.headers = head.headers
            return .YES
        }
        if uploadSize.pointee > 0 {
            // The idle timeout starts again with every byte; this one does not: a body
            // still trickling in the timeout after the request's first line is cut off.
            if Date().timeIntervalSince(state.started) > timeout { return .NO }
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
        let path = Self.path(url)
        let response: HTTPResponse
        if state.tooLarge {
            response = .error(413, "too_large", "The request body is larger than 1 MiB; send less at a time.")
        } else {
            response = handler(HTTPRequest(method: method, path: path, query: Self.query(connection, mhd),
                                           lowercasedHeaders: headers, body: state.body))
        }
        return answer(response, on: connection, method: method, path: path, state: state)
    }

    /// libmicrohttpd hands the query's arguments over decoded through its own calls; a
    /// query left on the URL is cut so that the log and the router see the path alone.
    private static func path(_ url: String) -> String {
        url.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(url[..<$0]) } ?? url
    }

    private func answer(_ response: HTTPResponse, on connection: OpaquePointer, method: String, path: String,
                        state: RequestState) -> MHD_Result {
        let queued = send(response, on: connection)
        log?(AccessLogLine(at: Date(), method: method, path: path, status: response.status,
                           milliseconds: Date().timeIntervalSince(state.started) * 1000, tokenName: response.tokenName))
        return queued
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            mhd.pointee.MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        for header in response.headers { _ = mhd.pointee.MHD_add_response_header(made, header.name, header.value) }
        _ = mhd.pointee.MHD_add_response_header(made, "X-Content-Type-Options", "nosniff")
        let result = mhd.pointee.MHD_queue_response(connection, UInt32(response.status), made)
        mhd.pointee.MHD_destroy_response(made)
        return result
    }

    /// The query's arguments, decoded, by name (the headers are copied with the head:
    /// ``head(_:)``).
    private static func query(_ connection: OpaquePointer, _ mhd: UnsafePointer<formulary_mhd>) -> [String: String] {
        let box = ValuesBox()
        let context = Unmanaged.passUnretained(box).toOpaque()
        _ = mhd.pointee.MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
            guard let context, let key else { return .YES }
            let box = Unmanaged<ValuesBox>.fromOpaque(context).takeUnretainedValue()
            box.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
            return .YES
        }, context)
        return box.values
    }
}

/// The state of one request from its first line until it ends.
private final class RequestState {
    var body: [UInt8] = []
    var tooLarge = false
    /// The headers, once the head is in and was accepted.
    var headers: [String: String]?
    /// When the request line arrived: the body's deadline counts from here.
    let started = Date()
    /// The connection's head deadline (nil only if libmicrohttpd gave no socket context).
    let connection: ConnectionState?

    init(connection: ConnectionState?) {
        self.connection = connection
    }
}

final class ValuesBox {
    var values: [String: String] = [:]

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

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, upload, uploadSize, state in
    guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.access(connection, url: String(cString: url), method: String(cString: method), version: version,
                         upload: upload, uploadSize: uploadSize, state: state)
}

/// Called when a request's first line has arrived: makes the request's state (handed to
/// ``accessHandler`` as its slot), so that its deadline starts before the headers.
private let requestLineHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer? = { context, _, connection in
    guard let context else { return nil }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let watched = connection.flatMap { formulary_mhd_socket_context(server.mhd, $0) }
        .map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }
    return Unmanaged.passRetained(RequestState(connection: watched)).toOpaque()
}

/// Called when a request ends: its state goes, and the connection's next head is awaited
/// from now.
private let completedHandler: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let raw = state.pointee else { return }
    let request = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    state.pointee = nil
    request.connection?.requestEnded()
}
