import FormularyRules
import FormularyStore

/// A form prepared for batch validation: the rules' one form judge (``EntryJudge``, which
/// `FormValidator` also uses) and, for each stored entry layout, where each field's value
/// lies.
///
/// Immutable once built, so one judge serves every worker thread.
final class FormJudge: Sendable {
    typealias LayoutPlan = EntryJudge.Layout
    typealias Scratch = EntryJudge.Scratch

    let formID: Int64
    let core: EntryJudge
    /// `core`, reached per entry without retaining it: worker threads retaining the one
    /// shared judge would contend on its reference count (`core` keeps it alive).
    private let coreRef: Unmanaged<EntryJudge>
    let layouts: [Int64: LayoutPlan]

    var form: FormDefinition { core.form }

    /// Entries a run must be able to judge before its types are tuned for batch runs
    /// (``CompiledFieldType/tunedForBatch()``): tuning the built-in card and email costs about
    /// 3 ms, which a run of a few thousand entries would not win back.
    static let tuningThreshold: Int64 = 20_000

    /// - Parameters:
    ///   - types: the compiled type of each field of `form`, in order.
    ///   - layouts: every layout entries may have (id → column names).
    ///   - tuned: whether the types are tuned for batch runs first (the verdicts are the same).
    init(formID: Int64, form: FormDefinition, types: [CompiledFieldType], layouts: [Int64: [String]],
         tuned: Bool = true) {
        self.formID = formID
        let core = EntryJudge(form: form, types: tuned ? types.map { $0.tunedForBatch() } : types)
        self.core = core
        coreRef = Unmanaged.passUnretained(core)
        self.layouts = layouts.mapValues { core.layout(columns: $0) }
    }

    /// The plan of a layout, or nil for a layout this judge was not given.
    func plan(layoutID: Int64) -> LayoutPlan? { layouts[layoutID] }

    /// Working memory for one thread judging this form's entries; with `rememberValues`,
    /// it remembers how short values screened (see ``ScreeningMemo``).
    func makeScratch(rememberValues: Bool = true) -> Scratch {
        core.makeScratch(rememberValues: rememberValues)
    }

    /// Judges one entry's encoded values (laid out by `plan`) and appends every failed rule
    /// to `violations`. Throws when the encoded values are malformed.
    @inline(__always)
    func judge(_ values: UnsafeRawBufferPointer, plan: LayoutPlan, scratch: inout Scratch,
               into violations: inout [FormViolation]) throws {
        // Checked here, where it inlines (two loads), rather than by calling `fit` per entry.
        if scratch.spans.count != plan.columnCount { scratch.fit(plan) }
        try EntryValues.locate(values, into: &scratch.spans)
        coreRef._withUnsafeGuaranteedRef { $0.judge(values, layout: plan, scratch: &scratch, into: &violations) }
    }

    /// The `unique` key hashes of the entry just judged (see ``EntryJudge/forEachUniqueHash``),
    /// seeded with the form's id so that keys of different forms and rules seldom meet.
    @inline(__always)
    func forEachUniqueHash(_ values: UnsafeRawBufferPointer, plan: LayoutPlan, scratch: inout Scratch,
                           _ body: (UInt64) -> Void) {
        coreRef._withUnsafeGuaranteedRef {
            $0.forEachUniqueHash(values, layout: plan, scratch: &scratch, seed: UInt64(bitPattern: formID)) { _, hash in body(hash) }
        }
    }
}
