/// The messages that data digests hash, one per kind of audited change.
///
/// Writers (an import, a run, a type or form event) and `audit verify`, which reads the same
/// rows back from the tables, build their digests here, so that the two can only agree when
/// the tables hold what was written. docs/storage.md ("Data digests") spells out each message.
enum DataDigests {
    // MARK: Entries

    /// One stored version of an entry, as an import wrote it.
    struct EntryRow {
        var id: Int64
        var version: Int64
        var formID: Int64
        var key: String?
        var layoutID: Int64
        /// The import file's line the version was written from (migration 5); nil before it.
        var sourceLine: Int64? = nil
    }

    /// Feeds an entry version's fields and its encoded values.
    static func feed(_ row: EntryRow, vals: UnsafeRawBufferPointer, into feed: DigestFeed) {
        feed.tag(UInt8(ascii: "r"))
        feed.int(row.id)
        feed.int(row.version)
        feed.int(row.formID)
        feed.text(row.key)
        feed.int(row.layoutID)
        feed.bytes(vals)
        // Only when known, so that versions written before migration 5 keep their digests.
        if let line = row.sourceLine {
            feed.tag(UInt8(ascii: "l"))
            feed.int(line)
        }
    }

    /// What one import wrote: the first versions of the entries it created, in id order
    /// (streamed: an import's new entries have consecutive ids), and the later versions it
    /// wrote over existing entries, each by its own hash (they arrive in file order, which
    /// nothing stored remembers, and are sorted by entry id and version before the digest).
    final class ImportAccumulator {
        private let created = DigestFeed()
        private var createdHash: [UInt8]?
        /// Set when a first version comes after ``finishCreated()``: the rows of one import
        /// are not contiguous, which no import writes.
        private var createdOutOfOrder = false
        private(set) var createdCount = 0
        private var updates: [(id: Int64, version: Int64, hash: [UInt8])] = []
        private(set) var layoutIDs: Set<Int64> = []

        init() {}

        var updatedCount: Int { updates.count }

        func add(_ row: EntryRow, vals: UnsafeRawBufferPointer) {
            layoutIDs.insert(row.layoutID)
            if row.version == 1 {
                createdCount += 1
                if createdHash != nil { createdOutOfOrder = true; return }
                DataDigests.feed(row, vals: vals, into: created)
            } else {
                let one = DigestFeed()
                DataDigests.feed(row, vals: vals, into: one)
                updates.append((row.id, row.version, one.finalize()))
            }
        }

        /// Ends the first versions early (verification, when the scan has passed them), so
        /// that their buffer is freed.
        func finishCreated() {
            if createdHash == nil { createdHash = created.finalize() }
        }

        /// The digest, given the import's header and the column names (encoded, as stored in
        /// `entry_layouts.fields`) of every layout its rows use.
        func digest(key: AuditKey, header: ImportHeader, layouts: [Int64: [UInt8]]) -> String {
            finishCreated()
            // A digest no writer can have produced: the comparison fails, as it should.
            let createdHash = createdOutOfOrder ? [UInt8](repeating: 0, count: 32) : self.createdHash!
            let sortedUpdates = updates.sorted { ($0.id, $0.version) < ($1.id, $1.version) }
            let layoutIDs = self.layoutIDs.sorted()
            let createdCount = self.createdCount
            return key.digest { f in
                f.word("import")
                f.int(header.id)
                f.int(header.formID)
                f.text(header.form)
                f.text(header.at)
                f.text(header.actor)
                f.text(header.source)
                f.tag(UInt8(ascii: "C"))
                f.int(createdCount)
                f.bytes(createdHash)
                f.tag(UInt8(ascii: "U"))
                f.int(sortedUpdates.count)
                for u in sortedUpdates {
                    f.int(u.id)
                    f.int(u.version)
                    f.bytes(u.hash)
                }
                f.tag(UInt8(ascii: "L"))
                for id in layoutIDs {
                    f.int(id)
                    if let fields = layouts[id] { f.bytes(fields) } else { f.null() }
                }
            }
        }
    }

    // MARK: Type and form definitions

    /// A stored version of a type or form, as a record that refers to it saw it.
    static func feed(_ version: DefinitionVersion, into f: DigestFeed) {
        f.tag(UInt8(ascii: "v"))
        f.int(version.id)
        f.text(version.name)
        f.text(version.hash)
        f.text(version.origin)
        f.text(version.recordedAt)
        f.text(version.actor)
        f.int(version.secure ? 1 : 0)
    }

    /// An add or a retirement of a database type or form: the event row and the version it
    /// made current.
    static func eventDigest(key: AuditKey, kind: DefinitionKind, event: DefinitionEvent) -> String {
        key.digest { f in
            f.word("\(kind.auditNoun).\(event.action.rawValue)")
            f.int(event.id)
            f.text(event.name)
            f.text(event.at)
            f.text(event.actor)
            if let version = event.version { feed(version, into: f) } else { f.null() }
        }
    }

    // MARK: Tokens of `formulary serve`

