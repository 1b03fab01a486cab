import FormularyRules

extension RegistryService {
    /// Types and forms left out of an export for the same first problem (every type below
    /// an `extends` chain that goes too deep, say), to be named together in one warning.
    public struct LeftOut: Sendable {
        /// The first problem they share; nil when they have none to show.
        public var problem: String?
        /// The types and forms, in the export's order.
        public var items: [RegistryExport.Unavailable]

        /// The warning, as one line: `type 'x' (file) has errors and is left out of the
        /// export: problem`, or, for several, how many, what they are and their names.
        public var warning: String {
            let because = problem.map { ": \($0)" } ?? ""
            if items.count == 1, let item = items.first {
                return "\(item.kind.rawValue) '\(item.name)' (\(item.file)) has errors and is left out of the export" + because
            }
            let kinds = Set(items.map(\.kind))
            let what = kinds.count > 1 ? "types and forms" : kinds.contains(.form) ? "forms" : "types"
            return "\(ReportNumbers.grouped(items.count)) \(what) have errors and are left out of the export (\(NameList.quoted(items.map(\.name))))"
                + because
        }
    }

    /// What `export` produced: the document, and what was left out of it, grouped.
    public struct ExportResult: Sendable {
        /// The export document (``RegistryExport/Export/bytes`` is what to print).
        public var export: RegistryExport.Export
        /// What was left out, grouped by first problem, in order of first appearance.
        public var leftOut: [LeftOut]
    }

    /// The whole registry (built-in, database, plugin folders) as one export document for
    /// client apps, as of `today`; a type or form whose file has errors is left out and
    /// listed under `unavailable`.
    public func export(today: CivilDate) throws -> ExportResult {
        let export = RegistryExport.make(try workspace.registry(), today: today)
        return ExportResult(export: export, leftOut: Self.grouped(export.unavailable))
    }

    /// `unavailable` grouped by first problem; an item without problems stands alone.
    static func grouped(_ unavailable: [RegistryExport.Unavailable]) -> [LeftOut] {
        var groups: [LeftOut] = []
        var groupOf: [String: Int] = [:]
        for item in unavailable {
            if let first = item.problems.first, let index = groupOf[first] {
                groups[index].items.append(item)
            } else {
                if let first = item.problems.first { groupOf[first] = groups.count }
                groups.append(LeftOut(problem: item.problems.first, items: [item]))
            }
        }
        return groups
    }
}
