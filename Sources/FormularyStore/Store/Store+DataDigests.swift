import FormularyJSON

/// Data digests read back from the tables: for the records that writers append (a run whose
/// process died is sealed from what it committed), for the seal of data older than the
/// digests, and for `audit verify`. See ``DataDigests`` for what each digest covers.
extension Store {
    /// This database's digest key (table `audit_key`, migration 3).
    func auditKey() throws -> AuditKey {
        if let key = cachedAuditKey { return key }
        let statement = try database.cachedStatement("SELECT key FROM audit_key WHERE id = 1")
        guard let bytes = try statement.first({ $0.blob(0) }), bytes.count == 32 else {
            throw StoreError.corrupt("the audit key (table audit_key) is missing")
        }
        let key = AuditKey(bytes)
        cachedAuditKey = key
        return key
    }

    // MARK: Imports

    /// The `imports` rows by id, with their form's name.
    func importHeaders() throws -> [Int64: DataDigests.ImportHeader] {
        var out: [Int64: DataDigests.ImportHeader] = [:]
        try database.cachedStatement("""
            SELECT i.id, i.form_id, coalesce(f.name, ''), i.at, i.actor, i.source
            FROM imports AS i LEFT JOIN forms AS f ON f.id = i.form_id ORDER BY i.id
            """).forEachRow { row in
            out[row.int64(0)] = DataDigests.ImportHeader(id: row.int64(0), formID: row.int64(1), form: row.string(2),
                                                          at: row.string(3), actor: row.string(4),
                                                          source: row.string(5))
        }
        return out
    }

    /// Every layout's encoded column names, by id.
    func encodedLayouts() throws -> [Int64: [UInt8]] {
        var out: [Int64: [UInt8]] = [:]
        try database.cachedStatement("SELECT id, fields FROM entry_layouts").forEachRow { row in
            out[row.int64(0)] = row.blob(1)
        }
        return out
    }

