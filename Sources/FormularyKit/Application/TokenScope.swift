/// What a token may do: `read` the registry, also `submit` entries, or also change it
/// (`admin`).
public enum TokenScope: String, Sendable, CaseIterable, Comparable {
    case read, submit, admin

    /// `read` < `submit` < `admin`.
    public static func < (a: TokenScope, b: TokenScope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
