/// The parts of a report's summary that the database counts in passes of their own, and how
/// those passes are announced while a report is written.
extension RunReport {
    /// One per form of ``forms``: newly failing and fixed entries against the previous run.
    /// Counted when first read; empty when the database cannot count them (renderers read
    /// ``comparisonsPart``, which throws).
    package var comparisons: [Comparison] {
        get { (try? comparisonsPart.value()) ?? [] }
        set { comparisonsPart = ReportPart(newValue) }
    }

    /// The 10 most frequent non-secret failing values of each rule (key `.rule`) and each
    /// field (key `.field`), by group key, most frequent first. Counted when first read, like
    /// ``comparisons``.
    package var topValues: [ReportGrouping: [String: [ValueCount]]] {
        get { (try? topValuesPart.value()) ?? [:] }
        set { topValuesPart = ReportPart(newValue) }
    }

    /// Failures per rule (`.rule`) and per field (`.field`) in the previous run of the same
    /// form(s), by group key; empty when there is none. Each grouping is counted when first
    /// read, like ``comparisons``.
    package var previousCounts: [ReportGrouping: [String: Int]] {
        get { previousCountsParts.compactMapValues { try? $0.value() } }
        set { previousCountsParts = newValue.mapValues { ReportPart($0) } }
    }

    /// The previous run's failures per group of `grouping` (empty without an earlier run, or
    /// for a grouping it is not counted by).
    func previousCounts(by grouping: ReportGrouping) throws -> [String: Int] {
        try previousCountsParts[grouping]?.value() ?? [:]
    }
}

/// A part of a report that takes a pass over the run's failures: counted when first read,
/// then kept. A report built by hand holds its parts already counted.
///
/// A reference, so that a report (a value) that is copied counts a part once; setting a
/// part of a report replaces it, so that copies do not see each other's changes.
final class ReportPart<Value> {
    private var counted: Value?
    private let count: (() throws -> Value)?

    /// A part counted by `count` when first read.
    init(counting count: @escaping () throws -> Value) {
        self.count = count
    }

    /// A part already counted.
    init(_ value: Value) {
        counted = value
        count = nil
    }

    /// The part, counted now if it was not yet.
    func value() throws -> Value {
        if let counted { return counted }
        let value = try count!()
        counted = value
        return value
    }
}

/// The passes the database makes over a run's failures while a report is written. Before
/// each, what the report has written so far is handed on (`flush`: a reader sees the first
/// lines while the database works, rather than after its last pass), then the progress
/// line hears which pass it is.
final class ReportPasses {
    private let flush: (() throws -> Void)?
    private let progress: ((ReportProgress) -> Void)?

    /// Passes that flush with `flush` and tell `progress`; neither, by default.
    init(flush: (() throws -> Void)? = nil, progress: ((ReportProgress) -> Void)? = nil) {
        self.flush = flush
        self.progress = progress
    }

    /// Announces a pass that is about to start.
    func begin(_ pass: ReportProgress) throws {
        try flush?()
        progress?(pass)
    }
}
