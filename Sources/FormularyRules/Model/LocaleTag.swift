/// Locale tags as message catalogs are named and looked up: `de`, `pt-BR`, `zh-Hant-TW`.
///
/// What a user gives is read leniently (`pt_BR.UTF-8` from `LANG`, `PT-br`, `de-DE@euro`)
/// and written in one spelling: the language in lower case, a script capitalized, a region
/// in upper case. `C`, `POSIX` and text that is no tag give nil: no translation.
package enum LocaleTag {
    /// The tag `text` names, in its canonical spelling, or nil.
    package static func canonical(_ text: String) -> String? {
        var text = Substring(text)
        // `pt_BR.UTF-8@euro`: the encoding and modifier of a POSIX locale name say nothing
        // about the language.
        if let cut = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<cut] }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(isLetter) else {
            return nil
        }
        var out = language.lowercased()
        for part in parts.dropFirst() {
            if part.count == 4, part.allSatisfy(isLetter) {
                out += "-" + part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if part.count == 2, part.allSatisfy(isLetter) {
                out += "-" + part.uppercased()
            } else if part.count == 3, part.allSatisfy({ $0.isASCII && $0.isNumber }) {
                out += "-" + part
            } else {
                return nil
            }
        }
        return out
    }

    /// The tags a lookup for `tag` tries, most specific first: `pt-BR` then `pt`.
    package static func fallbacks(of tag: String) -> [String] {
        var chain = [tag]
        var rest = Substring(tag)
        while let dash = rest.lastIndex(of: "-") {
            rest = rest[..<dash]
            chain.append(String(rest))
        }
        return chain
    }

    /// The locale a `NAME.messages` file is for, from its path; nil when the name is no
    /// canonical tag (`de.messages`, not `DE.messages` or `german.messages`).
    package static func ofCatalogFile(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasSuffix(MessageFile.fileExtension) else { return nil }
        let stem = String(name.dropLast(MessageFile.fileExtension.count))
        return canonical(stem) == stem ? stem : nil
    }

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }
}
