import FormularyRules

/// The escaping every report format needs, in one place so that each rule is tested once.
package enum ReportEscaping {
    /// Text for HTML element content and attribute values: `&`, `<`, `>`, `"` and `'` become
    /// character references, so no message or key can open a tag or leave an attribute.
    package static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One CSV cell (RFC 4180), safe to open in a spreadsheet.
    ///
    /// A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with
    /// `'`, which spreadsheets show but do not evaluate: otherwise a message such as
    /// `=HYPERLINK(…)` taken from imported data would run as a formula ("CSV injection").
    /// So is a cell whose first `=`, `+`, `-` or `@` follows only invisible characters —
    /// spaces, line breaks, other whitespace, control and format characters such as U+200B —
    /// because spreadsheets trim those and then evaluate what is left.
    /// Then a cell containing a comma, a double quote, CR or LF is quoted, with quotes doubled.
    package static func csvCell(_ text: String) -> String {
        var cell = text
        if startsLikeAFormula(cell) { cell = "'" + cell }
        let needsQuotes = cell.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return cell }
        return "\"" + cell.replacingAll("\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet could take `cell` for a formula: see ``csvCell(_:)``.
    static func startsLikeAFormula(_ cell: String) -> Bool {
        guard let first = cell.unicodeScalars.first else { return false }
        if first == "\t" || first == "\r" { return true }
        // Only the leading invisible run is looked at, so an ordinary cell costs one scalar.
        guard let visible = cell.unicodeScalars.first(where: { !isInvisible($0) }) else { return false }
        return visible == "=" || visible == "+" || visible == "-" || visible == "@"
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    /// One CSV record: the cells escaped, joined with commas, ended with CRLF (RFC 4180).
    package static func csvRecord(_ cells: [String]) -> String {
        cells.map(csvCell).joined(separator: ",") + "\r\n"
    }

    /// Text for a terminal: control characters (C0, DEL, C1) and bidirectional controls
    /// (U+202E and the like) are written as escapes (`\n`, `\t`, `\u{1B}`, `\u{202E}`), so
    /// that data can neither break the table's alignment, nor send escape sequences to the
    /// terminal, nor display a line in an order other than its own (`TerminalText`).
    package static func terminal(_ text: String) -> String {
        TerminalText.escaped(text)
    }
}

extension String {
    /// Every occurrence of the scalar `target` replaced. Scalars, not characters: a quote
    /// followed by a combining mark is one `Character` but still a quote to a CSV reader.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
