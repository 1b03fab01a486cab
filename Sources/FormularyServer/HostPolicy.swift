#if canImport(Glibc)
import Glibc
#endif

/// The names a server answers for in a request's `Host` header: its listen address,
/// `localhost` when that address is loopback (or every address), and the names an operator
/// allows (`--allow-host`).
///
/// A page on another site may make the visitor's browser call the server under a name of
/// the attacker's that resolves to the server's address (DNS rebinding): the browser then
/// treats the answers as the attacker's own and lets the page read them. Such a request
/// always names the attacker's site in `Host`; refusing names the server does not know
/// stops it. An IPv4 address in `Host` cannot be rebound, but the server still answers
/// only for its own (any, when it listens on `0.0.0.0`).
package struct HostPolicy: Sendable {
    /// The outcome for one request.
    enum Verdict {
        case allowed
        /// No `Host` header in an HTTP/1.1 request (which must have one).
        case missing
        /// A name or address the server does not answer for.
        case refused
    }

    /// The names and addresses answered for, lower case, in the order the error lists them.
    package let names: [String]
    /// Whether any IPv4 address is answered for (the server listens on every address).
    package let anyAddress: Bool
    /// The sentence that a refused request gets, made once.
    let refusal: String
    /// ``names`` as bytes, for the comparison on every request.
    private let nameBytes: [[UInt8]]

    /// The names answered for when listening on `address` (an IPv4 address), with the
    /// extra `allowed` names (see ``isName(_:)``).
    package init(listeningOn address: String, allowing allowed: [String]) {
        anyAddress = address == "0.0.0.0"
        var names: [String] = anyAddress ? [] : [address]
        if anyAddress || address.hasPrefix("127.") { names.append("localhost") }
        for name in allowed.map(Self.lowercased) where !names.contains(name) { names.append(name) }
        self.names = names
        nameBytes = names.map { Array($0.utf8) }
        let listed = (anyAddress ? ["this machine's IPv4 addresses"] : []) + names
        let said = listed.count == 1 ? listed[0] : listed.dropLast().joined(separator: ", ") + " and " + listed.last!
        refusal = "This server does not answer for the host named in the request's Host header; it answers for "
            + "\(said). Reach it by one of those, or start it with --allow-host NAME for the name you use."
    }

    /// Whether `name` may be given to `--allow-host`: an IPv4 address, or a DNS name of
    /// letters, digits and hyphens in dot-separated labels (no port, no wildcard).
    package static func isName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// The verdict on a request whose `Host` header is `host` (nil when it has none),
    /// made with HTTP/1.0 (`http10`) or a later version.
    func verdict(host: String?, http10: Bool) -> Verdict {
        guard var host else { return http10 ? .allowed : .missing }
        // Over the bytes in place: this runs on every request.
        return host.withUTF8 { bytes in
            var end = bytes.count
            // A port after the last colon (an IPv6 literal, with colons of its own, is never ours).
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                let digits = end - colon - 1
                guard (1...5).contains(digits), bytes[(colon + 1)...].allSatisfy({ (0x30...0x39).contains($0) }) else {
                    return .refused
                }
                end = colon
            }
            if end > 0, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }   // the absolute form of a DNS name
            let name = UnsafeBufferPointer(rebasing: bytes[..<end])
            guard !name.isEmpty, !name.contains(UInt8(ascii: ":")) else { return .refused }
            if nameBytes.contains(where: { Self.equalIgnoringCase(name, $0) }) { return .allowed }
            if anyAddress, Self.isIPv4(String(decoding: name, as: UTF8.self)) { return .allowed }
            return .refused
        }
    }

    private static func equalIgnoringCase(_ sent: UnsafeBufferPointer<UInt8>, _ known: [UInt8]) -> Bool {
        guard sent.count == known.count else { return false }
        for index in 0..<sent.count {
            let byte = sent[index]
            if ((0x41...0x5A).contains(byte) ? byte + 0x20 : byte) != known[index] { return false }
        }
        return true
    }

    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// ASCII letters lower-cased (host names compare without case; nothing else changes).
    private static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
