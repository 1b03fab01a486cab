import Foundation
import Testing
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// A database with the sign-up form in a plugin folder, for validation tests.
final class ValidationFixture {
    let folder: URL
    let store: Store
    var registry: Registry
    var tick = 0

    static let form = """
        form signup
        field name        name                    required
        field email       email                   required
        field email-again email
        field phone       phone
        field age         age(min: 18, max: 120)  required
        field card        credit-card
        field exp         exp-date
        field cvv         cvv
        same email email-again   message "The two emails differ"
        require exp cvv when card
        """

    /// `makeStore` opens the database (given the fixture's folder): a SQLite file there when nil.
    init(form: String = ValidationFixture.form, extraTypes: [String: String] = [:],
         makeStore: ((URL) throws -> Store)? = nil) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("formulary-validation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try form.write(to: folder.appendingPathComponent("signup.form"), atomically: true, encoding: .utf8)
        for (name, text) in extraTypes {
            try text.write(to: folder.appendingPathComponent("\(name).field"), atomically: true, encoding: .utf8)
        }
        store = try makeStore?(folder) ?? Store(path: folder.appendingPathComponent("test.db").path)
        try store.migrate()
        // An advancing clock: every timestamp differs, as on a real machine.
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let counter = Counter()
        store.clock = { base.addingTimeInterval(Double(counter.next())) }
        registry = try Registry.load(folders: [PluginFolder(path: folder.path, origin: .option)])
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Imports rows (nil: absent) with the given columns; returns their ids.
    @discardableResult
    func add(_ columns: [String], _ rows: [[String?]], form: String = "signup") throws -> [Int64] {
        try store.transaction {
            let writer = try store.entryWriter(form: form, actor: "tester", source: "test.csv")
            let layout = try writer.layoutID(for: columns)
            let ids = try rows.map { try writer.add(layoutID: layout, values: $0) }
            try writer.recordAudit()
            return ids
        }
    }

    /// Keyed import: updates the entry with that key.
    func upsert(_ columns: [String], key: String, _ values: [String?]) throws -> EntryWriteOutcome {
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "tester", source: "update.csv")
            let outcome = try writer.upsert(key: key, layoutID: writer.layoutID(for: columns), values: values)
            try writer.recordAudit()
            return outcome
        }
    }

    func validate(forms: [String]? = nil, batchSize: Int = 7, workers: Int = 2,
                  rememberValues: Bool = true, all: Bool = false,
                  today: CivilDate = CivilDate(year: 2026, month: 11, day: 29)) throws -> FormularyStore.RunRecord {
        let options = ValidationOptions(forms: forms, today: today,
                                        actor: "tester", batchSize: batchSize, workers: workers,
                                        rememberValues: rememberValues, carryForward: !all)
        return try ValidationRun(store: store, registry: registry, options: options).run()
    }

    static let columns = ["name", "email", "email-again", "phone", "age", "card", "exp", "cvv"]
    static let good: [String?] = ["Ada Lovelace", "ada@example.com", "ada@example.com", "(555) 123-4567",
                                  "36", "4111 1111 1111 1111", "09/28", "123"]
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

/// Small deterministic generator of sign-up rows with one defect in some of them.
struct SampleRows {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func row() -> [String?] {
        var r = ValidationFixture.good
        let names = ["Ada Lovelace", "  jean-luc o'neil ", "Zoë Ångström", "Bob"]
        r[0] = names[next(names.count)]
        r[1] = "user\(next(1000))@example.org"
        r[2] = next(4) == 0 ? nil : r[1]
        r[3] = next(3) == 0 ? "" : "555.\(100 + next(900)).\(1000 + next(9000))"
        r[4] = String(18 + next(100))
        switch next(14) {
        case 0: r[0] = nil                                  // required name missing
        case 1: r[1] = "not-an-email"
        case 2: r[4] = "17"
        case 3: r[4] = "abc"
        case 4: r[5] = "4111 1111 1111 1112"                // bad Luhn
        case 5: r[6] = "13/28"
        case 6: r[7] = "1234"
        case 7: r[7] = nil                                  // require exp cvv when card
        case 8: r[2] = "other@example.org"                  // same email email-again
        case 9: r[3] = "555-1234"
        case 10: r[0] = "   "                               // blank is absent
        default: break
        }
        return r
    }
}

