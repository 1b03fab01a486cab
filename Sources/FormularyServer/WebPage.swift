/// The page `formulary serve` answers at `/`: the HTML, CSS and JavaScript of `web/`,
/// compiled into the binary (``WebPageFiles``, written by `scripts/embed.sh`), so that a
/// server needs no files beside it and the page makes no request outside the server.
///
/// The page holds no data: everything it shows it asks of the `/v1` API with the reader's
/// token, so serving it needs none.
enum WebPage {
    /// The path each file is served at, and its media type.
    static let routes: [String: (file: String, mediaType: String)] = [
        "/": ("index.html", "text/html; charset=utf-8"),
        "/index.html": ("index.html", "text/html; charset=utf-8"),
        "/assets/formulary.css": ("formulary.css", "text/css; charset=utf-8"),
        "/assets/formulary.js": ("formulary.js", "text/javascript; charset=utf-8"),
    ]

    /// Scripts only from the server itself; inline styles allowed because a run's HTML
    /// report (shown in a frame made from its text) carries its own `<style>`.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "img-src 'self' data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'"

    /// The answers, built once: the files never change while the server runs.
    static let responses: [String: HTTPResponse] = {
        var answers: [String: HTTPResponse] = [:]
        for (path, route) in routes {
            guard let file = WebPageFiles.files.first(where: { $0.name == route.file }) else { continue }
            answers[path] = HTTPResponse(status: 200, headers: [
                ("Content-Type", route.mediaType),
                ("Cache-Control", "no-cache"),
                ("Content-Security-Policy", contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
            ], body: Array(file.text.utf8))
        }
        return answers
    }()

    /// The page's answer to `GET path`, or nil when `path` is not one of the page's files.
    static func response(method: String, path: String) -> HTTPResponse? {
        method == "GET" ? responses[path] : nil
    }
}
