/// The canonical encoding that data digests hash, fed into a SHA-256 through a buffer.
///
/// Each value is written so that no two sequences of values share an encoding:
/// an integer as `i<decimal>;`, a text as `t<byte count>:<UTF-8 bytes>`, bytes as
/// `b<byte count>:<bytes>`, a null as `n`, and single tag bytes between groups of values.
/// docs/storage.md ("Data digests") gives the exact sequence for each kind of record.
///
/// Buffered because the import path feeds every row: one libcrypto call per 8 KiB instead of
/// five or six per row. A class, because verification keeps one per import in a dictionary.
final class DigestFeed {
    private var hasher = SHA256.Hasher()
    private var buffer: [UInt8] = []
    private static let flushAt = 8 * 1024

    init() {}

    /// A single tag byte (an ASCII letter that starts a group).
    func tag(_ byte: UInt8) {
        buffer.append(byte)
        flushIfFull()
    }

    /// A text tag: its UTF-8 bytes as they are, for the fixed words that start a message.
    func word(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    func int(_ value: Int64) {
        buffer.append(UInt8(ascii: "i"))
        appendDecimal(value)
        buffer.append(UInt8(ascii: ";"))
        flushIfFull()
    }

    func int(_ value: Int) { int(Int64(value)) }

    func int(_ value: Int64?) {
        if let value { int(value) } else { null() }
    }

    func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { append(kind: UInt8(ascii: "t"), UnsafeRawBufferPointer($0)) }
    }

    func bytes(_ value: UnsafeRawBufferPointer) {
        append(kind: UInt8(ascii: "b"), value)
    }

    func bytes(_ value: [UInt8]) {
        value.withUnsafeBytes { bytes($0) }
    }

    func null() {
        buffer.append(UInt8(ascii: "n"))
        flushIfFull()
    }

    /// The digest of everything fed. The feed cannot be used afterwards.
    func finalize() -> [UInt8] {
        flush()
        return hasher.finalize()
    }

    // MARK: Private

    private func append(kind: UInt8, _ value: UnsafeRawBufferPointer) {
        buffer.append(kind)
        appendDecimal(Int64(value.count))
        buffer.append(UInt8(ascii: ":"))
        if value.count > Self.flushAt {
            flush()
            hasher.update(value)
        } else {
            buffer.append(contentsOf: value)
            flushIfFull()
        }
    }

    private func appendDecimal(_ value: Int64) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[start...].reverse()
    }

    private func flushIfFull() {
        if buffer.count >= Self.flushAt { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { hasher.update($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A database's data-digest key (table `audit_key`): digests are HMAC-SHA256 under it.
public struct AuditKey: Sendable, Hashable {
    let bytes: [UInt8]

    /// Wraps a 32-byte key (tests; stores read theirs from `audit_key`).
    public init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "an audit key has 32 bytes")
        self.bytes = bytes
    }

    /// The version tag that starts every digested message.
    static let messageTag = "formulary-digest-v1\n"

    /// HMAC-SHA256 (RFC 2104) of the message `body` feeds after the version tag, in hex.
    func digest(_ body: (DigestFeed) -> Void) -> String {
        var block = bytes + [UInt8](repeating: 0, count: 64 - bytes.count)
        let inner = DigestFeed()
        inner.bytesRaw(block.map { $0 ^ 0x36 })
        inner.word(Self.messageTag)
        body(inner)
        let innerDigest = inner.finalize()
        for k in block.indices { block[k] ^= 0x5c }
        let outer = DigestFeed()
        outer.bytesRaw(block)
        outer.bytesRaw(innerDigest)
        return SHA256.hexString(outer.finalize())
    }
}

extension DigestFeed {
    /// Bytes as they are, without a length: only for HMAC's fixed-size blocks and digests.
    fileprivate func bytesRaw(_ value: [UInt8]) {
        for byte in value { tag(byte) }
    }
}