/// The slow reference: strings, the engine's ordinary `validate`, and the form's rules
/// written out again, one entry at a time.
func referenceViolations(_ entry: FormularyStore.StoredEntry, form: FormDefinition, registry: Registry,
                         today: CivilDate) throws -> Set<String> {
    var out: Set<String> = []
    var present: [String: String] = [:]
    var types: [String: CompiledFieldType] = [:]
    for field in form.fields {
        let type = try registry.compile(field.type, today: today).get()
        types[field.key] = type
        let value = entry[field.key]
        if value == nil || type.validate(value!).isAbsent {
            if field.required { out.insert("\(field.key)|required|error|'\(field.key)' is required") }
            continue
        }
        present[field.key] = value!
        for v in type.validate(value!).violations {
            out.insert("\(field.key)|\(v.rule)|\(v.severity.rawValue)|\(v.message)")
        }
    }
    for rule in form.rules {
        switch rule.kind {
        case .same(let a, let b):
            if let x = present[a], let y = present[b], types[a]!.format(x) != types[b]!.format(y) {
                out.insert("\(b)|\(rule.options.name)|\(rule.options.severity.rawValue)|\(rule.options.message ?? "'\(a)' and '\(b)' differ")")
            }
        case .require(let fields, let trigger):
            guard present[trigger] != nil else { continue }
            for f in fields where present[f] == nil {
                out.insert("\(f)|\(rule.options.name)|\(rule.options.severity.rawValue)|\(rule.options.message ?? "'\(f)' is required when '\(trigger)' is given")")
            }
        case .compare, .unique:
            break   // not in the reference's forms
        }
    }
    let declared = Set(form.fields.map(\.key))
    for (field, value) in entry.presentValues where !declared.contains(field) {
        if !value.allSatisfy(\.isWhitespace) {
            out.insert("\(field)|unknown-field|warning|'\(field)' is not a field of form '\(form.name)'")
        }
    }
    return out
}

