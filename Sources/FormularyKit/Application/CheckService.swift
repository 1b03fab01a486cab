import FormularyJSON
import FormularyRules

/// Values judged and formatted with one field type named on a command line (`check`,
/// `format`): no database needed, the registry as the workspace sees it. Values of secure
/// types come back as `•••`, never as typed.
public struct CheckService {
    let workspace: Workspace

    /// The service for `workspace`'s registry.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// One value judged by `check`.
    public struct CheckedValue: JSONObjectRepresentable, Sendable {
        /// The type reference as given (`age(min: 18)`).
        public var type: String
        /// The value as given, or `•••` for a secure type.
        public var value: String
        /// The stage it was judged in.
        public var stage: Stage
        /// The judgement; its `formatted` is `•••` for a secure type.
        public var result: FieldResult

        /// Whether the value is invalid (a violation with error severity).
        public var isInvalid: Bool { result.verdict == .invalid }

        /// `{"type", "value", "formatted", "mask", "stage", "verdict", "valid", "violations":
        /// [{"rule", "severity", "message"}]}`; `mask` (the name of the mask that formatted
        /// the value, such as a card's brand) only when the mask has a name of its own.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("type", type)
            o.field("value", value)
            o.field("formatted", result.formatted)
            if let mask = result.mask { o.field("mask", mask) }
            o.field("stage", stage.rawValue)
            o.field("verdict", result.verdict.rawValue)
            o.field("valid", result.verdict == .valid)
            o.array("violations") { a in
                for v in result.violations {
                    a.object { vo in
                        vo.field("rule", v.rule)
                        vo.field("severity", v.severity.rawValue)
                        vo.field("message", v.message)
                    }
                }
            }
        }
    }

    /// What `check` found: each value's judgement, in the order given.
    public struct CheckReport: Sendable {
        /// One judgement per value.
        public var values: [CheckedValue]

        /// Whether some value is invalid (the exit status says so).
        public var anyInvalid: Bool { values.contains { $0.isInvalid } }
        /// The judgements as JSON Lines, one object per value.
        public var jsonLines: [UInt8] { values.jsonLines }
    }

    /// Judges each of `values` with the type `reference` names (`TYPE[(PARAMS)]`), as of
    /// `today`, in `stage`: `final` for complete values, `live` for prefixes being typed.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the reference cannot be parsed or the
    ///   type cannot be used (see ``RegistryService/compile(reference:today:)``).
    public func check(_ reference: String, values: [String], stage: Stage, today: CivilDate) throws -> CheckReport {
        let type = try RegistryService(workspace: workspace).compile(reference: reference, today: today)
        return Self.check(type, reference: reference, values: values, stage: stage)
    }

    /// Judges `values` with a type already compiled from `reference` (what `check` does
    /// after compiling, and what `formulary serve` does with the types it keeps).
    public static func check(_ type: CompiledFieldType, reference: String, values: [String], stage: Stage) -> CheckReport {
        let secure = type.definition.secure
        return CheckReport(values: values.map { value in
            var result = type.validate(value, stage: stage)
            if secure { result.formatted = RunReport.secureMask }
            return CheckedValue(type: reference, value: secure ? RunReport.secureMask : value, stage: stage, result: result)
        })
    }

    /// One value laid into a type's mask by `format`.
    public struct FormattedValue: JSONObjectRepresentable, Sendable {
        /// The type reference as given.
        public var type: String
        /// The value as given, or `•••` for a secure type.
        public var value: String
        /// The normalized, mask-formatted value, or `•••` for a secure type.
        public var formatted: String

        /// `{"type", "value", "formatted"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("type", type)
            o.field("value", value)
            o.field("formatted", formatted)
        }
    }

    /// Each of `values` normalized and laid into the mask of the type `reference` names,
    /// as of `today`. Formatting never drops a character and never fails on a value.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the reference cannot be parsed or the
    ///   type cannot be used (see ``RegistryService/compile(reference:today:)``).
    public func format(_ reference: String, values: [String], today: CivilDate) throws -> [FormattedValue] {
        let type = try RegistryService(workspace: workspace).compile(reference: reference, today: today)
        let secure = type.definition.secure
        return values.map { value in
            FormattedValue(type: reference, value: secure ? RunReport.secureMask : value,
                           formatted: secure ? RunReport.secureMask : type.format(value))
        }
    }
}
