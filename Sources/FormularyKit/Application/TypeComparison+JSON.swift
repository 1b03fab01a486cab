import FormularyJSON
import FormularyRules

extension TypeComparison {
    /// The comparison's members, as `types diff --format json` and the compatibility answer
    /// of `POST /v1/types/{name}/compatibility` both write them: `"relation",
    /// "newly_rejected": {"status","witness","shortest","reason"}, "newly_accepted": {…},
    /// "rules": [{"rule","relation","old","new","reason"}], "normalization": {"old","new"} or
    /// null, "set_aside": [...], "secure"`. A witness is null when there is none and always
    /// for a secure type; `reason` is present only where something is undecided.
    func writeFields(to o: inout JSONObjectWriter) {
        o.field("relation", relation.rawValue)
        func difference(_ name: String, _ d: Difference) {
            o.object(name) { d2 in
                d2.field("status", d.status.rawValue)
                if let w = d.witness { d2.field("witness", w) } else { d2.nullField("witness") }
                d2.field("shortest", d.witness != nil && d.isShortest)
                if let reason = d.reason { d2.field("reason", reason) }
            }
        }
        difference("newly_rejected", newlyRejected)
        difference("newly_accepted", newlyAccepted)
        o.array("rules") { a in
            for r in rules {
                a.object { ro in
                    ro.field("rule", r.name)
                    ro.field("relation", r.relation.rawValue)
                    if let old = r.old { ro.field("old", old) } else { ro.nullField("old") }
                    if let new = r.new { ro.field("new", new) } else { ro.nullField("new") }
                    if let reason = r.reason { ro.field("reason", reason) }
                }
            }
        }
        if let n = normalization {
            o.object("normalization") { no in
                no.field("old", n.old)
                no.field("new", n.new)
            }
        } else {
            o.nullField("normalization")
        }
        o.array("set_aside") { a in for name in setAside { a.value(name) } }
        o.field("secure", secure)
    }
}
