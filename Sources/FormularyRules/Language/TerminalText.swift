/// Text made safe to print on a terminal. Shared by diagnostics (in this module) and by
/// every text output of the command line (through `ReportEscaping.terminal`), so that one
/// rule decides what a terminal may receive.
package enum TerminalText: Sendable {
    /// `text` with control characters (C0, DEL, C1) and bidirectional controls (U+202E and
    /// the like) written as escapes — `\n`, `\r`, `\t`, `\u{1B}`, `\u{202E}` — so that data
    /// can neither break a table's alignment, nor send escape sequences to the terminal,
    /// nor display a line in an order other than its own. With `keepingTabs`, a tab stays a
    /// tab (harmless to a terminal; diagnostics copy the tabs of a source line to put the
    /// caret under its token).
    package static func escaped(_ text: String, keepingTabs: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { acts($0) && !(keepingTabs && $0 == "\t") }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t" where keepingTabs: out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where acts(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether a terminal acts on the scalar instead of showing it: a C0 or C1 control,
    /// DEL, or a bidirectional control (Arabic letter mark, LRM/RLM, embeddings, overrides,
    /// isolates).
    package static func acts(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
