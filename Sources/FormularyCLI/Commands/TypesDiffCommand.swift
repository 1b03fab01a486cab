import FormularyKit
import FormularyRules

/// `formulary types diff OLD NEW`
struct TypesDiffCommand: Command {
    static let old = Argument("OLD", help: "The version before: a .field file, a type's name (with parameters if any: "
                              + "'age(min: 18)') or NAME@VERSION, a version the database keeps.",
                              completion: .registry(.types))
    static let new = Argument("NEW", help: "The version after, in the same forms.", completion: .files)
    static let spec = CommandSpec(
        path: ["types", "diff"],
        abstract: "Compares two versions of a type: the values each accepts that the other refuses.",
        discussion: """
        For each rule and for the type as a whole, says whether NEW accepts the same values as
        OLD, more (a superset), fewer (a subset), or some more and some fewer (an overlap), and
        gives the shortest value of each difference: one OLD accepts and NEW refuses (newly
        rejected) and one NEW accepts and OLD refuses (newly accepted). Each witness is judged
        with both versions before it is shown; a secure type's are never shown.

        Values are compared as a user types them: each version normalizes and masks them its
        own way. Patterns, 'pattern not', masks, length in scalars, UTF-16 units or bytes,
        integer, decimal, range, charset and one-of are decided exactly, on automata. A check
        no automaton expresses (a checksum, a date, a length in graphemes) is set aside when
        both versions have it alike and read the same text; otherwise the answer is looked for
        among candidate values, and when none settles it, the output says what cannot be
        decided. Dates are compared for today (--today). A comparison that would need more
        than 300,000 automaton states is reported as too complex to decide.

        OLD and NEW are each a .field file (a path, or a name ending in .field), a type of the
        registry, or NAME@VERSION: a version of NAME that the database keeps, by the first
        digits (at least 4) of its hash, as 'types history NAME' lists them.

        Exit status: 0 when the comparison was made, whatever it found; 2 when a file has
        problems or a type or version is unknown; 3 without a database for NAME@VERSION.
        """,
        arguments: [old, new],
        examples: ["formulary types diff email my-types/email.field",
                   "formulary types diff age@6fa0ee01 age",
                   "formulary --format json types diff old/phone.field new/phone.field"])

    let oldOperand: String
    let newOperand: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        oldOperand = try arguments.value(Self.old)
        newOperand = try arguments.value(Self.new)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let diff = try RegistryService(workspace: context.workspace)
            .diff(old: oldOperand, new: newOperand, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: diff.jsonDocument)
            return .success
        }
        let out = context.stdout
        let c = diff.comparison
        out.write(TextTable(rows: [
            ["OLD:", diff.old.name, diff.old.source, "version " + String(diff.old.version.prefix(12))],
            ["NEW:", diff.new.name, diff.new.source, "version " + String(diff.new.version.prefix(12))],
        ]).render())
        out.line()
        if let n = c.normalization {
            out.line("normalize: " + Self.clip(n.old.isEmpty ? "(none)" : n.old) + " → " + Self.clip(n.new.isEmpty ? "(none)" : n.new))
        }
        // Rules written alike in both versions on one line; each other rule on its own.
        let unchanged = c.rules.filter { $0.relation == .same && $0.old == $0.new }
        if !unchanged.isEmpty { out.line(("unchanged: " + unchanged.map(\.name).joined(separator: ", ")).forTerminal) }
        for rule in c.rules where !(rule.relation == .same && rule.old == rule.new) {
            var line = "\(rule.name): " + Self.phrase(rule.relation, reason: rule.reason)
            switch (rule.old, rule.new) {
            case let (old?, new?) where old != new:
                let (a, b) = Self.clip(old, new)
                line += " (\(a) → \(b))"
            case (let old?, nil): line += " (removed: \(Self.clip(old)))"
            case (nil, let new?): line += " (added: \(Self.clip(new)))"
            default: break
            }
            out.line(line.forTerminal)
        }
        let style = context.style
        let paint: ((String) -> String)? = switch c.relation {
        case .same: nil
        case .superset: style.green
        case .undecided: style.yellow
        default: style.red
        }
        let whole = Self.phrase(c.relation, reason: nil)
        out.line("type: " + (paint.map { $0(whole) } ?? whole)
                 + (c.readsToday ? " (dates as of today, \(diff.today))" : ""))
        if !c.setAside.isEmpty {
            out.line("set aside: " + c.setAside.joined(separator: ", ") + " (alike in both versions: decided given "
                     + (c.setAside.count == 1 ? "it" : "them") + ")")
        }
        out.line("newly rejected: " + Self.witness(c.newlyRejected, secure: c.secure))
        out.line("newly accepted: " + Self.witness(c.newlyAccepted, secure: c.secure))
        return .success
    }

    /// How a relation reads: what NEW accepts, compared with OLD.
    static func phrase(_ relation: TypeComparison.Relation, reason: String?) -> String {
        switch relation {
        case .same: "same"
        case .superset: "NEW accepts a superset"
        case .subset: "NEW accepts a subset"
        case .overlap: "NEW and OLD overlap (each accepts values the other refuses)"
        case .disjoint: "NEW accepts none of the values OLD accepts"
        case .undecided: reason ?? "cannot decide"
        }
    }

    /// A difference as its line reads: none, the witness, or why it cannot be decided.
    static func witness(_ d: TypeComparison.Difference, secure: Bool) -> String {
        switch d.status {
        case .none: return "none"
        case .unknown: return d.reason ?? "cannot decide"
        case .some:
            guard let w = d.witness else { return secure ? "some values (not shown: the type is secure)" : "some values" }
            let value = CheckCommand.quoted(w).forTerminal
            return d.isShortest ? value : value + " (found among candidates; a shorter one may exist)"
        }
    }

    /// A rule as written, cut to fit a line (JSON has it whole).
    static func clip(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(59)) + "…"
    }

    /// Two spellings of a rule cut to fit a line, both from a little before where they
    /// first differ, so that a long pattern shows what changed.
    static func clip(_ old: String, _ new: String) -> (String, String) {
        guard old.count > 60 || new.count > 60 else { return (old, new) }
        let common = zip(old, new).prefix { $0 == $1 }.count
        let start = max(0, common - 20)
        func cut(_ s: String) -> String { clip((start > 0 ? "…" : "") + String(s.dropFirst(start))) }
        return (cut(old), cut(new))
    }
}
