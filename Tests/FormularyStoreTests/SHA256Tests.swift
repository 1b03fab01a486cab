import Testing
@testable import FormularyStore

/// Test vectors of FIPS 180-4 / NIST's "SHA Examples" (SHA-256).
struct SHA256Tests {
    @Test func emptyMessage() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func message448Bits() {
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func message896Bits() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
            + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hex(message)
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionAs() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == expected)
        // The same message fed in uneven pieces through the incremental hasher.
        var hasher = SHA256.Hasher()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let count = min(piece, remaining)
            hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            remaining -= count
            piece = piece * 3 + 1
        }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
    }

    @Test func nonContiguousSequenceHashesLikeItsBytes() {
        let bytes = (0..<10_000).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(SHA256.hash(bytes) == SHA256.hash(Array(bytes)))
        #expect(SHA256.hash(bytes).count == 32)
        #expect(SHA256.hex("abc") != SHA256.hex("abd"))
    }
}
