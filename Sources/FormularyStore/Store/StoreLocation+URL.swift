extension StoreLocation {
    /// Whether `text` is a PostgreSQL URL (`postgres://…` or `postgresql://…`). Told by the
    /// scheme alone, so that a program without the PostgreSQL module still tells a server's
    /// URL from a file's path, and says what it lacks.
    package static func isServerURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// `url` with its password, if any, replaced by `•••` (`postgres://ann:secret@h/db` →
    /// `postgres://ann:•••@h/db`; also a `password=` query parameter), so that a message shows
    /// that the URL holds one without showing it.
    package static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                authority = String(userInfo[..<colon]) + ":•••" + String(authority[at...])
            }
        }
        var tail = String(rest[authorityEnd...])
        if let question = tail.firstIndex(of: "?") {
            let query = tail[tail.index(after: question)...].split(separator: "&")
                .map { $0.lowercased().hasPrefix("password=") ? "password=•••" : $0 }
            tail = String(tail[..<question]) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        }
        return String(url[..<schemeEnd.upperBound]) + authority + tail
    }
}
