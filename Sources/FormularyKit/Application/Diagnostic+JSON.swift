import FormularyJSON
import FormularyRules

/// A diagnostic in JSON, the one shape every JSON output that carries diagnostics uses
/// (`types lint --format json` first), so a program reads them the same way everywhere.
extension Diagnostic: JSONObjectRepresentable {
    /// `{"id", "domain", "severity", "message", "file", "line", "column", "fix_its",
    /// "notes"}`. `message` is the text as printed (suggestions included); `fix_its` and
    /// `notes` give the suggestions and hints apart: a fix-it with the range it replaces
    /// (`file`, `line`, `column`, `length` in characters) and its `replacement`, a note with
    /// its `message` and, when it points somewhere, `file`, `line` and `column`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("id", id.rawValue)
        o.field("domain", id.domain.rawValue)
        o.field("severity", severity.rawValue)
        o.field("message", text)
        o.field("file", location.file)
        o.field("line", location.line)
        o.field("column", location.column)
        o.array("fix_its") { a in
            for fixIt in fixIts {
                a.object { f in
                    f.field("message", fixIt.message)
                    f.field("file", fixIt.range.file)
                    f.field("line", fixIt.range.line)
                    f.field("column", fixIt.range.column)
                    f.field("length", fixIt.range.length)
                    f.field("replacement", fixIt.replacement)
                }
            }
        }
        o.array("notes") { a in
            for note in notes {
                a.object { n in
                    n.field("message", note.message)
                    if let location = note.location {
                        n.field("file", location.file)
                        n.field("line", location.line)
                        n.field("column", location.column)
                    }
                }
            }
        }
    }
}
