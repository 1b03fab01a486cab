/// Resolves `extends`: turns a `FieldTypeDecl` into the complete `FieldTypeDefinition` the
/// engine compiles.
///
/// A derived type starts from its base's resolved definition and applies its own lines in
/// order:
/// - `label`, `help`, `placeholder`, `keyboard`, `autocapitalize`, `autocomplete`, `timing`,
///   `decimal-separator`
///   replace the base's;
///   `secure` makes it secure (there is no way back: a secret stays a secret);
/// - `param` replaces the base's parameter of that name (it must keep its kind) or adds one;
/// - `normalize` appends steps after the base's;
/// - the type's `mask` lines (with or without `when`) replace the base's masks as a whole:
///   the first replaces them, later ones append to the type's own list;
/// - a check replaces the base's check of the same rule name, in the base's position, or
///   is added at the end;
/// - `drop RULE` removes the check named RULE. Dropping the mask's rule (`drop mask`)
///   keeps the mask for formatting and removes only its fill check, of every mask of that
///   rule name declared so far. Dropping a rule that
///   does not exist is an error.
///
/// Examples (`accept`/`reject`): a derived type that declares none keeps its base's; one
/// that declares any has exactly its own, since a derived type usually narrows or widens
/// what is valid and the base's examples would no longer hold.
///
/// Resolution is linear in the number of types: each declaration is looked up and applied
/// at most once (results are memoised by name, so the lookup must answer the same for a
/// name every time), chains are walked with a loop rather than recursion (so no folder of
/// plugins can exhaust the stack), and an `extends` chain may be at most `maximumDepth`
/// levels deep: the type that goes one level further is reported once, as
/// `extends-too-deep`, and every type below it fails with that same diagnostic instead of
/// one message each.
package final class TypeResolver {
    /// Finds a declaration by type name, or nil when no such type exists.
    package typealias Lookup = @Sendable (String) -> FieldTypeDecl?

    /// The most `extends` levels above a type: its `bases` may name at most this many types.
    package static let maximumDepth = 64

    private let lookup: Lookup
    private let knownNames: [String]
    /// Every named type resolved so far, by name.
    private var memo: [String: Resolution] = [:]
    /// "Did you mean" hints for unknown bases, by base name: each is worked out once.
    private var unknownBaseHints: [String: String?] = [:]
    /// Lookups plus declarations applied: the work done, which tests bound (each name
    /// costs at most one of each).
    private(set) var steps = 0

    /// A resolver over a fixed set of declarations, keyed by type name.
    package init(declarations: [String: FieldTypeDecl]) {
        self.lookup = { declarations[$0] }
        self.knownNames = declarations.keys.sorted()
    }

    /// A resolver over any registry. `knownNames` only feeds "did you mean" suggestions.
    package init(knownNames: [String] = [], lookup: @escaping Lookup) {
        self.lookup = lookup
        self.knownNames = knownNames
    }

    /// Resolves the type called `name`, or nil when the registry has no such declaration.
    package func resolve(_ name: String) -> Result<FieldTypeDefinition, DiagnosticList>? {
        resolution(named: name).map(\.result)
    }

    /// Resolves a declaration. Fails with every error found (unknown or broken base,
    /// cycles, a chain too deep, unknown rules, parameter misuse); never with warnings alone.
    ///
    /// A declaration that is not the one the lookup knows by its name (a file being
    /// linted on its own, say) is resolved as if it replaced that one, without the memo.
    package func resolve(_ declaration: FieldTypeDecl) -> Result<FieldTypeDefinition, DiagnosticList> {
        if let known = memo[declaration.name]?.declaration ?? lookup(declaration.name), known == declaration {
            return resolution(named: declaration.name)!.result
        }
        let lookup = self.lookup
        let overlay = TypeResolver(knownNames: knownNames) { $0 == declaration.name ? declaration : lookup($0) }
        return overlay.resolve(declaration)
    }

    private func resolution(named name: String) -> Resolution? {
        if let known = memo[name] { return known }
        steps += 1
        guard let declaration = lookup(name) else { return nil }
        return resolveChain(from: declaration)
    }

    /// How the walk up a chain of bases ended.
    private enum ChainEnd {
        /// At a type without a base.
        case root
        /// At a type resolved before.
        case resolved(Resolution)
        /// At a base nobody declares.
        case unknownBase
        /// Back at the walk's own entry `index`: the entries from there on form a cycle.
        case cycle(from: Int)
    }

    /// Resolves `top` (the lookup's own declaration of its name) and every base it needs
    /// that is not resolved yet: first a loop up the chain to a root, a resolved type, an
    /// unknown base or a cycle; then a loop back down applying each declaration once.
    private func resolveChain(from top: FieldTypeDecl) -> Resolution {
        var path = [top]
        var position = [top.name: 0]
        var end = ChainEnd.root
        while let baseName = path[path.count - 1].base {
            if let index = position[baseName] { end = .cycle(from: index); break }
            if let known = memo[baseName] { end = .resolved(known); break }
            steps += 1
            guard let base = lookup(baseName) else { end = .unknownBase; break }
            position[baseName] = path.count
            path.append(base)
        }

        var below: Resolution?
        var remaining = path.count
        switch end {
        case .root:
            break
        case .resolved(let known):
            below = known
        case .unknownBase:
            remaining -= 1
            below = unknownBase(path[remaining])
            memo[path[remaining].name] = below
        case .cycle(let start):
            let cycle = InheritanceCycle(members: path[start...].map(\.name), entry: 0)
            for index in start..<path.count {
                memo[path[index].name] = inCycle(path[index], cycle.entered(at: index - start))
            }
            remaining = start
            below = memo[path[start].name]
        }
        for index in stride(from: remaining - 1, through: 0, by: -1) {
            let resolution = derive(path[index], from: below)
            memo[path[index].name] = resolution
            below = resolution
        }
        return memo[top.name]!
    }

    /// Resolves one declaration on top of its base's resolution (nil for a root).
    private func derive(_ decl: FieldTypeDecl, from base: Resolution?) -> Resolution {
        steps += 1
        guard let baseName = decl.base else {
            let (definition, diagnostics) = apply(decl, to: FieldTypeDefinition(name: decl.name, location: decl.location),
                                                  baseParameters: [:])
            return Resolution(decl, definition, diagnostics, depth: 0)
        }
        guard let base else { return unknownBase(decl) }   // not reached: the walk stops at unknown bases
        let at = decl.baseLocation ?? decl.location
        if let cycle = base.cycle {
            let message = LanguageDiagnostic.baseInCycle(baseName, cycle: cycle.text, isPart: base.inCycle)
            var failed = Resolution(decl, nil, [decl.source.diagnostic(message, at: at)])
            failed.cycle = cycle
            return failed
        }
        if let tooDeep = base.tooDeep {
            // Said once, where the chain went too deep; every type below fails with it.
            var failed = Resolution(decl, nil, [tooDeep])
            failed.tooDeep = tooDeep
            return failed
        }
        guard base.isUsable, let baseDefinition = base.definition else {
            return Resolution(decl, nil, [decl.source.diagnostic(LanguageDiagnostic.invalidBase(baseName), at: at)])
        }
        let depth = base.depth + 1
        guard depth <= Self.maximumDepth else {
            let start = baseDefinition.bases.last ?? baseName
            let tooDeep = decl.source.diagnostic(
                LanguageDiagnostic.extendsTooDeep(start: start, depth: depth, maximum: Self.maximumDepth, type: decl.name),
                at: at)
            var failed = Resolution(decl, nil, [tooDeep])
            failed.tooDeep = tooDeep
            return failed
        }
        var start = baseDefinition
        start.name = decl.name
        start.bases = [baseName] + baseDefinition.bases
        start.location = decl.location
        let kinds = Dictionary(baseDefinition.parameters.map { ($0.name, $0.defaultValue.kind) },
                               uniquingKeysWith: { first, _ in first })
        let (definition, diagnostics) = apply(decl, to: start, baseParameters: kinds)
        return Resolution(decl, definition, diagnostics, depth: depth)
    }

    private func unknownBase(_ decl: FieldTypeDecl) -> Resolution {
        let baseName = decl.base ?? ""
        // The nearest of all names is worked out once per base name; only when it is the
        // type's own name (which cannot be its base) is the search repeated without it.
        let nearest: String?
        if let known = unknownBaseHints[baseName] {
            nearest = known
        } else {
            nearest = Suggestion.nearest(to: baseName, in: knownNames)
            unknownBaseHints[baseName] = nearest
        }
        let suggestion = nearest == decl.name
            ? Suggestion.nearest(to: baseName, in: knownNames.lazy.filter { $0 != decl.name }) : nearest
        // A fix-it needs the base name's own place; without it the suggestion is a note.
        return Resolution(decl, nil, [decl.source.diagnostic(
            LanguageDiagnostic.unknownBase(baseName, suggestion: suggestion, at: decl.baseLocation),
            at: decl.baseLocation ?? decl.location)])
    }

    private func inCycle(_ decl: FieldTypeDecl, _ cycle: InheritanceCycle) -> Resolution {
        let at = decl.baseLocation ?? decl.location
        var failed = Resolution(decl, nil, [decl.source.diagnostic(LanguageDiagnostic.inheritanceCycle(cycle.text), at: at)])
        failed.cycle = cycle
        failed.inCycle = true
        return failed
    }
}
