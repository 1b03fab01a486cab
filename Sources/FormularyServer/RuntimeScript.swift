import Foundation

/// formulary.js (`runtime/js`), served at `/v1/runtime/formulary.js` so that a page runs the
/// registry's types itself (docs/javascript.md): compiled into the binary
/// (``RuntimeFiles``, written by `scripts/embed.sh`) like the page's files.
///
/// It holds no data, so it needs no token; it is the same file for every client until the
/// server is upgraded, so it carries an `ETag` (a digest of its bytes) and answers
/// `If-None-Match` with 304, and any origin may import it (`Access-Control-Allow-Origin: *`:
/// a module script is fetched with CORS).
enum RuntimeScript {
    static let path = "/v1/runtime/formulary.js"

    static let bytes: [UInt8] = Array((RuntimeFiles.files.first { $0.name == "formulary.js" }?.text ?? "").utf8)

    /// `"fnv1a64-HEX"`: the 64-bit FNV-1a digest of the file, quoted.
    static let etag: String = {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let hex = String(hash, radix: 16)
        return "\"fnv1a64-" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }()

    static let headers: [(name: String, value: String)] = [
        ("ETag", etag),
        // Cached, and revalidated before each use: an upgraded server serves its new runtime at once.
        ("Cache-Control", "public, no-cache"),
        ("Access-Control-Allow-Origin", "*"),
        ("X-Content-Type-Options", "nosniff"),
    ]

    /// The answer to `GET` (or `HEAD`) of ``path``: the file, or 304 when `If-None-Match`
    /// names its ETag (or `*`).
    static func response(ifNoneMatch: String?) -> HTTPResponse {
        if let sent = ifNoneMatch,
           sent.split(separator: ",").contains(where: { let t = $0.trimmingCharacters(in: .whitespaces); return t == etag || t == "*" || t == "W/" + etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")] + headers, body: bytes)
    }
}