    /// Recomputes what every import wrote from `entries` and `entry_versions` in one pass
    /// over both, in entry id and version order, and checks how each entry's versions hang
    /// together (versions 1…n, each replaced by the import that wrote the next).
    func recomputeImports() throws -> ImportRecomputation {
        let key = try auditKey()
        let headers = try importHeaders()
        let layouts = try encodedLayouts()
        var accumulators: [Int64: DataDigests.ImportAccumulator] = [:]
        var problems: [AuditProblem] = []
        // New entries of one import have consecutive ids: once the scan meets another
        // import's new entry, the previous import's first versions are complete.
        var creating: DataDigests.ImportAccumulator?
        func accumulator(_ importID: Int64, version: Int64) -> DataDigests.ImportAccumulator {
            let a: DataDigests.ImportAccumulator
            if let existing = accumulators[importID] {
                a = existing
            } else {
                a = DataDigests.ImportAccumulator()
                accumulators[importID] = a
            }
            if version == 1 && creating !== a {
                creating?.finishCreated()
                creating = a
            }
            return a
        }

        let versions = try database.makeStatement("""
            SELECT entry_id, version, layout_id, vals, written_in, replaced_in FROM entry_versions
            ORDER BY entry_id, version
            """)
        defer { versions.reset() }
        var versionsPending = try versions.step()
        let entries = try database.makeStatement("""
            SELECT id, form_id, key, layout_id, vals, version, created_in, updated_in FROM entries ORDER BY id
            """)
        defer { entries.reset() }
        while try entries.step() {
            let row = Row(handle: entries.handle)
            let id = row.int64(0), formID = row.int64(1), entryKey = row.optionalString(2)
            let version = row.int64(5), createdIn = row.int64(6)
            let writer = row.optionalInt64(7) ?? createdIn
            var expectedVersion: Int64 = 1
            var previousWriter: Int64? = nil
            // Earlier versions of this entry (and any left by an entry that is gone).
            while versionsPending {
                let v = Row(handle: versions.handle)
                let entryID = v.int64(0)
                if entryID > id { break }
                if entryID < id {
                    problems.append(.init(area: .entries, message: "entry \(entryID) has earlier versions, but the entry itself is missing"))
                } else {
                    let number = v.int64(1), writtenIn = v.int64(4)
                    if number != expectedVersion {
                        problems.append(.init(area: .entries, message: "entry \(id): version \(expectedVersion) is missing from its history"))
                    }
                    if number == 1 && writtenIn != createdIn {
                        problems.append(.init(area: .entries, message: "entry \(id): its first version was written by import \(writtenIn), but the entry says import \(createdIn) created it"))
                    }
                    if let previousWriter, previousWriter != writtenIn {
                        problems.append(.init(area: .entries, message: "entry \(id): version \(number - 1) was replaced by import \(previousWriter), but version \(number) says import \(writtenIn) wrote it"))
                    }
                    previousWriter = v.int64(5)
                    expectedVersion = number + 1
                    let entryRow = DataDigests.EntryRow(id: id, version: number, formID: formID, key: entryKey,
                                                        layoutID: v.int64(2))
                    v.withUnsafeBytes(at: 3) { accumulator(writtenIn, version: number).add(entryRow, vals: $0) }
                }
                versionsPending = try versions.step()
            }
            if version != expectedVersion {
                problems.append(.init(area: .entries, message: "entry \(id): it is at version \(version), but its history ends at version \(expectedVersion - 1)"))
            }
            if let previousWriter, previousWriter != writer {
                problems.append(.init(area: .entries, message: "entry \(id): version \(version - 1) was replaced by import \(previousWriter), but the current version says import \(writer) wrote it"))
            }
            let entryRow = DataDigests.EntryRow(id: id, version: version, formID: formID, key: entryKey,
                                                layoutID: row.int64(3))
            row.withUnsafeBytes(at: 4) { accumulator(writer, version: version).add(entryRow, vals: $0) }
        }
        while versionsPending {
            let entryID = Row(handle: versions.handle).int64(0)
            problems.append(.init(area: .entries, message: "entry \(entryID) has earlier versions, but the entry itself is missing"))
            versionsPending = try versions.step()
        }

        var imports: [Int64: RecomputedImport] = [:]
        for (id, header) in headers {
            let a = accumulators.removeValue(forKey: id) ?? DataDigests.ImportAccumulator()
            imports[id] = RecomputedImport(created: a.createdCount, updated: a.updatedCount,
                                           digest: a.digest(key: key, header: header, layouts: layouts))
        }
        // Rows written by an import that has no `imports` row.
        for (importID, a) in accumulators.sorted(by: { $0.key < $1.key }) {
            problems.append(.init(area: .entries, message: "\(a.createdCount + a.updatedCount) entry version\(a.createdCount + a.updatedCount == 1 ? "" : "s") name import \(importID) as their writer, but there is no such import"))
        }
        return ImportRecomputation(imports: imports, problems: problems)
    }

    // MARK: Type and form events

