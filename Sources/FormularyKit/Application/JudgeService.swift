import FormularyJSON
import FormularyRules

/// One filled-in form judged with the registry's form, as `forms judge` prints it and
/// `POST /v1/forms/NAME/judge` answers it: the same function renders both, so that the two
/// agree byte for byte.
public struct JudgeService {
    let workspace: Workspace

    /// The service for `workspace`'s registry (no database needed).
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// A form ready to judge values: the engine's ``FormValidator`` and which of its
    /// fields are of `secure` types (their values are never shown).
    package struct PreparedForm: Sendable {
        /// The engine's judge of the form.
        package var validator: FormValidator
        /// The keys of the fields whose type is `secure`.
        package var secureFields: Set<String>
    }

    /// What judging one filled-in form found.
    public struct Judgement: JSONObjectRepresentable, Sendable {
        /// The form's field keys, in the order the form declares them (the order of `fields`).
        public var fieldKeys: [String]
        /// Fields whose formatted values are shown as `•••`.
        public var secureFields: Set<String>
        /// The engine's result.
        public var result: FormResult

        /// Whether some rule of error severity failed (the command's exit status 1).
        public var isInvalid: Bool { result.verdict == .invalid }

        /// `{"verdict", "fields": {KEY: {"verdict", "formatted", "violations": [{"rule",
        /// "severity", "message"}]}}, "form_violations": [{"field", "rule", "severity",
        /// "message"}], "unknown_fields": [KEY…]}`. Fields come in the form's order;
        /// `formatted` is `•••` for a value of a secure type (`""` when it is absent).
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("verdict", result.verdict.rawValue)
            o.object("fields") { fo in
                for key in fieldKeys {
                    guard let field = result.fields[key] else { continue }
                    fo.object(key) { one in
                        one.field("verdict", field.verdict.rawValue)
                        if secureFields.contains(key) {
                            one.field("formatted", field.isAbsent ? "" : RunReport.secureMask)
                        } else {
                            one.field("formatted", field.formatted)
                        }
                        if let mask = field.mask { one.field("mask", mask) }
                        one.array("violations") { a in
                            for v in field.violations {
                                a.object { vo in
                                    vo.field("rule", v.rule)
                                    vo.field("severity", v.severity.rawValue)
                                    vo.field("message", v.message)
                                }
                            }
                        }
                    }
                }
            }
            o.array("form_violations") { a in
                for v in result.formViolations {
                    a.object { vo in
                        if let field = v.field { vo.field("field", field) } else { vo.nullField("field") }
                        vo.field("rule", v.rule)
                        vo.field("severity", v.severity.rawValue)
                        vo.field("message", v.message)
                    }
                }
            }
            o.array("unknown_fields") { a in for key in result.unknownFields { a.value(key) } }
        }
    }

    /// Judges `values` (field key → value) with form `name` in `stage`, as of `today`.
    ///
    /// - Throws: a ``ServiceError`` (not found) for an unknown form, (bad input) for one with errors.
    public func judge(form name: String, values: [String: String], stage: Stage, today: CivilDate) throws -> Judgement {
        Self.judge(try Self.prepare(form: name, in: try workspace.registry(), today: today), values: values, stage: stage)
    }

    /// Judges `values` with a form already prepared (what `formulary serve` keeps).
    package static func judge(_ form: PreparedForm, values: [String: String], stage: Stage) -> Judgement {
        Judgement(fieldKeys: form.validator.fieldKeys, secureFields: form.secureFields,
                  result: form.validator.judge(values, stage: stage))
    }

    /// Form `name` of `registry`, its field types compiled for `today`, with the translations
    /// of `messages` (nil: the registry's locale).
    ///
    /// - Throws: a ``ServiceError`` (not found) for an unknown form (with the nearest
    ///   known name) or a form with errors (with its diagnostics).
    package static func prepare(form name: String, in registry: Registry, today: CivilDate,
                                messages: LocaleMessages? = nil) throws -> PreparedForm {
        let messages = messages ?? registry.messages
        guard let entry = registry.forms[name] else {
            throw ServiceError(.notFound, "unknown form '\(name)'"
                + (Suggestion.nearest(to: name, in: registry.forms.keys.sorted())
                    .map { "; did you mean '\($0)'?" } ?? "; 'formulary forms list' shows the forms there are"))
        }
        let problems = registry.lint(form: name)
        guard let form = entry.form, !problems.containsErrors else {
            throw ServiceError(.badInput, "form '\(name)' has errors", details: .diagnostics(problems, lines: []))
        }
        var types: [CompiledFieldType] = []
        var secure: Set<String> = []
        for field in form.fields {
            switch registry.compile(field.type, today: today, source: entry.text, in: messages) {
            case .failure(let problems):
                throw ServiceError(.badInput, "form '\(name)' has errors", details: .diagnostics(problems.diagnostics, lines: []))
            case .success(let type):
                types.append(type)
                if type.definition.secure { secure.insert(field.key) }
            }
        }
        return PreparedForm(validator: FormValidator(form: registry.localized(form, in: messages), types: types),
                            secureFields: secure)
    }
}
