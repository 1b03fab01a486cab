import FormularyJSON

extension RunReport {
    /// The report as one JSON document (followed by a newline).
    ///
    /// Members, in this order: `run` (the facts, with `failing_percent`), `form` (the form
    /// the report is narrowed to, or null), `by`, `forms`, `type_versions`, `groups` (worst
    /// first; by rule or field with `previous`, the failures of the previous run, or null),
    /// `top_values` (per rule and per field, the 10 most frequent non-secret failing values
    /// with counts), `changes` (failures per rule and per field, `previous` and `now`; null
    /// without an earlier run), `runs` (the recent runs, oldest first), `failures` (every failed rule in
    /// entry order, each with its `value` and `source`) and `comparisons` (one per form).
    /// Secret values and entry keys are written as `•••`.
    package func json(by grouping: ReportGrouping) -> [UInt8] {
        ReportSink.collect { try renderJSON(by: grouping, to: $0) }
    }

    /// ``json(by:)`` written into `sink` as the rows arrive.
    package func renderJSON(by grouping: ReportGrouping, to sink: ReportSink) throws {
        func member(_ key: String, first: Bool = false, _ body: (inout JSONWriter) throws -> Void) throws {
            var w = JSONWriter()
            if !first { w.bytes.append(UInt8(ascii: ",")) }
            w.value(key)
            w.bytes.append(UInt8(ascii: ":"))
            try body(&w)
            try sink.write(bytes: w.bytes)
        }
        try sink.write("{")
        try member("run", first: true) { w in
            w.object { r in
                r.field("id", Int(facts.runID))
                r.field("status", facts.status)
                r.field("started_at", facts.startedAt)
                r.fieldOrNull("ended_at", facts.endedAt)
                r.field("actor", facts.actor)
                r.field("today", facts.today)
                r.fieldOrNull("locale", facts.locale)
                r.field("entries_checked", facts.entriesChecked)
                r.field("entries_failing", facts.entriesFailing)
                r.field("failing_percent", Self.percentValue(facts.entriesFailing, of: facts.entriesChecked))
                r.field("entries_warned", facts.entriesWarned)
                r.field("errors", facts.errors)
                r.field("warnings", facts.warnings)
                r.fieldOrNull("error", facts.error)
            }
        }
        try member("form") { w in if let scope { w.value(scope) } else { w.null() } }
        try member("by") { w in w.value(grouping.rawValue) }
        try member("forms") { w in
            w.array { a in
                for form in forms {
                    a.object { f in
                        f.field("name", form.name)
                        f.field("version", form.version)
                        f.field("entries_checked", form.entriesChecked)
                        f.field("entries_failing", form.entriesFailing)
                    }
                }
            }
        }
        try member("type_versions") { w in
            w.array { a in
                for type in typeVersions {
                    a.object { t in
                        t.field("name", type.name)
                        t.field("version", type.version)
                        t.field("origin", type.origin)
                    }
                }
            }
        }
        let withPrevious = grouping != .entry && !previousRunIDs.isEmpty
        let before = withPrevious ? try previousCounts(by: grouping) : [:]
        try sink.write(",\"groups\":[")
        var firstGroup = true
        try rows.forEachGroup(by: grouping) { group in
            var w = JSONWriter()
            if !firstGroup { w.bytes.append(UInt8(ascii: ",")) }
            firstGroup = false
            w.object { g in
                if let entry = group.entry {
                    g.field("entry_id", Int(entry.id))
                    g.fieldOrNull("entry_key", entry.displayKey)
                } else {
                    g.field("key", group.key)
                }
                g.field("failures", group.failures)
                if grouping != .entry {
                    if withPrevious { g.field("previous", before[group.key] ?? 0) }
                    else { g.nullField("previous") }
                }
                g.field("entries", group.entries)
                g.field("errors", group.errors)
                g.field("warnings", group.warnings)
                g.array("rules") { ra in for rule in group.rules { ra.value(rule) } }
                if group.entry != nil {
                    g.array("values") { va in for v in group.values { if let v { va.value(v) } else { va.null() } } }
                    g.fieldOrNull("source", group.source)
                }
                g.field("message", group.commonMessage)
            }
            try sink.write(bytes: w.bytes)
            return true
        }
        try sink.write("]")
        let topValues = try topValuesPart.value()
        try member("top_values") { w in
            w.object { o in
                for g in [ReportGrouping.rule, .field] {
                    o.object(g.rawValue) { k in
                        let values = topValues[g] ?? [:]
                        for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                            k.array(key) { a in
                                for v in values[key]! {
                                    a.object { e in
                                        e.field("value", v.value)
                                        e.field("count", v.count)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Failures per rule and per field now and in the previous run of the same form(s),
        // whatever the grouping (null when there is no earlier run).
        var changes: [(grouping: ReportGrouping, now: [String: Int], before: [String: Int])] = []
        for g in [ReportGrouping.rule, .field] where !previousRunIDs.isEmpty {
            var now: [String: Int] = [:]
            try rows.forEachGroup(by: g) { now[$0.key] = $0.failures; return true }
            changes.append((g, now, try previousCounts(by: g)))
        }
        try member("changes") { w in
            guard !previousRunIDs.isEmpty else { return w.null() }
            w.object { o in
                o.array("previous_runs") { a in for id in previousRunIDs { a.value(Int(id)) } }
                for (g, now, before) in changes {
                    o.object(g.rawValue) { k in
                        for key in Set(now.keys).union(before.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                            k.object(key) { c in
                                c.field("previous", before[key] ?? 0)
                                c.field("now", now[key] ?? 0)
                            }
                        }
                    }
                }
            }
        }
        try member("runs") { w in
            w.array { a in
                for run in recentRuns {
                    a.object { r in
                        r.field("id", Int(run.id))
                        r.field("started_at", run.startedAt)
                        r.field("status", run.status)
                        r.field("entries_checked", run.entriesChecked)
                        r.field("entries_failing", run.entriesFailing)
                    }
                }
            }
        }
        try sink.write(",\"failures\":[")
        var firstFailure = true
        try rows.forEachFailure(groupedBy: nil) { failure in
            var w = JSONWriter()
            if !firstFailure { w.bytes.append(UInt8(ascii: ",")) }
            firstFailure = false
            w.object { f in
                f.field("entry_id", Int(failure.entry.id))
                f.fieldOrNull("entry_key", failure.entry.displayKey)
                f.field("form", failure.form)
                f.fieldOrNull("field", failure.field)
                f.fieldOrNull("type", failure.type)
                f.fieldOrNull("type_version", failure.typeVersion)
                f.field("rule", failure.rule)
                f.field("severity", failure.severity.rawValue)
                f.field("message", failure.message)
                f.fieldOrNull("value", failure.value)
                f.fieldOrNull("source", failure.source)
            }
            try sink.write(bytes: w.bytes)
            return true
        }
        try sink.write("],\"comparisons\":[")
        for (i, c) in try comparisonsPart.value().enumerated() {
            var w = JSONWriter()
            if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.bytes.append(contentsOf: "{\"form\":".utf8)
            w.value(c.form)
            w.bytes.append(contentsOf: ",\"previous_run\":".utf8)
            if let previous = c.previousRunID { w.value(Int(previous)) } else { w.null() }
            w.bytes.append(contentsOf: ",\"newly_failing_count\":\(c.newlyFailingCount),\"fixed_count\":\(c.fixedCount),\"newly_failing\":[".utf8)
            try sink.write(bytes: w.bytes)
            var first = true
            func entry(_ e: EntryRef, before: Comparison.Before?) throws {
                var w = JSONWriter()
                if !first { w.bytes.append(UInt8(ascii: ",")) }
                first = false
                w.object { o in
                    o.field("entry_id", Int(e.id))
                    o.fieldOrNull("entry_key", e.displayKey)
                    if let before { o.field("before", before.rawValue) }
                }
                try sink.write(bytes: w.bytes)
            }
            if c.newlyFailing.count == c.newlyFailingCount {
                for n in c.newlyFailing { try entry(n.entry, before: n.before) }
            } else {
                try rows.forEachComparedEntry(form: c.form, newly: true) { try entry($0.entry, before: $0.before) }
            }
            try sink.write("],\"fixed\":[")
            first = true
            if c.fixed.count == c.fixedCount {
                for e in c.fixed { try entry(e, before: nil) }
            } else {
                try rows.forEachComparedEntry(form: c.form, newly: false) { try entry($0.entry, before: nil) }
            }
            try sink.write("]}")
        }
        try sink.write("]}\n")
    }

    /// A percentage with one decimal as a JSON number (0 of nothing).
    package static func percentValue(_ part: Int, of whole: Int) -> Double {
        guard whole > 0 else { return 0 }
        return Double((part * 1000 + whole / 2) / whole) / 10
    }

    /// The report as CSV (RFC 4180, CRLF line ends): a header, then one record per failed
    /// rule, worst group first and by entry id within a group, with the value judged and the
    /// entry's source. Cells that a spreadsheet would run as a formula are prefixed with `'`
    /// (see ``ReportEscaping/csvCell(_:)``).
    package func csv(by grouping: ReportGrouping) -> String {
        String(decoding: ReportSink.collect { try renderCSV(by: grouping, to: $0) }, as: UTF8.self)
    }

    /// ``csv(by:)`` written into `sink` as the rows arrive.
    package func renderCSV(by grouping: ReportGrouping, to sink: ReportSink) throws {
        try sink.write(ReportEscaping.csvRecord(["run", "form", "entry_id", "entry_key", "field", "type",
                                                 "type_version", "rule", "severity", "message", "value", "source"]))
        try rows.forEachFailure(groupedBy: grouping) { f in
            try sink.write(ReportEscaping.csvRecord([
                String(facts.runID), f.form, String(f.entry.id), f.entry.displayKey ?? "", f.field ?? "",
                f.type ?? "", f.typeVersion ?? "", f.rule, f.severity.rawValue, f.message, f.value ?? "", f.source ?? "",
            ]))
            return true
        }
    }
}

extension JSONObjectWriter {
    /// A string member, or `null` when the value is nil (the member is always present, so
    /// that clients can rely on the document's shape).
    mutating func fieldOrNull(_ key: String, _ value: String?) {
        if let value { field(key, value) } else { nullField(key) }
    }
}
