/// The scalars that `uppercase`, `lowercase`, `capitalize` and `one-of … ignore-case`
/// change, with what they become: the standard library's full case mappings, scalar by
/// scalar, which is how `String.uppercased()` and `lowercased()` map a string (no context:
/// a final sigma lower-cases to `σ` like any other).
///
/// Made on first use by one pass over the scalars with the `changesWhen…` properties (tens
/// of milliseconds), only by comparisons of types that case-map.
enum CaseMappings {
    /// A scalar's mapping, when it is not the scalar itself.
    typealias Table = [UInt32: [UInt32]]

    static let upper: Table = scan(\.changesWhenUppercased) { $0.properties.uppercaseMapping }
    static let lower: Table = scan(\.changesWhenLowercased) { $0.properties.lowercaseMapping }
    /// Title case, of letters only: `capitalize` maps nothing else.
    static let title: Table = scan(\.changesWhenTitlecased) { s in
        isLetter(s) ? s.properties.titlecaseMapping : String(s)
    }

    private static func scan(_ changes: KeyPath<Unicode.Scalar.Properties, Bool>,
                             _ mapping: (Unicode.Scalar) -> String) -> Table {
        var table: Table = [:]
        for v in UInt32(0)...ScalarSet.maxScalar {
            guard let s = Unicode.Scalar(v), s.properties[keyPath: changes] else { continue }
            let mapped = mapping(s).unicodeScalars.map(\.value)
            if mapped != [v] { table[v] = mapped }
        }
        return table
    }
}
