extension TypeResolver {
    /// What resolving one declaration gave, kept by the resolver so that the types
    /// extending it start from it instead of resolving their bases again.
    struct Resolution {
        var declaration: FieldTypeDecl
        /// Nil when the type could not be built at all (its base is unknown, broken, in a
        /// cycle or too deep).
        var definition: FieldTypeDefinition?
        var diagnostics: [Diagnostic]
        /// How many `extends` levels lie above the type (0 for a root).
        var depth: Int
        /// The cycle the type is in or leads into.
        var cycle: InheritanceCycle?
        /// Whether the type is itself one of `cycle`'s members.
        var inCycle = false
        /// The diagnostic of the point where the type's chain went too deep: on the type
        /// that went one level too far, shared by every type below it.
        var tooDeep: Diagnostic?

        init(_ declaration: FieldTypeDecl, _ definition: FieldTypeDefinition?,
             _ diagnostics: [Diagnostic], depth: Int = 0) {
            self.declaration = declaration
            self.definition = definition
            self.diagnostics = diagnostics
            self.depth = depth
        }

        /// A type may be extended only when neither its file nor its resolution has errors.
        var isUsable: Bool {
            definition != nil && !declaration.hasErrors && !diagnostics.containsErrors
        }

        var result: Result<FieldTypeDefinition, DiagnosticList> {
            if let definition, !diagnostics.containsErrors { return .success(definition) }
            return .failure(DiagnosticList(diagnostics))
        }
    }

    /// The names of a cycle of `extends`, read from one of them (`entry`) round to itself.
    /// Every member and every type leading into the cycle shares one array of names, so
    /// that a cycle of thousands of types costs no more than one.
    struct InheritanceCycle {
        var members: [String]
        var entry: Int

        /// The same cycle, read from member `index`.
        func entered(at index: Int) -> InheritanceCycle {
            InheritanceCycle(members: members, entry: index)
        }

        /// Names shown in full up to this many members; longer cycles show their start and
        /// end around an ellipsis, so that each message stays one short line.
        static let shownInFull = 8

        /// `a extends b extends c extends a`; a long cycle as
        /// `a extends b extends c extends … extends y extends z extends a (26 types)`.
        var text: String {
            let count = members.count
            func name(_ offset: Int) -> String { members[(entry + offset) % count] }
            let first = name(0)
            guard count > Self.shownInFull else {
                return ((0..<count).map(name) + [first]).joined(separator: " extends ")
            }
            let shown = (0..<3).map(name) + ["…"] + (count - 2..<count).map(name) + [first]
            return shown.joined(separator: " extends ") + " (\(count) types)"
        }
    }
}