struct ValidationRunTests {
    @Test func verdictsAgreeWithTheSlowReference() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 42)
        try fixture.add(ValidationFixture.columns, (0..<300).map { _ in sample.row() })
        // A second layout: columns in another order, one missing, one undeclared.
        let other = ["email", "name", "age", "nickname", "card", "exp"]
        try fixture.add(other, (0..<60).map { i in
            ["u\(i)@example.com", i % 9 == 0 ? nil : "Eve", String(20 + i), i % 2 == 0 ? "evie" : " ",
             "4111 1111 1111 1111", "01/27"]
        })
        let run = try fixture.validate()
        #expect(run.status == .complete)
        #expect(run.counts.entriesChecked == 360)

        let form = try #require(fixture.registry.forms["signup"]?.form)
        var expected: [Int64: Set<String>] = [:]
        for entry in try fixture.store.entries(form: "signup") {
            let v = try referenceViolations(entry, form: form, registry: fixture.registry,
                                            today: CivilDate(year: 2026, month: 11, day: 29))
            if !v.isEmpty { expected[entry.id] = v }
        }
        var actual: [Int64: Set<String>] = [:]
        for r in try fixture.store.results(ofRun: run.id) {
            actual[r.entryID, default: []].insert(
                "\(r.rule.field ?? "")|\(r.rule.rule)|\(r.rule.severity.rawValue)|\(r.rule.message)")
        }
        #expect(actual == expected)
        #expect(expected.count > 40, "the sample must contain defects")
        let invalid = expected.values.filter { $0.contains { $0.contains("|error|") } }.count
        #expect(run.counts.entriesInvalid == invalid)
        #expect(run.counts.entriesWarned == expected.count - invalid)
        #expect(run.counts.errors + run.counts.warnings == expected.values.map(\.count).reduce(0, +))
        #expect(run.forms.map(\.form) == ["signup"] && run.forms[0].isFinished)
    }

    @Test func oneWorkerAndManyAgree() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 7)
        try fixture.add(ValidationFixture.columns, (0..<200).map { _ in sample.row() })
        let one = try fixture.validate(batchSize: 1_000, workers: 1)
        let many = try fixture.validate(batchSize: 3, workers: 3)
        #expect(one.counts == many.counts)
        let a = try fixture.store.results(ofRun: one.id).map { "\($0.entryID) \($0.rule.rule) \($0.rule.message)" }
        let b = try fixture.store.results(ofRun: many.id).map { "\($0.entryID) \($0.rule.rule) \($0.rule.message)" }
        #expect(a.sorted() == b.sorted())
    }

    @Test func crossFieldRulesAndRequired() throws {
        let fixture = try ValidationFixture()
        var same = ValidationFixture.good
        same[2] = "  ada@example.com "          // same canonical value: passes
        var differ = ValidationFixture.good
        differ[2] = "bob@example.com"
        var noCVV = ValidationFixture.good
        noCVV[7] = ""
        noCVV[6] = nil
        var noCard = ValidationFixture.good
        noCard[5] = nil
        noCard[7] = nil                         // no card: exp and cvv not required
        var noAge = ValidationFixture.good
        noAge[4] = " "
        let ids = try fixture.add(ValidationFixture.columns, [same, differ, noCVV, noCard, noAge])
        let run = try fixture.validate()
        let failing = try fixture.store.failingEntries(ofRun: run.id)
        #expect(failing.map(\.entryID) == [ids[1], ids[2], ids[4]])
        #expect(failing[0].results.map(\.rule.message) == ["The two emails differ"])
        #expect(failing[0].results[0].rule.field == "email-again" && failing[0].results[0].rule.rule == "same")
        #expect(Set(failing[1].results.map { "\($0.rule.field!) \($0.rule.rule)" }) == ["exp require", "cvv require"])
        #expect(failing[2].results.map(\.rule.rule) == ["required"] && failing[2].results[0].rule.type == "age")
        #expect(run.counts.entriesInvalid == 3 && run.counts.errors == 4)
    }

    @Test func warningsAndUnknownFieldsDoNotFail() throws {
        let fixture = try ValidationFixture(form: """
            form signup
            field name name required
            field nick username
            require nick when name   warning as wants-nick
            """)
        let ids = try fixture.add(["name", "extra", "nick"], [["Ada", "x", nil], ["Bob", "", "bob"], ["Cy", nil, "cy1"]])
        let run = try fixture.validate()
        #expect(run.counts.entriesInvalid == 0 && run.counts.errors == 0)
        #expect(run.counts.entriesWarned == 1 && run.counts.warnings == 2)
        let failing = try fixture.store.failingEntries(ofRun: run.id)
        #expect(failing.map(\.entryID) == [ids[0]] && failing[0].verdict == .warnings)
        #expect(Set(failing[0].results.map(\.rule.rule)) == ["unknown-field", "wants-nick"])
        #expect(failing[0].results.allSatisfy { $0.rule.severity == .warning })
        #expect(try fixture.store.failingEntryIDs().isEmpty)
        #expect(try fixture.store.failingEntryIDs(includeWarningsOnly: true) == [ids[0]])
    }

    @Test func runRecordsVersionsTodayActorAndOneAuditRecord() throws {
        let fixture = try ValidationFixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let before = try fixture.store.auditRecords().count
        let run = try fixture.validate()
        #expect(run.today == "2026-11-29" && run.actor == "tester" && run.endedAt != nil)
        let types = try fixture.store.fieldTypes(ofRun: run.id)
        #expect(types.map(\.field).sorted() == ValidationFixture.columns.sorted())
        let card = try #require(types.first { $0.field == "card" })
        #expect(card.version.name == "credit-card" && card.version.origin == "builtin")
        let definition = try fixture.registry.definition(named: "credit-card")!.get()
        #expect(card.version.hash == Registry.version(of: definition))
        let form = try #require(fixture.registry.forms["signup"]?.form)
        #expect(run.forms[0].formVersionHash == Registry.version(of: form))
        let audit = try fixture.store.auditRecords()
        #expect(audit.count == before + 2, "a run's start and its end")
        #expect(audit.dropLast().last?.action == "validate.start" && audit.dropLast().last?.subject == String(run.id))
        #expect(audit.last?.action == "validate" && audit.last?.subject == String(run.id))
        #expect(audit.last?.details.contains("\"entries_checked\":1") == true)
        // A second run reuses the recorded versions.
        let second = try fixture.validate()
        #expect(try fixture.store.fieldTypes(ofRun: second.id).map(\.version.id) == types.map(\.version.id))
    }

    @Test func secureValuesNeverReachResults() throws {
        let pin = """
            field pin
            secure
            normalize strip-spaces
            mask "0000"   message "PIN {value} must have 4 digits"
            pattern /[0-8]+/ warning message "{value} uses a 9"
            """
        let fixture = try ValidationFixture(form: """
            form signup
            field name name required
            field pin pin required
            """, extraTypes: ["pin": pin])
        try fixture.add(["name", "pin"], [["Ada", "98765"], ["Bob", "9999"], ["Cy", "1234"]])
        let run = try fixture.validate()
        let results = try fixture.store.results(ofRun: run.id)
        #expect(results.count == 3)   // 98765: mask and pattern; 9999: pattern
        for r in results {
            #expect(!r.rule.message.contains("9876") && !r.rule.message.contains("9999"))
            #expect(r.rule.message.contains("•••"))
        }
        let all = try fixture.store.auditRecords().map(\.details).joined()
        #expect(!all.contains("98765") && !all.contains("9999"))
    }

    @Test func unknownAndBrokenFormsStopBeforeWriting() throws {
        let fixture = try ValidationFixture(form: """
            form signup
            field name nmae required
            """)
        try fixture.add(["name"], [["Ada"]])
        #expect(throws: ValidationSetupError.self) { try fixture.validate() }
        #expect(throws: ValidationSetupError.self) { try fixture.validate(forms: ["signpu"]) }
        try fixture.add(["x"], [["1"]], form: "orphans")
        #expect(throws: ValidationSetupError.self) { try fixture.validate() }
        #expect(try fixture.store.runs().isEmpty)
    }
}

