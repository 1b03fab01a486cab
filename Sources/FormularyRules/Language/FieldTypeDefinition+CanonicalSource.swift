extension FieldTypeDefinition {
    /// The resolved definition as a `.field` text: one directive per line, no comments, a
    /// fixed order (header, descriptive directives, parameters, normalization, mask,
    /// checks, examples), defaults left out and strings escaped.
    ///
    /// It describes the type itself, so the header is `field NAME` without `extends`:
    /// parsing and resolving the text gives back this definition except for its
    /// locations and its `bases`. Being deterministic, it is what a type's version hash is
    /// computed from.
    package var canonicalSource: String {
        var lines = ["field \(name)"]
        if let label { lines.append("label \(Canonical.quote(label))") }
        if let help { lines.append("help \(Canonical.quote(help))") }
        if let placeholder { lines.append("placeholder \(Canonical.quote(placeholder))") }
        if let keyboard { lines.append("keyboard \(keyboard.rawValue)") }
        if let autocapitalize { lines.append("autocapitalize \(autocapitalize.rawValue)") }
        // Only a type that declares it prints the line, so other types keep their hashes.
        if let autocomplete { lines.append("autocomplete \(autocomplete.rawValue)") }
        if secure { lines.append("secure") }
        if let timing { lines.append("timing \(timing.rawValue)") }
        // Only a type that declares it prints the line, so other types keep their hashes.
        if let decimalSeparator { lines.append("decimal-separator \(Canonical.quote(decimalSeparator.rawValue))") }
        for parameter in parameters {
            lines.append("param \(parameter.name) = \(Canonical.value(parameter.defaultValue))")
        }
        if !normalization.isEmpty {
            lines.append("normalize " + normalization.map(Self.spell).joined(separator: " "))
        }
        // One line per mask; a single unconditional mask reads as it always has, so the
        // version hashes of existing types do not change. `drop NAME` follows the last mask
        // of a name whose fill check is off (a drop reaches every earlier mask of the name).
        for (k, mask) in masks.enumerated() {
            let condition = mask.condition.map { " when " + Canonical.regex($0.source, $0.flags) } ?? ""
            lines.append("mask \(Canonical.quote(mask.pattern))" + condition
                         + Canonical.modifiers(mask.options, defaultName: "mask"))
            if !mask.checksFill, !masks[(k + 1)...].contains(where: { $0.options.name == mask.options.name }) {
                lines.append("drop \(mask.options.name)")
            }
        }
        for check in checks {
            lines.append(Self.spell(check.kind) + Canonical.modifiers(check.options, defaultName: check.kind.keyword))
        }
        for example in examples {
            var line = example.expectation.isAccept ? "accept" : "reject"
            if example.live { line += " live" }
            line += " " + Canonical.quote(example.value)
            switch example.expectation {
            case .accept(let formats): if let formats { line += " formats " + Canonical.quote(formats) }
            case .reject(let rules): line += " " + rules.joined(separator: " ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func spell(_ step: NormalizeStep) -> String {
        switch step {
        case .trim: "trim"
        case .collapseSpaces: "collapse-spaces"
        case .stripSpaces: "strip-spaces"
        case .strip(let characters): "strip " + Canonical.quote(characters)
        case .uppercase: "uppercase"
        case .lowercase: "lowercase"
        case .capitalize: "capitalize"
        }
    }

    static func spell(_ kind: CheckKind) -> String {
        switch kind {
        case .length(let range, let unit):
            let text = "length " + Canonical.range(range) { String($0) }
            return unit == .graphemes ? text : text + " " + unit.rawValue
        case .integer:
            return "integer"
        case .decimal(let places):
            return places.map { "decimal places " + Canonical.arg($0) { String($0) } } ?? "decimal"
        case .range(let range):
            return "range " + Canonical.range(range) { $0.text }
        case .pattern(let source, let flags, let negated):
            return (negated ? "pattern not " : "pattern ") + Canonical.regex(source, flags)
        case .charset(let classes):
            return "charset " + classes.map { charsetClass -> String in
                switch charsetClass {
                case .digits: "digits"
                case .letters: "letters"
                case .marks: "marks"
                case .spaces: "spaces"
                case .punctuation: "punctuation"
                case .alphanumerics: "alphanumerics"
                case .literal(let characters): Canonical.quote(characters)
                }
            }.joined(separator: " ")
        case .oneOf(let options, let ignoreCase):
            return "one-of " + options.map(Canonical.quote).joined(separator: " ") + (ignoreCase ? " ignore-case" : "")
        case .date(let format, let range):
            return "date " + Canonical.quote(format) + (range.map { " " + Canonical.range($0, Canonical.dateBound) } ?? "")
        case .checksum(let algorithm):
            return "checksum " + algorithm.rawValue
        case .maskOneOf(.value(let names)):
            return "mask-one-of " + names.map(Canonical.quote).joined(separator: " ")
        case .maskOneOf(.parameter(let name, _)):
            return "mask-one-of $" + name
        }
    }
}

extension Example.Expectation {
    var isAccept: Bool {
        if case .accept = self { return true }
        return false
    }
}

extension FormDefinition {
    /// The form as a `.form` text: one directive per line, no comments, strings escaped.
    /// Parsing it gives back this form except for locations.
    package var canonicalSource: String {
        var lines = ["form \(name)"]
        if let label { lines.append("label \(Canonical.quote(label))") }
        for field in fields {
            var line = "field \(field.key) \(field.type.name)"
            if !field.type.arguments.isEmpty {
                line += "(" + field.type.arguments.map { "\($0.name): \(Canonical.value($0.value))" }
                    .joined(separator: ", ") + ")"
            }
            if field.required { line += " required" }
            if let message = field.requiredMessage { line += " message " + Canonical.quote(message) }
            if let label = field.label { line += " label " + Canonical.quote(label) }
            if let timing = field.timing { line += " timing " + timing.rawValue }
            lines.append(line)
        }
        for rule in rules {
            switch rule.kind {
            case .same(let a, let b):
                lines.append("same \(a) \(b)" + Canonical.modifiers(rule.options, defaultName: "same", allowFinal: false))
            case .require(let fields, let trigger):
                lines.append("require \(fields.joined(separator: " ")) when \(trigger)"
                             + Canonical.modifiers(rule.options, defaultName: "require", allowFinal: false))
            case .compare(let a, let op, let b):
                lines.append("compare \(a) \(op.rawValue) \(b)"
                             + Canonical.modifiers(rule.options, defaultName: "compare", allowFinal: false))
            case .unique(let fields):
                lines.append("unique \(fields.joined(separator: ", "))"
                             + Canonical.modifiers(rule.options, defaultName: "unique", allowFinal: false))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
