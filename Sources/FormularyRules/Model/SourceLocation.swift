/// A place in a plugin or form file, for diagnostics.
///
/// `line` and `column` are 1-based; `column` counts characters (extended grapheme
/// clusters) so that a caret printed under the source line lines up with what a
/// person sees. `length` is the token's width in the same unit (at least 1).
public struct SourceLocation: Sendable, Hashable, Codable {
    /// The file name as diagnostics show it.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in characters.
    public var column: Int
    /// The width of what is pointed at, in characters (at least 1).
    public var length: Int

    /// Makes a location.
    public init(file: String, line: Int, column: Int, length: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
        self.length = max(1, length)
    }
}
