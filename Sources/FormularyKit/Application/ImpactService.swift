import Foundation
import FormularyJSON
import FormularyRules
import FormularyStore

/// What proposed types and forms would change among the stored entries (`impact`): each
/// entry of the forms they concern is judged with them, as if they had been added, and
/// compared with its latest recorded result. Nothing is written: the database is opened
/// read-only.
///
/// An entry's latest result is the failed rules recorded by the newest run that judged it
/// (an entry passing in that run has none), whatever entry version the run judged. An
/// entry no run has judged yet is judged twice, with the definitions as they are and with
/// the proposed ones, and those two are compared: only what the proposal changes shows.
/// `unique` rules are not judged again (they compare entries with each other): their
/// latest results stand.
public struct ImpactService {
    let workspace: Workspace

    /// The service for `workspace`'s database and registry.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// How many entries a rule newly fails and no longer fails.
    public struct RuleChange: Sendable, Hashable {
        /// The field; nil for a rule of the whole entry.
        public var field: String?
        /// The rule's name.
        public var rule: String
        /// Entries that pass the rule in their latest result and fail it now.
        public var newlyFailing: Int
        /// Entries that fail the rule in their latest result and pass it now.
        public var fixed: Int
    }

    /// One entry whose result for a rule changes (no value: secure or not, values stay in).
    public struct Example: Sendable, Hashable {
        /// The entry's id.
        public var entry: Int64
        /// The field; nil for a rule of the whole entry.
        public var field: String?
        /// The rule's name.
        public var rule: String
        /// Whether the rule now fails or now passes.
        public var change: ImpactChange
    }

    /// What `impact` found.
    public struct Report: JSONObjectRepresentable, Sendable {
        /// The forms judged (those with entries that the proposed files change), by name.
        public var forms: [String]
        /// Entries judged.
        public var entriesChecked: Int
        /// Entries valid (no error) in their latest result and invalid now.
        public var newlyFailing: Int
        /// Entries invalid in their latest result and valid now.
        public var fixed: Int
        /// The other entries judged.
        public var unchanged: Int
        /// Entries no run had judged: compared with the definitions as they are.
        public var withoutResult: Int
        /// Rules whose results change, most newly failing first.
        public var rules: [RuleChange]
        /// A few entries for each rule and change, lowest ids first.
        public var examples: [Example]