    /// A token's row as it stands: who may act with it, and since and until when. The hash
    /// is that of a 32-byte random token, so the digest lets no one guess it.
    static func tokenDigest(key: AuditKey, token: StoredToken) -> String {
        key.digest { f in
            f.word("token")
            f.int(token.id)
            f.text(token.name)
            f.text(token.scope)
            f.text(token.hash)
            f.text(token.createdAt)
            f.text(token.createdBy)
            f.text(token.revokedAt)
        }
    }

    // MARK: Validation runs

    /// The results of one run in `run_results` order (entry id, then rule id), hashed as they
    /// come: the run's writer feeds them as it inserts them, verification as it reads them.
    final class ResultsAccumulator {
        private let feed = DigestFeed()
        @exclusivity(unchecked) private(set) var count = 0   // one thread's (see DigestFeed)

        init() {}

        func add(entryID: Int64, ruleID: Int64, entryVersion: Int64) {
            count += 1
            feed.int(entryID)
            feed.int(ruleID)
            feed.int(entryVersion)
        }

        func finish() -> (hash: [UInt8], count: Int) {
            let count = self.count
            return (feed.finalize(), count)
        }
    }

    /// What a run is judged with, fixed when it starts: the run row's first fields, each
    /// form with its version and extent, and the type version of each field.
    struct RunPlan {
        var run: RunRecord
        var forms: [(form: RunFormRecord, version: DefinitionVersion)]
        var fieldTypes: [RunFieldType]
    }

    /// The digest a run's `validate.start` record holds.
    static func runStartDigest(key: AuditKey, plan: RunPlan) -> String {
        key.digest { f in
            f.word("validate.start")
            feedPlan(plan, into: f)
        }
    }

    /// The digest a run's `validate` record holds when the run ends: its plan, its counts and
    /// status, its own failed rules and result rows, and for each form that shares another
    /// run's rows, that run and the entries judged again (`rejudged`, by form id). The shared
    /// rows themselves are covered by their own run's record.
    static func runDigest(key: AuditKey, plan: RunPlan, rules: [RunRule], rejudged: [Int64: [Int64]],
                          results: (hash: [UInt8], count: Int)) -> String {
        key.digest { f in
            f.word("validate")
            feedPlan(plan, into: f)
            let run = plan.run
            f.tag(UInt8(ascii: "E"))
            f.text(run.recordedStatus.rawValue)
            f.text(run.endedAt)
            f.text(run.error)
            feed(run.counts, into: f)
            for (form, _) in plan.forms {
                f.int(form.formID)
                f.int(form.judgedThrough)
                feed(form.counts, into: f)
            }
            // Carried forward entries (0006), only where some were: the digests of runs
            // without any, and of every run before 0006, are unchanged.
            for (form, _) in plan.forms where form.entriesCarried > 0 || form.carriedFrom != nil {
                f.tag(UInt8(ascii: "C"))
                f.int(form.formID)
                f.int(form.entriesCarried)
                f.int(form.carriedFrom ?? 0)
            }
            // Shared results (0009), only where some are: earlier digests are unchanged.
            for (form, _) in plan.forms {
                guard let shares = form.sharesFrom else { continue }
                f.tag(UInt8(ascii: "S"))
                f.int(form.formID)
                f.int(shares)
                let ids = rejudged[form.formID] ?? []
                f.int(ids.count)
                for id in ids { f.int(id) }
            }
            f.tag(UInt8(ascii: "R"))
            for rule in rules {
                f.int(rule.id)
                f.int(rule.formID)
                f.text(rule.field)
                f.text(rule.type)
                f.text(rule.rule)
                f.text(rule.severity.rawValue)
                f.text(rule.message)
            }
            f.tag(UInt8(ascii: "X"))
            f.int(results.count)
            f.bytes(results.hash)
        }
    }

    private static func feedPlan(_ plan: RunPlan, into f: DigestFeed) {
        let run = plan.run
        f.int(run.id)
        f.text(run.startedAt)
        f.text(run.actor)
        f.text(run.today)
        f.int(run.lastImport)
        f.text(run.process.host)
        f.int(run.process.pid)
        f.text(run.process.start)
        f.tag(UInt8(ascii: "F"))
        for (form, version) in plan.forms {
            f.int(form.formID)
            f.text(form.form)
            f.int(form.lastID)
            feed(version, into: f)
        }
        f.tag(UInt8(ascii: "T"))
        for type in plan.fieldTypes {
            f.int(type.formID)
            f.text(type.field)
            feed(type.version, into: f)
        }
        // The locale (0012), only where there is one: the digests of runs in the types' own
        // texts, and of every run before 0012, are unchanged.
        if let locale = run.locale {
            f.tag(UInt8(ascii: "L"))
            f.text(locale)
        }
        // The translations' digest (0014), likewise only where there is one.
        if let messages = run.messages {
            f.tag(UInt8(ascii: "M"))
            f.text(messages)
        }
    }

    private static func feed(_ counts: RunCounts, into f: DigestFeed) {
        f.int(counts.entriesChecked)
        f.int(counts.entriesInvalid)
        f.int(counts.entriesWarned)
        f.int(counts.errors)
        f.int(counts.warnings)
    }
}
