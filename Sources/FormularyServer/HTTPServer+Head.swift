import Foundation
import CMicroHTTPD

/// What is checked once a request's head is in, before its body is read: its size, how
/// its body is framed, and its `Host`. A request refused here is answered at once with
/// `Connection: close`: libmicrohttpd then reads nothing more from the connection, so a
/// request hidden in the body is never taken for the next one.
extension HTTPServer {
    /// Most bytes of a request's line and headers together; a larger head is answered 431.
    ///
    /// libmicrohttpd reads a head into the connection's pool (``poolBytes``); one too large
    /// for even that gets the library's own answer (docs/http.md, "Errors").
    package static let headLimit = 16 * 1024
    /// The memory libmicrohttpd reads one connection into: room for a head over
    /// ``headLimit``, so that such a head reaches the check here and gets a JSON answer.
    static let poolBytes = 32 * 1024

    /// The request's headers, lower-case names, and what they say of the body's framing.
    struct Head {
        var headers: [String: String]
        /// A second `Content-Length` with another value than the first.
        var conflictingLengths = false
        var hasLength = false
        /// How many `Transfer-Encoding` headers, and whether one was exactly `chunked`.
        var transferEncodings = 0
        var chunked = false
    }

    /// The answer refusing the head, or nil when the request may go on.
    func refusal(of head: Head, on connection: OpaquePointer, version: UnsafePointer<CChar>?) -> HTTPResponse? {
        if formulary_mhd_head_size(mhd, connection) > Self.headLimit {
            return .error(431, "headers_too_large", "The request line and headers are over 16 KiB together; "
                          + "send a shorter URL, or fewer or smaller headers.")
        }
        if head.transferEncodings > 0 && head.hasLength {
            return .error(400, "bad_request", "The request has both Content-Length and Transfer-Encoding, so its "
                          + "body could be read two ways; send only one of them.")
        }
        if head.conflictingLengths {
            return .error(400, "bad_request", "The request has Content-Length headers that differ; send one.")
        }
        if head.transferEncodings > 1 || (head.transferEncodings == 1 && !head.chunked) {
            return .error(400, "bad_request", "Transfer-Encoding may only be 'chunked'; send the body in chunks, "
                          + "or with Content-Length.")
        }
        guard let hosts else { return nil }
        switch hosts.verdict(host: head.headers["host"], http10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false) {
        case .allowed:
            return nil
        case .missing:
            return .error(400, "bad_request", "HTTP/1.1 requires a Host header; send the name or address you reach "
                          + "the server by (e.g. 'Host: localhost:8080').")
        case .refused:
            return .error(421, "misdirected_request", hosts.refusal)
        }
    }

    /// Every header of the request, by lower-case name (a later one of the same name wins,
    /// as in ``HTTPRequest``'s own init), with the framing facts gathered as they are copied.
    static func head(_ connection: OpaquePointer, _ mhd: UnsafePointer<formulary_mhd>) -> Head {
        let box = HeadBox()
        let context = Unmanaged.passUnretained(box).toOpaque()
        _ = mhd.pointee.MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
            guard let context, let key else { return .YES }
            let box = Unmanaged<HeadBox>.fromOpaque(context).takeUnretainedValue()
            let name = ValuesBox.lowercased(key)
            let text = value.map { String(cString: $0) } ?? ""
            switch name.utf8.count {
            case 14 where name == "content-length":
                if let earlier = box.head.headers[name], earlier != text { box.head.conflictingLengths = true }
                box.head.hasLength = true
            case 17 where name == "transfer-encoding":
                box.head.transferEncodings += 1
                box.head.chunked = text.utf8.count == 7 && text.lowercased() == "chunked"
            default:
                break
            }
            box.head.headers[name] = text
            return .YES
        }, context)
        return box.head
    }
}

private final class HeadBox {
    var head = HTTPServer.Head(headers: [:])
}
