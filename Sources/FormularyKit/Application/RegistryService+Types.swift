import FormularyJSON
import FormularyRules

extension RegistryService {
    /// One type as `types list` lists it.
    public struct TypeSummary: JSONObjectRepresentable, Sendable {
        /// The type's name.
        public var name: String
        /// Its version (SHA-256 of the resolved definition); nil when it cannot be used.
        public var version: String?
        /// Where it comes from.
        public var source: TypeSource
        /// The file that declares it.
        public var file: String
        /// Its label, when it declares one.
        public var label: String?
        /// The sources of the same name it hides, as they read.
        public var overrides: [String]

        /// `{"name", "version" (null when broken), "source", "location", "file", "label"
        /// (null without one), "overrides"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            if let version { o.field("version", version) } else { o.nullField("version") }
            o.field("source", source.kind)
            o.field("location", source.description)
            o.field("file", file)
            if let label { o.field("label", label) } else { o.nullField("label") }
            o.array("overrides") { oa in for s in overrides { oa.value(s) } }
        }
    }

    /// What `types list` shows: every type by name, and the errors of those that cannot
    /// be used.
    public struct TypeListing: JSONRepresentable, Sendable {
        /// Every type of the registry, by name.
        public var types: [TypeSummary]
        /// The errors of each type that cannot be used, with their source lines.
        public var broken: [NamedDiagnostics]

        /// The types as a JSON array.
        public func writeJSON(to writer: inout JSONWriter) {
            types.writeJSON(to: &writer)
        }
    }

    /// Every type of the registry (built-in, database, plugin folders), by name.
    public func types() throws -> TypeListing {
        let registry = try workspace.registry()
        var listing = TypeListing(types: [], broken: [])
        for name in registry.typeNames {
            let entry = registry.type(named: name)!
            var version: String?
            var label: String?
            switch registry.definition(named: name) {
            case .success(let d)?:
                version = Registry.version(of: d)
                label = d.label
            case .failure(let problems)?:
                listing.broken.append(NamedDiagnostics(
                    name: name, diagnostics: registry.withSourceLines(problems.diagnostics.filter { $0.severity == .error })))
            case nil:
                break
            }
            listing.types.append(TypeSummary(name: name, version: version, source: entry.source, file: entry.file,
                                             label: label, overrides: entry.overrides.map(\.description)))
        }
        return listing
    }

    /// What the accept/reject examples of one type did.
    public struct SelfTestResult: JSONObjectRepresentable, Sendable {
        /// The type's name.
        public var name: String
        /// Whether the type could be loaded (its examples run only then).
        public var loaded: Bool
        /// Examples that passed.
        public var passed: Int
        /// The examples that failed: where, and what happened instead.
        public var failures: [(file: String, line: Int, reason: String)]

        /// `{"name", "loaded": false}`, or `{"name", "loaded": true, "passed", "failed",
        /// "failures": [{"file", "line", "reason"}]}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            o.field("loaded", loaded)
            guard loaded else { return }
            o.field("passed", passed)
            o.field("failed", failures.count)
            o.array("failures") { fa in
                for failure in failures {
                    fa.object { f in
                        f.field("file", failure.file)
                        f.field("line", failure.line)
                        f.field("reason", failure.reason)
                    }
                }
            }
        }
    }

    /// What `types test` found.
    public struct SelfTestReport: JSONObjectRepresentable, Sendable {
        /// Each type tested, in order.
        public var types: [SelfTestResult]
        /// Why each type that could not be loaded could not.
        public var unloadable: [NamedDiagnostics]

        /// Examples that passed, over every type.
        public var passed: Int { types.reduce(0) { $0 + $1.passed } }
        /// Examples that failed, over every type.
        public var failed: Int { types.reduce(0) { $0 + $1.failures.count } }
        /// Types that could not be loaded.
        public var broken: Int { types.filter { !$0.loaded }.count }

        /// `{"types": [...], "passed", "failed"}`, a type that could not be loaded counting
        /// as one failure.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.array("types") { a in for t in types { a.object { t.writeFields(to: &$0) } } }
            o.field("passed", passed)
            o.field("failed", failed + broken)
        }
    }

    /// Runs the accept/reject examples of the types `names` (every type when empty) with
    /// their default parameters, as of `today`.
    ///
    /// - Throws: a ``ServiceError`` (not found) for an unknown name, before any test runs.
    public func selfTest(_ names: [String], today: CivilDate) throws -> SelfTestReport {
        let registry = try workspace.registry()
        for name in names where registry.type(named: name) == nil {
            throw ServiceError(.notFound, "unknown type '\(name)'" + (Suggestion.nearest(to: name, in: registry.typeNames)
                .map { "; did you mean '\($0)'?" } ?? "; 'formulary types list' shows the types there are"))
        }
        var report = SelfTestReport(types: [], unloadable: [])
        for name in names.isEmpty ? registry.typeNames : names {
            let reference = TypeReference(name: name, location: SourceLocation(file: "<command line>", line: 1, column: 1))
            switch registry.compile(reference, today: today) {
            case .failure(let problems):
                report.unloadable.append(NamedDiagnostics(name: name, diagnostics: problems.diagnostics))
                report.types.append(SelfTestResult(name: name, loaded: false, passed: 0, failures: []))
            case .success(let type):
                let outcomes = SelfTests.run(type)
                let bad = outcomes.filter { !$0.passed }
                report.types.append(SelfTestResult(
                    name: name, loaded: true, passed: outcomes.count - bad.count,
                    failures: bad.map { ($0.example.location.file, $0.example.location.line, $0.reason ?? "failed") }))
            }
        }
        return report
    }
}
