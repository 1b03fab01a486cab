import FormularyJSON

extension RunReport {
    /// The report as one JSON document (followed by a newline).
    ///
    /// Members, in this order: `run` (the facts), `form` (the form the report is narrowed
    /// to, or null), `by`, `forms`, `type_versions`, `groups` (worst first), `failures`
    /// (every failed rule, in entry order) and `comparisons` (one per form). Entry keys of
    /// secure fields are written as `•••`.
    public func json(by grouping: ReportGrouping) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 256 + failures.count * 160)
        w.object { o in
            o.object("run") { r in
                r.field("id", Int(facts.runID))
                r.field("status", facts.status)
                r.field("started_at", facts.startedAt)
                r.fieldOrNull("ended_at", facts.endedAt)
                r.field("actor", facts.actor)
                r.field("today", facts.today)
                r.field("entries_checked", facts.entriesChecked)
                r.field("entries_failing", facts.entriesFailing)
                r.field("entries_warned", facts.entriesWarned)
                r.field("errors", facts.errors)
                r.field("warnings", facts.warnings)
                r.fieldOrNull("error", facts.error)
            }
            o.fieldOrNull("form", scope)
            o.field("by", grouping.rawValue)
            o.array("forms") { a in
                for form in forms {
                    a.object { f in
                        f.field("name", form.name)
                        f.field("version", form.version)
                        f.field("entries_checked", form.entriesChecked)
                        f.field("entries_failing", form.entriesFailing)
                    }
                }
            }
            o.array("type_versions") { a in
                for type in typeVersions {
                    a.object { t in
                        t.field("name", type.name)
                        t.field("version", type.version)
                        t.field("origin", type.origin)
                    }
                }
            }
            o.array("groups") { a in
                for group in groups(by: grouping) {
                    a.object { g in
                        if let entry = group.entry {
                            g.field("entry_id", Int(entry.id))
                            g.fieldOrNull("entry_key", entry.displayKey)
                        } else {
                            g.field("key", group.key)
                        }
                        g.field("failures", group.failures)
                        g.field("entries", group.entries)
                        g.field("errors", group.errors)
                        g.field("warnings", group.warnings)
                        g.array("rules") { ra in for rule in group.rules { ra.value(rule) } }
                        g.field("message", group.commonMessage)
                    }
                }
            }
            o.array("failures") { a in
                for failure in failures {
                    a.object { f in
                        f.field("entry_id", Int(failure.entry.id))
                        f.fieldOrNull("entry_key", failure.entry.displayKey)
                        f.field("form", failure.form)
                        f.fieldOrNull("field", failure.field)
                        f.fieldOrNull("type", failure.type)
                        f.fieldOrNull("type_version", failure.typeVersion)
                        f.field("rule", failure.rule)
                        f.field("severity", failure.severity.rawValue)
                        f.field("message", failure.message)
                    }
                }
            }
            o.array("comparisons") { a in
                for c in comparisons {
                    a.object { co in
                        co.field("form", c.form)
                        if let previous = c.previousRunID { co.field("previous_run", Int(previous)) }
                        else { co.nullField("previous_run") }
                        co.array("newly_failing") { na in
                            for n in c.newlyFailing {
                                na.object { e in
                                    e.field("entry_id", Int(n.entry.id))
                                    e.fieldOrNull("entry_key", n.entry.displayKey)
                                    e.field("before", n.before.rawValue)
                                }
                            }
                        }
                        co.array("fixed") { fa in
                            for entry in c.fixed {
                                fa.object { e in
                                    e.field("entry_id", Int(entry.id))
                                    e.fieldOrNull("entry_key", entry.displayKey)
                                }
                            }
                        }
                    }
                }
            }
        }
        w.newline()
        return w.bytes
    }

    /// The report as CSV (RFC 4180, CRLF line ends): a header, then one record per failed
    /// rule, worst group first and by entry id within a group. Cells that a spreadsheet
    /// would run as a formula are prefixed with `'` (see ``ReportEscaping/csvCell(_:)``).
    public func csv(by grouping: ReportGrouping) -> String {
        var out = ReportEscaping.csvRecord(["run", "form", "entry_id", "entry_key", "field", "type",
                                            "type_version", "rule", "severity", "message"])
        for f in failuresInGroupOrder(by: grouping) {
            out += ReportEscaping.csvRecord([
                String(facts.runID), f.form, String(f.entry.id), f.entry.displayKey ?? "", f.field ?? "",
                f.type ?? "", f.typeVersion ?? "", f.rule, f.severity.rawValue, f.message,
            ])
        }
        return out
    }
}

extension JSONObjectWriter {
    /// A string member, or `null` when the value is nil (the member is always present, so
    /// that clients can rely on the document's shape).
    mutating func fieldOrNull(_ key: String, _ value: String?) {
        if let value { field(key, value) } else { nullField(key) }
    }
}
