/// `if $NAME = "VALUE"` on a check line: the check applies only when the string parameter
/// NAME has the value VALUE, which is decided when the type is compiled with its arguments
/// (`phone-intl(region: "GB")` keeps the line `… if $region = "GB"` and leaves out the other
/// regions'). A check whose condition does not hold does not run at all: it never fails, in
/// either stage.
package struct RuleCondition: Sendable, Hashable {
    /// The string parameter the condition reads, without the `$`.
    package var parameter: String
    /// The value it must have.
    package var value: String
    /// Where the `$NAME` stands.
    package var location: SourceLocation

    /// Makes a condition.
    package init(parameter: String, value: String, location: SourceLocation) {
        self.parameter = parameter
        self.value = value
        self.location = location
    }

    /// Whether the condition holds for the bound parameter values.
    package func holds(_ values: [String: ParameterValue]) -> Bool {
        values[parameter]?.text == value
    }
}

extension FieldTypeDefinition {
    /// The values each string parameter that some check's `if` reads may take: its default
    /// and every value an `if` compares it with, in order of first appearance. A type
    /// reference giving such a parameter another value is an error (`phone-intl(region:
    /// "ZZ")`), not a silent "no check applies".
    package var parameterChoices: [String: [String]] {
        var choices: [String: [String]] = [:]
        for check in checks {
            guard let condition = check.options.condition else { continue }
            if choices[condition.parameter] == nil {
                let initial = parameters.first { $0.name == condition.parameter }?.defaultValue.text
                choices[condition.parameter] = initial.map { [$0] } ?? []
            }
            if !choices[condition.parameter]!.contains(condition.value) {
                choices[condition.parameter]!.append(condition.value)
            }
        }
        return choices
    }
}

extension FieldTypeDefinition {
    /// The names of the type's masks (their `as NAME`, `mask` unless renamed), each once, in
    /// order: what `mask-one-of` may name.
    package var maskNames: [String] {
        var names: [String] = []
        for mask in masks where !names.contains(mask.options.name) { names.append(mask.options.name) }
        return names
    }

    /// The string parameters a `mask-one-of $NAME` reads, each with the mask names its value
    /// may list (separated by spaces): `credit-card(brands: "visa mastercard")`.
    package var parameterWordChoices: [String: [String]] {
        var choices: [String: [String]] = [:]
        for check in checks {
            if case .maskOneOf(.parameter(let name, _)) = check.kind { choices[name] = maskNames }
        }
        return choices
    }
}