        /// `{"entries_checked", "newly_failing", "fixed", "unchanged", "rules": [{"field",
        /// "rule", "newly_failing", "fixed"}], "examples": [{"entry", "field", "rule",
        /// "change"}]}` (a `field` is null for a rule of the whole entry).
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("entries_checked", entriesChecked)
            o.field("newly_failing", newlyFailing)
            o.field("fixed", fixed)
            o.field("unchanged", unchanged)
            o.array("rules") { a in
                for r in rules {
                    a.object { ro in
                        if let f = r.field { ro.field("field", f) } else { ro.nullField("field") }
                        ro.field("rule", r.rule)
                        ro.field("newly_failing", r.newlyFailing)
                        ro.field("fixed", r.fixed)
                    }
                }
            }
            o.array("examples") { a in
                for e in examples {
                    a.object { eo in
                        eo.field("entry", Int(e.entry))
                        if let f = e.field { eo.field("field", f) } else { eo.nullField("field") }
                        eo.field("rule", e.rule)
                        eo.field("change", e.change.rawValue)
                    }
                }
            }
        }
    }

    /// Judges the stored entries with the definitions in `files` (`.field` and `.form`
    /// files, one definition each) added, as of `today`, and compares each with its latest
    /// result. The files are admitted as `types add` and `forms add` admit them (lint,
    /// self-tests); warnings go to `warnings`.
    ///
    /// - Parameters:
    ///   - examplesPerRule: how many entries to name for each rule and change.
    ///   - workers: threads that judge; by default one per processor.
    /// - Throws: a ``ServiceError`` (bad input) when a file has problems, or when a form
    ///   with entries cannot be used with the proposed definitions.
    public func impact(files: [String], today: CivilDate, examplesPerRule: Int = 3,
                       workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                       warnings: RegistryService.WarningSink) throws -> Report {
        try impact(pluginFiles: try RegistryService.readPluginFiles(files), today: today, examplesPerRule: examplesPerRule,
                   workers: workers, warnings: warnings)
    }

    /// ``impact(files:today:examplesPerRule:workers:warnings:)`` of files already read (`types
    /// add` weighs a new version against its compatibility policy this way).
    public func impact(pluginFiles: [PluginFile], today: CivilDate, examplesPerRule: Int = 3,
                       workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                       warnings: RegistryService.WarningSink) throws -> Report {
        let store = try workspace.store(.read)
        let current = try workspace.registry(store: store)
        let proposed = try RegistryService(workspace: workspace)
            .check(pluginFiles: pluginFiles, kind: nil, today: today, store: store, verb: "judged", warnings: warnings).registry
        return try store.read {
            let forms = try impactForms(store: store, current: current, proposed: proposed, today: today)
            guard !forms.isEmpty else {
                return Report(forms: [], entriesChecked: 0, newlyFailing: 0, fixed: 0, unchanged: 0,
                              withoutResult: 0, rules: [], examples: [])
            }
            let baseline = try ImpactBaseline(store: store, forms: forms.map(\.name))
            let chunks = ValidationRun.chunks(try store.entryIDBounds(), batchSize: 20_000)
            let snapshots = try store.beginEntrySnapshots(count: max(1, min(workers, chunks.count)))
            defer { for snapshot in snapshots { snapshot.end() } }
            let outcomes = try ImpactWorkers.run(chunks: chunks, snapshots: snapshots, forms: forms,
                                                 baseline: baseline, examplesPerRule: examplesPerRule)
            return Self.report(forms: forms.map(\.name), outcomes: outcomes, examplesPerRule: examplesPerRule)
        }
    }

    /// The forms with entries whose definition or field types the proposed files change,
    /// with their judges.
    private func impactForms(store: Store, current: Registry, proposed: Registry, today: CivilDate) throws -> [ImpactForm] {
        let layouts = try store.entryLayouts()
        var out: [ImpactForm] = []
        for name in try store.formNamesWithEntries() where try store.hasEntries(form: name) {
            guard let entry = proposed.forms[name], let formID = try store.formID(named: name) else { continue }
            guard let form = entry.form, !proposed.lint(form: name).containsErrors else {
                let already = current.forms[name].map { _ in current.lint(form: name).containsErrors } ?? false
                throw ServiceError(.badInput, "form '\(name)' cannot be used"
                                   + (already ? "" : " with the proposed files") + "; nothing was judged",
                                   details: .diagnostics(proposed.lint(form: name), lines: []))
            }
            let proposedTypes = try form.fields.map { field -> CompiledFieldType in
                switch proposed.compile(field.type, today: today, source: entry.text) {
                case .success(let type): return type
                case .failure(let problems):
                    throw ServiceError(.badInput, "form '\(name)' cannot be used with the proposed files; nothing was judged",
                                       details: .diagnostics(problems.diagnostics, lines: []))
                }
            }
            var currentJudge: FormJudge?
            var changed = true
            if let before = current.forms[name], let currentForm = before.form, !current.lint(form: name).containsErrors {
                let currentTypes = currentForm.fields.compactMap { field -> CompiledFieldType? in
                    if case .success(let type) = current.compile(field.type, today: today, source: before.text) { return type }
                    return nil
                }
                if currentTypes.count == currentForm.fields.count {
                    currentJudge = FormJudge(formID: formID, form: current.localized(currentForm), types: currentTypes,
                                             layouts: layouts)
                    changed = currentForm.canonicalSource != form.canonicalSource
                        || zip(currentTypes, proposedTypes).contains { $0.definition.canonicalSource != $1.definition.canonicalSource }
                }
            }
            guard changed else { continue }
            let judge = FormJudge(formID: formID, form: current.localized(form), types: proposedTypes, layouts: layouts)
            out.append(ImpactForm(name: name, proposed: judge, current: currentJudge,
                                  uniqueRules: Set(judge.core.uniqueRules.map(\.options.name))))
        }
        return out
    }

    /// The workers' outcomes, added up in chunk order.
    static func report(forms: [String], outcomes: [ImpactOutcome], examplesPerRule: Int) -> Report {
        var report = Report(forms: forms, entriesChecked: 0, newlyFailing: 0, fixed: 0, unchanged: 0,
                            withoutResult: 0, rules: [], examples: [])
        var tallies: [ImpactRuleKey: (newlyFailing: Int, fixed: Int)] = [:]
        var shown: [ImpactExampleKey: Int] = [:]
        var examples: [(entry: Int64, key: ImpactRuleKey, change: ImpactChange)] = []
        for outcome in outcomes {
            report.entriesChecked += outcome.checked
            report.newlyFailing += outcome.newlyFailing
            report.fixed += outcome.fixed
            report.withoutResult += outcome.withoutResult
            for (key, tally) in outcome.tallies {
                tallies[key, default: (0, 0)].newlyFailing += tally.newlyFailing
                tallies[key, default: (0, 0)].fixed += tally.fixed
            }
            for example in outcome.examples {
                let key = ImpactExampleKey(key: example.key, change: example.change)
                guard shown[key, default: 0] < examplesPerRule else { continue }
                shown[key, default: 0] += 1
                examples.append(example)
            }
        }
        report.unchanged = report.entriesChecked - report.newlyFailing - report.fixed
        report.rules = tallies.map { RuleChange(field: $0.key.field, rule: $0.key.rule, newlyFailing: $0.value.newlyFailing,
                                                fixed: $0.value.fixed) }
            .sorted { ($1.newlyFailing, $1.fixed, $0.field ?? "", $0.rule) < ($0.newlyFailing, $0.fixed, $1.field ?? "", $1.rule) }
        let order = Dictionary(report.rules.enumerated().map { (ImpactRuleKey(field: $1.field, rule: $1.rule), $0) },
                               uniquingKeysWith: { a, _ in a })
        report.examples = examples
            .sorted { (order[$0.key] ?? 0, $0.change == .fixed ? 1 : 0, $0.entry) < (order[$1.key] ?? 0, $1.change == .fixed ? 1 : 0, $1.entry) }
            .map { Example(entry: $0.entry, field: $0.key.field, rule: $0.key.rule, change: $0.change) }
        return report
    }
}
