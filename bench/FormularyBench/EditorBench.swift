import FormularyKit
import FormularyRules

/// `FieldEditor` keystroke by keystroke, as an app's text field calls it: an empty field
/// of a built-in type, then each character of a value typed with `insert` (format, caret,
/// live verdict), over and over. Prints nanoseconds per keystroke (target: under 5 µs),
/// and per backspace while deleting it again. One core, release build.
func runEditorBench(rounds: Int = 20_000) {
    let registry = Registry(files: Registry.builtinFiles)
    let today = CivilDate(year: 2026, month: 11, day: 29)
    let cases = [("credit-card", "4111111111111111"), ("exp-date", "1230"), ("phone", "5551234567")]
    for (name, value) in cases {
        guard case .success(let type) = registry.compile(TypeReference(name: name, location: .unknown), today: today) else {
            print("editor: cannot compile \(name)")
            return
        }
        let keys = value.map(String.init)
        var accepted = 0
        let typing = Timing.fastest {
            for _ in 0..<rounds {
                var field = FieldEditor(type: type)
                for key in keys where field.insert(key).accepted { accepted += 1 }
            }
        }
        var deleted = 0
        var full = FieldEditor(type: type)
        full.setText(value)
        let deleting = Timing.fastest {
            for _ in 0..<rounds {
                var field = full
                while field.caret > 0 { field.deleteBackward(); deleted += 1 }
            }
        }
        // The live verdict alone, of the same texts: what every keystroke pays at least.
        var prefixes: [String] = []
        var probe = FieldEditor(type: type)
        for key in keys { probe.insert(key); prefixes.append(probe.text) }
        var valid = 0
        let judging = Timing.fastest {
            for _ in 0..<rounds {
                for text in prefixes where type.validate(text, stage: .live).verdict == .valid { valid += 1 }
            }
        }
        let perVerdict = Timing.seconds(judging) * 1e9 / Double(rounds * keys.count)
        let perKey = Timing.seconds(typing) * 1e9 / Double(rounds * keys.count)
        let perDelete = Timing.seconds(deleting) * 1e9 / Double(max(deleted / 3, 1))
        print("editor \(name.padding(toLength: 12, withPad: " ", startingAt: 0)) "
              + "\(Timing.rounded(perKey, 0)) ns per insert keystroke, "
              + "\(Timing.rounded(perDelete, 0)) ns per deleteBackward, "
              + "\(Timing.rounded(perVerdict, 0)) ns of it the live verdict "
              + "(\(keys.count) keys → \(full.text.debugDescription), \(accepted / (3 * rounds)) accepted)")
    }
}
