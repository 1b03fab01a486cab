import Foundation
import FormularyRules

extension RegistrySnapshot {
    /// The locale a request is answered in, canonical, or nil for the server's own (the
    /// locale `formulary serve` was started with).
    ///
    /// A request's `locale` field (`"pt-BR"`) is taken as it is: a locale without catalogs
    /// gives the types' own texts. Else the ranges of `Accept-Language`, by weight (`q`),
    /// the first that the registry has catalogs for, itself or its language (`de-CH` is
    /// served by `de`), or whose language is `en`, the language of the built-in types' own
    /// texts; `*` and ranges of weight 0 are passed over. When none fits, nil.
    ///
    /// - Throws: ``ServiceError`` (bad input) for a `locale` field that names no locale.
    package func answerLocale(field: String?, acceptLanguage: String?) throws -> String? {
        if let field {
            guard let tag = LocaleTag.canonical(field) else {
                throw ServiceError(.badInput, "'locale' must be a locale such as de or pt-BR, not '\(field)'")
            }
            return tag
        }
        guard let acceptLanguage else { return nil }
        let available = Set(registry.locales)
        var ranges: [(tag: String, weight: Double, order: Int)] = []
        for (order, part) in acceptLanguage.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = pieces.first, let tag = LocaleTag.canonical(first) else { continue }
            var weight = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            if weight > 0 { ranges.append((tag, weight, order)) }
        }
        ranges.sort { ($0.weight, -$0.order) > ($1.weight, -$1.order) }
        return ranges.first { range in
            let chain = LocaleTag.fallbacks(of: range.tag)
            return chain.last == "en" || chain.contains(where: available.contains)
        }?.tag
    }
}
