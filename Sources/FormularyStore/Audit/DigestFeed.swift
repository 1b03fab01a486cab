/// The canonical encoding that data digests hash, fed into a SHA-256 through a buffer.
///
/// Each value is written so that no two sequences of values share an encoding:
/// an integer as `i<decimal>;`, a text as `t<byte count>:<UTF-8 bytes>`, bytes as
/// `b<byte count>:<bytes>`, a null as `n`, and single tag bytes between groups of values.
/// docs/storage.md ("Data digests") gives the exact sequence for each kind of record.
///
/// Buffered because the import path feeds every row: one libcrypto call per buffer instead of
/// five or six per row, and the buffer is raw memory so that a row costs a few stores. It is
/// allocated on the first write and freed by ``finalize()``: verification keeps one feed per
/// import, most of them finished early.
final class DigestFeed {
    // Unchecked exclusivity: a feed belongs to one thread and its methods never nest accesses
    // to these, while the runtime's check cost more than the buffered write it guarded.
    @exclusivity(unchecked) private var hasher = SHA256.Hasher()
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var count = 0
    private static let capacity = 4 * 1024
    /// The longest fixed-size piece: a kind byte, a sign, 20 digits and a terminator.
    private static let longestPiece = 24

    init() {}

    deinit { storage?.deallocate() }

    /// A single tag byte (an ASCII letter that starts a group).
    func tag(_ byte: UInt8) {
        let out = reserve(1)
        out[0] = byte
        count += 1
    }

    /// A fixed word as its UTF-8 bytes, for the words that start a message.
    func word(_ text: String) {
        var text = text
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    func int(_ value: Int64) {
        let out = reserve(Self.longestPiece)
        out[0] = UInt8(ascii: "i")
        var n = 1 + Self.writeDecimal(value, to: out + 1)
        out[n] = UInt8(ascii: ";")
        n += 1
        count += n
    }

    func int(_ value: Int) { int(Int64(value)) }

    func int(_ value: Int64?) {
        if let value { int(value) } else { null() }
    }

    func text(_ value: String?) {
        guard var value else { return null() }
        value.withUTF8 { counted(kind: UInt8(ascii: "t"), UnsafeRawBufferPointer($0)) }
    }

    func bytes(_ value: UnsafeRawBufferPointer) {
        counted(kind: UInt8(ascii: "b"), value)
    }

    func bytes(_ value: [UInt8]) {
        value.withUnsafeBytes { bytes($0) }
    }

    func null() { tag(UInt8(ascii: "n")) }

    /// Bytes as they are, without a length: only for fixed words, HMAC's blocks and digests.
    func raw(_ value: UnsafeRawBufferPointer) {
        guard value.count > 0 else { return }
        if value.count > Self.capacity {
            flush()
            hasher.update(value)
            return
        }
        let out = reserve(value.count)
        UnsafeMutableRawPointer(out).copyMemory(from: value.baseAddress!, byteCount: value.count)
        count += value.count
    }

    func raw(_ value: [UInt8]) {
        value.withUnsafeBytes { raw($0) }
    }

    /// The digest of everything fed. The feed cannot be used afterwards.
    func finalize() -> [UInt8] {
        flush()
        storage?.deallocate()
        storage = nil
        return hasher.finalize()
    }

    // MARK: Private

    private func counted(kind: UInt8, _ value: UnsafeRawBufferPointer) {
        let out = reserve(Self.longestPiece)
        out[0] = kind
        var n = 1 + Self.writeDecimal(Int64(value.count), to: out + 1)
        out[n] = UInt8(ascii: ":")
        n += 1
        count += n
        raw(value)
    }

    /// Room for `n` more bytes (n ≤ capacity), flushing first when needed.
    @inline(__always)
    private func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        guard let storage else {
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.capacity)
            self.storage = fresh
            return fresh
        }
        if count + n > Self.capacity { flush() }
        return storage + count
    }

    /// Writes `value` in decimal at `out`; returns the number of bytes written (at most 20).
    private static func writeDecimal(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            n = 1
        }
        var magnitude = value.magnitude
        let start = n
        repeat {
            out[n] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            n += 1
        } while magnitude > 0
        var (i, j) = (start, n - 1)
        while i < j {
            (out[i], out[j]) = (out[j], out[i])
            i += 1
            j -= 1
        }
        return n
    }

    private func flush() {
        guard let storage, count > 0 else { return }
        hasher.update(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }
}

/// A database's data-digest key (table `audit_key`): digests are HMAC-SHA256 under it.
package struct AuditKey: Sendable, Hashable {
    let bytes: [UInt8]

    /// Wraps a 32-byte key (tests; stores read theirs from `audit_key`).
    package init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "an audit key has 32 bytes")
        self.bytes = bytes
    }

    /// The version tag that starts every digested message.
    static let messageTag = "formulary-digest-v1\n"

    /// HMAC-SHA256 (RFC 2104) of the message `body` feeds after the version tag, in hex.
    func digest(_ body: (DigestFeed) -> Void) -> String {
        hmac { feed in
            feed.word(Self.messageTag)
            body(feed)
        }
    }

    /// HMAC-SHA256 of `message`, in hex.
    func hmac(_ message: [UInt8]) -> String {
        hmac { $0.raw(message) }
    }

    private func hmac(_ body: (DigestFeed) -> Void) -> String {
        var block = bytes + [UInt8](repeating: 0, count: 64 - bytes.count)
        let inner = DigestFeed()
        inner.raw(block.map { $0 ^ 0x36 })
        body(inner)
        let innerDigest = inner.finalize()
        for k in block.indices { block[k] ^= 0x5c }
        let outer = DigestFeed()
        outer.raw(block)
        outer.raw(innerDigest)
        return SHA256.hexString(outer.finalize())
    }
}
