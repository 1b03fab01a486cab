#if canImport(Glibc)
import Glibc
#endif
import FormularyJSON

/// The Unicode data formulary.js needs to agree with this engine, as this engine's standard
/// library has it: the general categories the engine asks about (letters, marks,
/// punctuation, space separators) and the title-case mappings that differ from upper-casing.
/// `--tables FILE` writes them into formulary.js; unicode.json holds them (and every case
/// mapping, and grapheme boundaries of seeded strings) for the tests to compare.
enum UnicodeTables {
    static let categories: [(name: String, test: @Sendable (Unicode.GeneralCategory) -> Bool)] = [
        ("L", { [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter].contains($0) }),
        ("M", { [.nonspacingMark, .spacingMark, .enclosingMark].contains($0) }),
        ("P", { [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation].contains($0) }),
        ("Zs", { $0 == .spaceSeparator }),
    ]

    static var scalars: some Sequence<Unicode.Scalar> {
        (UInt32(0)...0x10FFFF).lazy.compactMap { Unicode.Scalar($0) }
    }

    /// Each category's scalars as inclusive ranges.
    static func ranges() -> [[(Int, Int)]] {
        var out = [[(Int, Int)]](repeating: [], count: categories.count)
        for s in scalars {
            let category = s.properties.generalCategory
            for (k, c) in categories.enumerated() where c.test(category) {
                let v = Int(s.value)
                if let last = out[k].last, last.1 == v - 1 { out[k][out[k].count - 1].1 = v } else { out[k].append((v, v)) }
            }
        }
        return out
    }

    /// Scalars whose title-case mapping is not their upper-case mapping (`ǆ` → `ǅ`, not `Ǆ`).
    static func titlecase() -> [(Int, String)] {
        scalars.compactMap { s in
            let p = s.properties
            return p.titlecaseMapping == p.uppercaseMapping ? nil : (Int(s.value), p.titlecaseMapping)
        }
    }

    /// Base-32 digits, most significant first: the last of a number from `terminal`, the
    /// others from `continuation`, so numbers need no separator.
    static let terminal = Array("0123456789abcdefghijklmnopqrstuv"), continuation = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ()*+-.")

    static func encoded(_ ranges: [(Int, Int)]) -> String {
        var end = -1
        var out = ""
        func number(_ n: Int) {
            var digits = [n % 32]
            var rest = n / 32
            while rest > 0 { digits.append(rest % 32); rest /= 32 }
            for (k, d) in digits.enumerated().reversed() { out.append(k == 0 ? terminal[d] : continuation[d]) }
        }
        for (start, last) in ranges {
            number(start - end)
            number(last - start)
            end = last
        }
        return out
    }

    static func javaScript() -> String {
        let tables = ranges().map { "\"" + encoded($0) + "\"" }.joined(separator: ",\n  ")
        // `HEX:MAPPING`, or `FIRST-LAST` (or `HEX`) for scalars whose title case is themselves.
        var entries: [String] = []
        var run: (Int, Int)?
        func flush() {
            guard let (a, b) = run else { return }
            entries.append(hex(a) + (a == b ? "" : "-" + hex(b)))
            run = nil
        }
        for (value, mapping) in titlecase() {
            if mapping == String(Unicode.Scalar(UInt32(value))!) {
                if let (a, b) = run, b == value - 1 { run = (a, value) } else { flush(); run = (value, value) }
            } else {
                flush()
                entries.append(hex(value) + ":" + mapping)
            }
        }
        flush()
        return "const CATEGORY_TABLES = [\n  \(tables),\n];\nconst TITLECASE = \"\(entries.joined(separator: ","))\";\n"
    }

    static func hex(_ value: Int) -> String { String(value, radix: 16, uppercase: true) }

    /// Replaces the lines between `// BEGIN UNICODE TABLES` and `// END UNICODE TABLES`.
    static func rewrite(_ path: String) {
        guard let file = fopen(path, "r") else { FileOutput.fail("cannot read \(path)") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        fclose(file)
        let text = String(decoding: bytes, as: UTF8.self)
        guard let begin = text.range(of: "// BEGIN UNICODE TABLES\n"), let end = text.range(of: "// END UNICODE TABLES") else {
            FileOutput.fail("\(path) has no BEGIN/END UNICODE TABLES markers")
        }
        let updated = String(text[..<begin.upperBound]) + javaScript() + String(text[end.lowerBound...])
        FileOutput.write(path, Array(updated.utf8))
        print("wrote the Unicode tables into \(path)")
    }

    /// unicode.json: the tables as ranges, every scalar whose case mappings are not itself,
    /// and grapheme boundaries (UTF-16 offsets) of seeded strings.
    static func document(_ random: inout SeededRandom) -> JSONValue {
        let all = ranges()
        var categories = JSONObject()
        for (k, c) in Self.categories.enumerated() {
            categories[c.name] = .array(all[k].map { [.integer($0.0), .integer($0.1)] })
        }
        var cases: [JSONValue] = []
        for s in scalars {
            let p = s.properties
            let itself = String(s)
            if p.uppercaseMapping != itself || p.lowercaseMapping != itself || p.titlecaseMapping != itself {
                cases.append([.integer(Int(s.value)), .string(p.uppercaseMapping), .string(p.lowercaseMapping),
                              .string(p.titlecaseMapping)])
            }
        }
        let pool = ValuePool.unicode + ValuePool.separators + ["a", "1", "\r", "\n", "\u{1F3FB}", "\u{FE0F}", "\u{20E3}",
                                                               "\u{1F1E6}", "\u{0E33}", "\u{0600}", "\u{093F}"]
        var graphemes: [JSONValue] = []
        for _ in 0..<4_000 {
            var s = ""
            for _ in 0..<random.int(1...8) { s += random.pick(pool) }
            graphemes.append([.string(s), .array(s.characterBounds.map { .integer($0) })])
        }
        return ["categories": .object(categories), "titlecase": .array(titlecase().map { [.integer($0.0), .string($0.1)] }),
                "cases": .array(cases), "graphemes": .array(graphemes)]
    }
}
