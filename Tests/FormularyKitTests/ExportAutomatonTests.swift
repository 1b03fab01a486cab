import Foundation
import Testing
import FormularyJSON
@testable import FormularyRules
@testable import FormularyKit

/// Other runtimes execute the exported automata; this is one, written from docs/export.md
/// alone ("Patterns and their automata"), run against the engine. For every built-in type,
/// on its self-test values, their prefixes, mutations and random strings, in both stages:
/// each exported `pattern` check passes exactly when the engine's check does, and each mask's
/// exported `when` selects exactly when the engine's condition does.
@Suite struct ExportAutomatonTests {
    /// An exported automaton as the document spells it.
    struct Exported {
        var kind: String
        var start: [Int]
        var accepting: Set<Int>
        var universal: Set<Int>
        var transitions: [[(first: UInt32, last: UInt32, target: Int)]]

        init?(_ json: JSONValue?) {
            guard let json, let kind = json["kind"]?.stringValue,
                  let start = json["start"]?.arrayValue?.compactMap(\.intValue),
                  let accepting = json["accepting"]?.arrayValue?.compactMap(\.intValue),
                  let universal = json["universal"]?.arrayValue?.compactMap(\.intValue),
                  let states = json["transitions"]?.arrayValue else { return nil }
            self.kind = kind
            self.start = start
            self.accepting = Set(accepting)
            self.universal = Set(universal)
            transitions = states.map { state in
                (state.arrayValue ?? []).map { t in
                    let v = t.arrayValue?.compactMap(\.intValue) ?? [0, -1, 0]
                    return (UInt32(v[0]), UInt32(v[1]), v[2])
                }
            }
        }

        /// The set after `text`, scalar by scalar (empty: no continuation can match).
        func run(_ text: String) -> Set<Int> {
            var set = Set(start)
            for scalar in text.unicodeScalars {
                var next = Set<Int>()
                for state in set {
                    for (first, last, target) in transitions[state] where first <= scalar.value && scalar.value <= last {
                        next.insert(target)
                    }
                }
                set = next
                if set.isEmpty { break }
            }
            return set
        }

        /// A `pattern` check (`negate` for `pattern not`) on the prepared value.
        func passes(_ text: String, negate: Bool, live: Bool) -> Bool {
            let set = run(text)
            let matches = !set.isDisjoint(with: accepting)
            if !live { return matches != negate }
            if matches != negate { return true }   // valid already
            if negate { return kind != "dfa" || set.isDisjoint(with: universal) }
            return !set.isEmpty
        }

        /// A mask's `when` on slot characters.
        func selects(_ slots: String, live: Bool) -> Bool {
            if live && slots.isEmpty { return true }
            let set = run(slots)
            return live ? !set.isEmpty : !set.isDisjoint(with: accepting)
        }
    }

    static let today = CivilDate(iso: "2026-11-29")!

    @Test func everyExportedAutomatonAgreesWithTheEngine() throws {
        let registry = try Registry.load(folders: [], extraFiles: [])
        let document = RegistryExport.make(registry, today: Self.today).document
        var rng = SplitMix64(seed: 0xE7)
        var automata = 0
        for name in registry.typeNames {
            guard case .success(let definition)? = registry.definition(named: name),
                  case .success(let type) = registry.compile(TypeReference(name: name, location: SourceLocation(file: "t", line: 1, column: 1)),
                                                              today: Self.today),
                  let exported = document["types"]?.arrayValue?.first(where: { $0["name"]?.stringValue == name })
            else { Issue.record("\(name) is not exported"); continue }
            let values = Self.values(definition.examples.map(\.value), &rng)
            for (index, check) in definition.checks.enumerated() {
                guard case .pattern(_, _, let negated) = check.kind else { continue }
                let arguments = exported["checks"]?[index]?["arguments"]
                let automaton = try #require(Exported(arguments?["automaton"]), "\(name) \(check.options.name)")
                #expect(arguments?["negate"]?.boolValue == negated)
                automata += 1
                // A check kept only under `if $NAME = "VALUE"` is judged by the type compiled
                // with that argument, as the export's `if` tells a runtime to do.
                var type = type
                if let condition = check.options.condition {
                    #expect(exported["checks"]?[index]?["if"]?["parameter"]?.stringValue == condition.parameter)
                    #expect(exported["checks"]?[index]?["if"]?["equals"]?.stringValue == condition.value)
                    let argument = TypeReference.Argument(name: condition.parameter, value: .string(condition.value), location: .unknown)
                    type = try registry.compile(TypeReference(name: name, arguments: [argument], location: .unknown), today: Self.today).get()
                }
                for value in values where !value.allSatisfy(\.isWhitespace) {
                    for stage in [Stage.final, .live] where stage == .final || !check.options.finalOnly {
                        let prepared = type.format(value, stage: stage)
                        let engine = !type.validate(value, stage: stage).violations.contains { $0.rule == check.options.name }
                        let runtime = automaton.passes(prepared, negate: negated, live: stage == .live)
                        #expect(engine == runtime, "\(name) \(check.options.name) \(stage) on \(value.debugDescription)")
                    }
                }
            }
            var conditions = 0
            for (index, mask) in definition.masks.enumerated() where mask.condition != nil {
                let automaton = try #require(Exported(exported["masks"]?[index]?["when"]?["automaton"]), "\(name) mask \(index)")
                automata += 1
                let choice = type.choices[conditions]
                conditions += 1
                for value in values {
                    let slots = String(value.unicodeScalars.filter { $0.isASCII ? $0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                                                : $0.properties.generalCategory.isLetter })
                    for live in [false, true] {
                        var bytes = slots
                        let engine = bytes.withUTF8 { b in
                            Scratch.withCurrent { choice.selects(b, scalars: slots.unicodeScalars.count, live: live, scratch: $0) }
                        }
                        #expect(engine == automaton.selects(slots, live: live), "\(name) when #\(index) on \(slots.debugDescription)")
                    }
                }
            }
        }
        #expect(automata >= 18)
    }

    /// The examples, every prefix of them, and random mutations and strings of their
    /// characters and a few others.
    static func values(_ examples: [String], _ rng: inout SplitMix64) -> [String] {
        var values = examples
        for example in examples {
            let scalars = Array(example.unicodeScalars)
            for n in 0..<scalars.count { values.append(String(String.UnicodeScalarView(scalars[..<n]))) }
        }
        var alphabet = Array(Set(examples.flatMap(\.unicodeScalars)))
        alphabet += ["a", "Z", "0", "9", " ", "-", ".", "@", "é", "ж", "\u{7}", "🙂"]
        alphabet.sort { $0.value < $1.value }
        for _ in 0..<200 {
            var scalars = Array((values.randomElement(using: &rng) ?? "").unicodeScalars)
            let position = Int.random(in: 0...scalars.count, using: &rng)
            scalars.insert(alphabet.randomElement(using: &rng)!, at: position)
            values.append(String(String.UnicodeScalarView(scalars)))
        }
        for _ in 0..<200 {
            let length = Int.random(in: 1...20, using: &rng)
            values.append(String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &rng)! })))
        }
        return values
    }
}

extension Unicode.GeneralCategory {
    var isLetter: Bool {
        [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter].contains(self)
    }
}