/// A multi-threaded run, with or without the value memo, stores exactly what one worker
/// judging every value stores, and records a digest that the stored rows prove.
@Suite struct ValidationWorkersAgreeTests {
    /// Card numbers of many brands and lengths, valid and not, so that every way of
    /// choosing a card's mask (by the first slot character, or none) is taken.
    static let cards: [String?] = [
        "4111 1111 1111 1111", "4222222222222", "378282246310005", "3782 822463 10005",
        "5555555555554444", "2223003122003222", "6011111111111117", "3056930009020004",
        "36227206271667", "3566002020360505", "6200000000000005", "6205500000000000004",
        "6304000000000000", "5066991111111118", "6062820524845321", "2200000000000004",
        "9792000000000001", "1234 5678 9012 3456", "0000 0000 0000 0000", "4111-1111-1111-1112",
        "x4111111111111111", "Ω4111111111111111", "", "   ", nil, "4", "41111111111111111111111",
    ]

    @Test func manyWorkersAndTheMemoStoreWhatOneWorkerStores() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 27)
        var sampleRows: [[String?]] = []
        for i in 0..<600 {
            var row = sample.row()
            row[5] = Self.cards[i % Self.cards.count]
            sampleRows.append(row)
        }
        try fixture.add(ValidationFixture.columns, sampleRows)
        let one = try fixture.validate(batchSize: 10_000, workers: 1, rememberValues: false, all: true)
        let runs = [one,
                    try fixture.validate(batchSize: 7, workers: 2, rememberValues: true, all: true),
                    try fixture.validate(batchSize: 3, workers: 3, rememberValues: true, all: true),
                    try fixture.validate(batchSize: 50, workers: 2, rememberValues: false, all: true)]
        func rows(_ run: FormularyStore.RunRecord) throws -> [String] {
            try fixture.store.results(ofRun: run.id).map {
                "\($0.entryID) v\($0.entryVersion) \($0.rule.field ?? "-") \($0.rule.type ?? "-") \($0.rule.rule) "
                    + "\($0.rule.severity.rawValue) \($0.rule.message)"
            }.sorted()
        }
        let expected = try rows(one)
        #expect(expected.count > 100, "the sample must fail in many ways")
        #expect(expected.contains { $0.contains(" card credit-card brand ") }, "some card is of no brand taken")
        #expect(expected.contains { $0.contains(" card credit-card luhn ") || $0.contains(" card credit-card checksum ") })
        for run in runs.dropFirst() {
            #expect(run.counts == one.counts)
            #expect(try rows(run) == expected)
        }
        // Each run's end record holds the digest its writer computed from the rows as they
        // came from the workers; the verifier recomputes it from the rows as stored.
        let report = try fixture.store.auditReport()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.covered.runs == runs.count)
    }

    /// The ranges cover the span once, in order; with several workers the last ones shrink
    /// (so that the workers finish together), never below a sixteenth of the batch.
    @Test func chunksCoverTheSpanAndTaperForSeveralWorkers() {
        func check(_ chunks: [Chunk], from first: Int64, through last: Int64) {
            #expect(chunks.first?.afterID == first - 1)
            #expect(chunks.last?.throughID == last)
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.throughID == $1.afterID })
            #expect(chunks.allSatisfy { $0.throughID > $0.afterID })
            #expect(chunks.last?.fraction == 1)
        }
        let even = ValidationRun.chunks((1, 1_000_000), batchSize: 20_000)
        check(even, from: 1, through: 1_000_000)
        #expect(even.count == 50 && even.allSatisfy { $0.throughID - $0.afterID == 20_000 })

        let tapered = ValidationRun.chunks((1, 1_000_000), batchSize: 20_000, taperingFor: 2)
        check(tapered, from: 1, through: 1_000_000)
        let sizes = tapered.map { $0.throughID - $0.afterID }
        #expect(sizes.allSatisfy { $0 <= 20_000 })
        #expect(sizes.prefix(45).allSatisfy { $0 == 20_000 }, "full ranges while much is left")
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "\(sizes)")
        #expect(sizes.suffix(2).allSatisfy { $0 <= 1_250 }, "the last ranges are small: \(sizes.suffix(4))")
        #expect(sizes.dropLast().allSatisfy { $0 >= 1_250 }, "no range under a sixteenth, but the rest")

        // Carried entries are left out; a tiny span is one range.
        let after = ValidationRun.chunks((1, 100_000), batchSize: 20_000, startingAfter: 90_000, taperingFor: 4)
        check(after, from: 90_001, through: 100_000)
        #expect(ValidationRun.chunks((5, 5), batchSize: 20_000, taperingFor: 8).map(\.throughID) == [5])
    }
}
