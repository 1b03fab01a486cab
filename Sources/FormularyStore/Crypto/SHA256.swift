import CCrypto

/// SHA-256 (FIPS 180-4) computed by libcrypto's EVP digest API.
package enum SHA256 {
    /// Digest length in bytes.
    package static let byteCount = 32

    /// The digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    package static func hash(_ text: String) -> [UInt8] {
        hash(text.utf8)
    }

    /// The digest of `bytes` in lowercase hexadecimal (64 characters).
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// The digest of the UTF-8 bytes of `text` in lowercase hexadecimal.
    package static func hex(_ text: String) -> String {
        hexString(hash(text.utf8))
    }

    /// Lowercase hexadecimal spelling of `bytes`.
    package static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An incremental SHA-256: feed it bytes in pieces, then ``finalize()`` once.
    ///
    /// A non-copyable value owning its libcrypto context, so the context is freed exactly once.
    package struct Hasher: ~Copyable {
        private let context: OpaquePointer
        private var finished = false

        package init() {
            guard let context = EVP_MD_CTX_new(),
                  EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                // Only fails on allocation failure or a libcrypto without SHA-256.
                fatalError("libcrypto could not initialise SHA-256")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds raw bytes.
        package mutating func update(_ buffer: UnsafeRawBufferPointer) {
            precondition(!finished, "SHA256.Hasher used after finalize()")
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            EVP_DigestUpdate(context, base, buffer.count)
        }

        /// Adds `bytes`, in contiguous chunks when the sequence is not contiguous itself.
        package mutating func update(_ bytes: some Sequence<UInt8>) {
            let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
                update(UnsafeRawBufferPointer(buffer))
            }
            guard done == nil else { return }
            var chunk = [UInt8]()
            chunk.reserveCapacity(4096)
            for byte in bytes {
                chunk.append(byte)
                if chunk.count == 4096 {
                    chunk.withUnsafeBytes { update($0) }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            chunk.withUnsafeBytes { update($0) }
        }

        /// Adds the UTF-8 bytes of `text`.
        package mutating func update(_ text: String) {
            var text = text
            text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        }

        /// The digest of everything added. The hasher cannot be used afterwards.
        package mutating func finalize() -> [UInt8] {
            precondition(!finished, "SHA256.Hasher finalized twice")
            finished = true
            var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
            var length: UInt32 = 0
            digest.withUnsafeMutableBufferPointer {
                _ = EVP_DigestFinal_ex(context, $0.baseAddress, &length)
            }
            precondition(length == UInt32(SHA256.byteCount))
            return digest
        }
    }
}