    /// Every add and retirement of database types or forms, by event id, with its digest.
    func recomputeEvents(_ kind: DefinitionKind) throws -> [Int64: (event: DefinitionEvent, digest: String)] {
        let key = try auditKey()
        var out: [Int64: (DefinitionEvent, String)] = [:]
        let statement = try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)), e.id, e.action, e.at, e.actor, e.name FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id ORDER BY e.id
            """)
        try statement.forEachRow { row in
            let event = DefinitionEvent(id: row.int64(8), name: row.string(12),
                                        action: DefinitionEvent.Action(rawValue: row.string(9)) ?? .add,
                                        version: row.isNull(0) ? nil : Self.version(kind, from: row),
                                        at: row.string(10), actor: row.string(11))
            out[event.id] = (event, DataDigests.eventDigest(key: key, kind: kind, event: event))
        }
        return out
    }

    /// The digest of one event, for the record that adds or retires it.
    func eventDigest(_ kind: DefinitionKind, eventID: Int64) throws -> String {
        let statement = try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)), e.id, e.action, e.at, e.actor, e.name FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id WHERE e.id = ?
            """)
        try statement.bind([.integer(eventID)])
        guard let event = try statement.first({ row in
            DefinitionEvent(id: row.int64(8), name: row.string(12),
                            action: DefinitionEvent.Action(rawValue: row.string(9)) ?? .add,
                            version: row.isNull(0) ? nil : Self.version(kind, from: row),
                            at: row.string(10), actor: row.string(11))
        }) else { throw StoreError.corrupt("\(kind.rawValue) event \(eventID) is missing") }
        return DataDigests.eventDigest(key: try auditKey(), kind: kind, event: event)
    }

    // MARK: Runs

    /// What run `runID` was set up to judge, as stored.
    func runPlan(_ runID: Int64) throws -> DataDigests.RunPlan? {
        guard let run = try run(id: runID) else { return nil }
        var forms: [(RunFormRecord, DefinitionVersion)] = []
        for form in run.forms.sorted(by: { $0.formID < $1.formID }) {
            guard let version = try version(.form, id: form.formVersionID) else {
                throw StoreError.corrupt("run \(runID) names form version \(form.formVersionID), which is missing")
            }
            forms.append((form, version))
        }
        return DataDigests.RunPlan(run: run, forms: forms, fieldTypes: try fieldTypes(ofRun: runID))
    }

    /// The digests of run `runID` as its rows stand: of its plan (what `validate.start`
    /// records) and of the whole run (what `validate` records when it ends).
    func recomputeRun(_ runID: Int64) throws -> (start: String, full: String)? {
        guard let plan = try runPlan(runID) else { return nil }
        let key = try auditKey()
        let results = DataDigests.ResultsAccumulator()
        let statement = try database.cachedStatement(
            "SELECT entry_id, rule_id, entry_version FROM run_results WHERE run_id = ? ORDER BY entry_id, rule_id")
        try statement.bind([.integer(runID)])
        try statement.forEachRow { results.add(entryID: $0.int64(0), ruleID: $0.int64(1), entryVersion: $0.int64(2)) }
        let rules = try database.cachedStatement("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = ? ORDER BY rr.id
            """)
        try rules.bind([.integer(runID)])
        let ruleRows = try rules.map { Self.rule(from: $0, at: 0) }
        return (DataDigests.runStartDigest(key: key, plan: plan),
                DataDigests.runDigest(key: key, plan: plan, rules: ruleRows, results: results.finish()))
    }

    /// Ids of every run, ascending.
    func runIDs() throws -> [Int64] {
        try database.cachedStatement("SELECT id FROM runs ORDER BY id").map { $0.int64(0) }
    }
}

/// What `audit verify` recomputes for one import.
struct RecomputedImport {
    var created: Int
    var updated: Int
    var digest: String
}

/// Every import recomputed, and what does not hang together in the entries' histories.
struct ImportRecomputation {
    var imports: [Int64: RecomputedImport]
    var problems: [AuditProblem]
}

extension Store {
    /// Every stored version of a kind, by id.
    func allVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try database.cachedStatement("SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v ORDER BY v.id")
            .map { Self.version(kind, from: $0) }
    }

    /// Ids of the versions an event or a run refers to.
    func referencedVersionIDs(_ kind: DefinitionKind) throws -> [Int64] {
        let runs = kind == .type ? "SELECT type_version_id FROM run_type_versions"
                                 : "SELECT form_version_id FROM run_forms"
        return try database.cachedStatement("""
            SELECT version_id FROM \(kind.eventsTable) WHERE version_id IS NOT NULL UNION \(runs)
            """).map { $0.int64(0) }
    }
}

extension Store {
    /// Appends one `audit.seal` record with the digests of every import, type and form event
    /// and run already stored, so that data written before digests existed is proved from
    /// then on like the rest. Does nothing on a database without data.
    func sealExistingData(actor: String) throws {
        let imports = try recomputeImports().imports
        let typeEvents = try recomputeEvents(.type)
        let formEvents = try recomputeEvents(.form)
        let runs = try runIDs()
        guard !(imports.isEmpty && typeEvents.isEmpty && formEvents.isEmpty && runs.isEmpty) else { return }
        var sealedRuns = JSONObject()
        for id in runs {
            guard let digests = try recomputeRun(id) else { continue }
            sealedRuns[String(id)] = ["start": .string(digests.start), "end": .string(digests.full)]
        }
        func events(_ events: [Int64: (event: DefinitionEvent, digest: String)]) -> JSONValue {
            .object(JSONObject(events.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value.digest)) }))
        }
        try appendAudit(actor: actor, action: AuditAction.seal, subject: "data before digests", details: [
            "imports": .object(JSONObject(imports.sorted { $0.key < $1.key }.map { id, found in
                (String(id), ["digest": .string(found.digest), "added": .integer(found.created),
                              "updated": .integer(found.updated)])
            })),
            "type_events": events(typeEvents),
            "form_events": events(formEvents),
            "runs": .object(sealedRuns),
        ])
    }
}
