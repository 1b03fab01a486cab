import FormularyJSON

/// Data digests read back from the tables: for the records that writers append (a run whose
/// process died is sealed from what it committed), for the seal of data older than the
/// digests, and for `audit verify`. See ``DataDigests`` for what each digest covers.
extension Store {
    /// This database's digest key (table `audit_key`, migration 3).
    func auditKey() throws -> AuditKey {
        if let key = cachedAuditKey { return key }
        let key = AuditKey(try backend.auditKeyBytes())
        cachedAuditKey = key
        return key
    }

    // MARK: Imports

    /// Recomputes what every import wrote from `entries` and `entry_versions` in one pass
    /// over both, in entry id and version order, and checks how each entry's versions hang
    /// together (versions 1…n, each replaced by the import that wrote the next).
    func recomputeImports() throws -> ImportRecomputation {
        let key = try auditKey()
        let headers = try backend.importHeaders()
        let layouts = try backend.encodedLayouts()
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

        // The versions of one entry come together: its earlier ones (held here until its
        // current one shows they belong to an entry that exists), then its current one.
        var earlier: [(row: EntryVersionRow, values: [UInt8])] = []
        func orphans() {
            if let first = earlier.first {
                problems.append(.init(area: .entries, message: "entry \(first.row.entryID) has earlier versions, but the entry itself is missing"))
            }
            earlier.removeAll()
        }
        func feed(_ row: EntryVersionRow, _ values: UnsafeRawBufferPointer) {
            let entryRow = DataDigests.EntryRow(id: row.entryID, version: row.version, formID: row.formID,
                                                key: row.key, layoutID: row.layoutID, sourceLine: row.sourceLine)
            accumulator(row.writtenIn, version: row.version).add(entryRow, vals: values)
        }
        try backend.forEachEntryVersion { row, values in
            if !row.isCurrent {
                if let first = earlier.first, first.row.entryID != row.entryID { orphans() }
                earlier.append((row, Array(values)))
                return
            }
            if let first = earlier.first, first.row.entryID != row.entryID { orphans() }
            let id = row.entryID, createdIn = row.createdOrReplacedIn
            var expectedVersion: Int64 = 1
            var previousReplacedIn: Int64? = nil
            for (v, bytes) in earlier {
                if v.version != expectedVersion {
                    problems.append(.init(area: .entries, message: "entry \(id): version \(expectedVersion) is missing from its history"))
                }
                if v.version == 1 && v.writtenIn != createdIn {
                    problems.append(.init(area: .entries, message: "entry \(id): its first version was written by import \(v.writtenIn), but the entry says import \(createdIn) created it"))
                }
                if let previousReplacedIn, previousReplacedIn != v.writtenIn {
                    problems.append(.init(area: .entries, message: "entry \(id): version \(v.version - 1) was replaced by import \(previousReplacedIn), but version \(v.version) says import \(v.writtenIn) wrote it"))
                }
                previousReplacedIn = v.createdOrReplacedIn
                expectedVersion = v.version + 1
                bytes.withUnsafeBytes { feed(v, $0) }
            }
            earlier.removeAll()
            if row.version != expectedVersion {
                problems.append(.init(area: .entries, message: "entry \(id): it is at version \(row.version), but its history ends at version \(expectedVersion - 1)"))
            }
            if let previousReplacedIn, previousReplacedIn != row.writtenIn {
                problems.append(.init(area: .entries, message: "entry \(id): version \(row.version - 1) was replaced by import \(previousReplacedIn), but the current version says import \(row.writtenIn) wrote it"))
            }
            feed(row, values)
        }
        orphans()

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
        for event in try backend.allEvents(kind) {
            out[event.id] = (event, DataDigests.eventDigest(key: key, kind: kind, event: event))
        }
        return out
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
        try backend.forEachOwnResultRow(ofRun: runID) { entryID, entryVersion, ruleID in
            results.add(entryID: entryID, ruleID: ruleID, entryVersion: Int64(entryVersion))
        }
        let ruleRows = try backend.ownRules(ofRun: runID)
        return (DataDigests.runStartDigest(key: key, plan: plan),
                DataDigests.runDigest(key: key, plan: plan, rules: ruleRows, rejudged: try rejudged(plan),
                                      results: results.finish()))
    }

    /// The entries each form of a run judged again inside the extent of the run whose rows it
    /// shares (only forms that share some), for the run's digest.
    func rejudged(_ plan: DataDigests.RunPlan) throws -> [Int64: [Int64]] {
        var out: [Int64: [Int64]] = [:]
        for (form, _) in plan.forms where form.sharesFrom != nil {
            out[form.formID] = try backend.rejudgedEntryIDs(ofRun: plan.run.id, formID: form.formID)
        }
        return out
    }

    /// Ids of every run, ascending.
    func runIDs() throws -> [Int64] {
        try backend.runIDs()
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
        try backend.allVersions(kind)
    }

    /// Ids of the versions an event or a run refers to.
    func referencedVersionIDs(_ kind: DefinitionKind) throws -> [Int64] {
        try backend.referencedVersionIDs(kind)
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
