/// How a new version of a field type relates to an old one: for each rule and for the
/// type as a whole, whether the new version accepts the same values, more (a superset),
/// fewer (a subset) or a different set, decided exactly where it can be, with the shortest
/// values that tell the versions apart.
///
/// ```swift
/// let comparison = TypeComparison(old: try catalog.fieldType("age"), new: proposed)
/// comparison.relation                  // .subset
/// comparison.newlyRejected.witness     // "0": accepted before, refused now
/// ```
///
/// What is compared is what a value's verdict is in the final stage: a value is accepted
/// when it is absent (blank) or passes every check of error severity (warnings never
/// matter). Both versions are judged from the raw value, through their own normalization
/// and masks, so versions that normalize differently are compared as a user meets them.
///
/// How it is decided: every check but checksums, dates and `length … graphemes` is a
/// regular language over the text it reads (patterns, `pattern not`, `length` in scalars,
/// UTF-16 units or bytes, `integer`, `decimal`, `range`, `charset`, `one-of`); so is
/// normalization and the mask, as a machine reading the raw value. Each version is one
/// automaton over the raw value, and "the old accepts a value the new refuses" is the
/// emptiness of a product, answered exactly, with the shortest such value as witness. A
/// check outside that reach (a checksum, a date, a grapheme count) is set aside when both
/// versions have it alike and read the same text; otherwise the answer is looked for among
/// candidate values judged by the real engine, and when none settles it, it says so.
/// Every witness is judged with both versions before it is given. A comparison makes at
/// most ``Limits/states`` automaton states; beyond, the answer is "too complex to decide".
public struct TypeComparison: Sendable {
    /// What a new version accepts compared with an old one.
    public enum Relation: String, Sendable, Hashable {
        /// Exactly the values the old one accepts.
        case same
        /// Every value the old one accepts, and more.
        case superset
        /// Only values the old one accepts, but not all of them.
        case subset
        /// Some values the old one refuses, and refuses some it accepts.
        case overlap
        /// No present value that the old one accepts (only the blank, absent value is
        /// accepted by both).
        case disjoint
        /// It could not be decided (``Difference/reason`` says why).
        case undecided
    }

    /// Values one version accepts and the other refuses: whether there are any, and the
    /// shortest found.
    public struct Difference: Sendable, Hashable {
        /// Whether there are such values.
        public enum Status: String, Sendable, Hashable {
            /// There are none: decided exactly.
            case none
            /// There are: ``Difference/witness`` is one (unless the type is secure).
            case some
            /// It could not be decided.
            case unknown
        }
        /// Whether there are such values.
        public var status: Status
        /// One such value, judged with both versions: the shortest (then the first in a
        /// readable order: lower-case letters, digits, upper-case letters, punctuation…) when
        /// ``isShortest``. Nil when there is none, when it is unknown, and always for a
        /// `secure` type, whose values are never shown.
        public var witness: String?
        /// Whether ``witness`` is known to be the shortest such value (it is when the values
        /// that differ were found exactly; a witness found among candidates judged one by
        /// one is the shortest of those).
        public var isShortest: Bool
        /// Why it could not be decided, for ``Status/unknown``.
        public var reason: String?

        static let none = Difference(status: .none, witness: nil, isShortest: false, reason: nil)
        static func unknown(_ reason: String) -> Difference {
            Difference(status: .unknown, witness: nil, isShortest: false, reason: reason)
        }
    }

    /// One rule (a check or a mask) compared on its own: what it lets through in the old
    /// version and in the new, on the text it reads.
    public struct Rule: Sendable, Hashable {
        /// The rule's name (`range`, `luhn`, a mask's `as` name).
        public var name: String
        /// What the new version's rule lets through compared with the old one's.
        public var relation: Relation
        /// The rule as the old version has it (`0...150`, `/[0-9]+/`, `warning`), nil when
        /// the old version has no such rule.
        public var old: String?
        /// The rule as the new version has it; nil when the new version has none.
        public var new: String?
        /// Why the relation could not be decided, for ``Relation/undecided``.
        public var reason: String?
    }

    /// Something written differently in the two versions.
    public struct Change: Sendable, Hashable {
        /// As the old version writes it (empty: nothing).
        public var old: String
        /// As the new version writes it.
        public var new: String
    }

    /// The old version's name.
    public var oldName: String
    /// The new version's name.
    public var newName: String
    /// The rules of either version, the old one's order first, then the rules only the new
    /// one has.
    public var rules: [Rule]
    /// The normalization steps of each version, when they differ (nil when alike).
    public var normalization: Change?
    /// What the new version accepts compared with the old one, as a whole.
    public var relation: Relation
    /// Values the old version accepts and the new one refuses.
    public var newlyRejected: Difference
    /// Values the new version accepts and the old one refuses.
    public var newlyAccepted: Difference
    /// Checks both versions have alike that the decision set aside because no automaton
    /// expresses them (a checksum, a date, a grapheme count): the relation holds given them.
    public var setAside: [String]
    /// Whether either version is `secure`: no witness is ever given.
    public var secure: Bool
    /// Whether either version has a date check, whose range (and two-digit years) the
    /// types resolved for the day they were compiled for: the answer holds for that day.
    public var readsToday: Bool

    /// How much work a comparison may do.
    public struct Limits: Sendable, Hashable {
        /// The most automaton states, all automata of the comparison together: the type as a
        /// whole is decided first, then each rule on its own with what is left.
        public var states: Int
        /// How many candidate values a witness search may judge, per search.
        public var candidates: Int

        /// The limits: 300,000 states and 2,000 candidates.
        public init(states: Int = 300_000, candidates: Int = 2_000) {
            self.states = states
            self.candidates = candidates
        }
    }
}

extension TypeComparison.Relation {
    /// The relation given by the two differences.
    init(newlyRejected: TypeComparison.Difference.Status, newlyAccepted: TypeComparison.Difference.Status,
         disjoint: Bool) {
        switch (newlyRejected, newlyAccepted) {
        case (.none, .none): self = .same
        case (.none, .some): self = .superset
        case (.some, .none): self = .subset
        case (.some, .some): self = disjoint ? .disjoint : .overlap
        default: self = .undecided
        }
    }
}
