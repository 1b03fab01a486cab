import Synchronization
import Testing
@testable import FormularyRules

/// Long and wide `extends` structures: resolution is linear in the number of types (counted
/// as lookups and resolver steps, never timed), chains deeper than 64 levels are one
/// `extends-too-deep` diagnostic, and cycles of any length are still found.
@Suite struct ResolverChainTests {
    /// How many times a resolver asked its lookup for a declaration.
    final class LookupCounter: Sendable {
        let count = Atomic<Int>(0)
        func tick() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Declarations `t0` … `t(count-1)`, each `tN` extending `base(N)` (nil: a root); each
    /// in its own file `tN.field`.
    static func declarations(_ count: Int, base: (Int) -> String?) -> [String: FieldTypeDecl] {
        var found: [String: FieldTypeDecl] = [:]
        for index in 0..<count {
            let header = base(index).map { "field t\(index) extends \($0)" } ?? "field t\(index)"
            let text = header + (index == 0 ? "\nlength 1...10\n" : "\nnormalize trim\n")
            if case .field(let decl) = parseText(text, file: "t\(index).field").content {
                found[decl.name] = decl
            }
        }
        return found
    }

    /// A chain: `t0` is the root, `tN` extends `t(N-1)`.
    static func chain(_ count: Int) -> [String: FieldTypeDecl] {
        declarations(count) { $0 == 0 ? nil : "t\($0 - 1)" }
    }

    /// The 5,000-type chain the linear-work tests share (parsed once).
    static let longChain = chain(5_000)

    static func counted(_ declarations: [String: FieldTypeDecl], counting counter: LookupCounter) -> TypeResolver {
        TypeResolver(knownNames: declarations.keys.sorted()) {
            counter.tick()
            return declarations[$0]
        }
    }

    @Test func sixtyFourLevelsResolve() throws {
        let resolver = TypeResolver(declarations: Self.chain(65))
        let deepest = try #require(resolver.resolve("t64")).get()
        #expect(deepest.bases.count == TypeResolver.maximumDepth)
        #expect(deepest.bases.first == "t63" && deepest.bases.last == "t0")
        // Every level added its own step.
        #expect(deepest.normalization.count == 64)
    }

    @Test func sixtyFiveLevelsAreTooDeepAndNameTheChainsStart() throws {
        let resolver = TypeResolver(declarations: Self.chain(67))
        guard case .failure(let failure)? = resolver.resolve("t65") else {
            Issue.record("t65 resolved"); return
        }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["extends-too-deep"])
        let tooDeep = failure.diagnostics[0]
        #expect(tooDeep.severity == .error)
        // At the `extends` that went one level too far: t65's base name.
        #expect(tooDeep.location == SourceLocation(file: "t65.field", line: 1, column: 19, length: 3))
        #expect(tooDeep.sourceLine == "field t65 extends t64")
        #expect(tooDeep.message.contains("starts at 't0'"), "\(tooDeep.message)")
        #expect(tooDeep.message.contains("65 levels") && tooDeep.message.contains("at most 64"), "\(tooDeep.message)")
        // The type below fails with the very same diagnostic, not one of its own.
        guard case .failure(let below)? = resolver.resolve("t66") else {
            Issue.record("t66 resolved"); return
        }
        #expect(below.diagnostics == [tooDeep])
        // The levels above are untouched.
        #expect((try? resolver.resolve("t64")?.get()) != nil)
    }

    /// 5,000 types in one chain, asked for from the deepest (one walk down the whole chain)
    /// and then every other one: each name is looked up once, each declaration applied once.
    /// Before the resolver memoised and walked with a loop, this took cubic work and
    /// overflowed the stack.
    @Test func aLongChainIsLinearWork() throws {
        let count = 5_000
        let counter = LookupCounter()
        let resolver = Self.counted(Self.longChain, counting: counter)
        var distinct = Set<Diagnostic>()
        var resolved = 0
        for index in stride(from: count - 1, through: 0, by: -1) {
            switch try #require(resolver.resolve("t\(index)")) {
            case .success: resolved += 1
            case .failure(let failure): distinct.formUnion(failure.diagnostics)
            }
        }
        #expect(resolved == TypeResolver.maximumDepth + 1)
        #expect(distinct.map(\.id.rawValue) == ["extends-too-deep"])
        #expect(counter.value <= count, "\(counter.value) lookups")
        #expect(resolver.steps <= 2 * count, "\(resolver.steps) steps")
    }

    /// The same chain asked for from its root upwards: each type finds its base resolved.
    @Test func aLongChainFromItsRootIsLinearWork() throws {
        let count = 5_000
        let counter = LookupCounter()
        let resolver = Self.counted(Self.longChain, counting: counter)
        for index in 0..<count { _ = resolver.resolve("t\(index)") }
        #expect(counter.value <= count, "\(counter.value) lookups")
        #expect(resolver.steps <= 2 * count, "\(resolver.steps) steps")
    }

    /// 5,000 types all extending one root.
    @Test func aWideFanOutIsLinearWork() throws {
        let count = 5_001
        let counter = LookupCounter()
        let resolver = Self.counted(Self.declarations(count) { $0 == 0 ? nil : "t0" }, counting: counter)
        for index in 1..<count {
            let definition = try #require(resolver.resolve("t\(index)")).get()
            #expect(definition.bases == ["t0"])
        }
        #expect(counter.value <= count, "\(counter.value) lookups")
        #expect(resolver.steps <= 2 * count, "\(resolver.steps) steps")
    }

    /// A cycle through 5,000 types is still a cycle: each member says so at its own
    /// `extends`, in one short line, and a type leading into it says it leads there.
    @Test func aLongCycleIsFoundInLinearWork() throws {
        let count = 5_000
        var declarations = Self.declarations(count) { $0 == 0 ? "t\(count - 1)" : "t\($0 - 1)" }
        if case .field(let into) = parseText("field into extends t7\n", file: "into.field").content {
            declarations["into"] = into
        }
        let counter = LookupCounter()
        let resolver = Self.counted(declarations, counting: counter)
        for index in 0..<count {
            guard case .failure(let failure)? = resolver.resolve("t\(index)") else {
                Issue.record("t\(index) resolved"); return
            }
            #expect(failure.diagnostics.map(\.id.rawValue) == ["inheritance-cycle"])
            #expect(failure.diagnostics[0].location.file == "t\(index).field")
            #expect(failure.diagnostics[0].message.count < 200)
        }
        guard case .failure(let t7)? = resolver.resolve("t7"),
              case .failure(let into)? = resolver.resolve("into") else {
            Issue.record("resolved"); return
        }
        #expect(t7.diagnostics[0].message
                == "inheritance cycle: t7 extends t6 extends t5 extends … extends t9 extends t8 extends t7 (5000 types)")
        #expect(into.diagnostics.map(\.id.rawValue) == ["inheritance-cycle"])
        #expect(into.diagnostics[0].message.hasPrefix("base type 't7' is part of an inheritance cycle: t7 extends t6"))
        #expect(counter.value <= count + 1, "\(counter.value) lookups")
        #expect(resolver.steps <= 2 * (count + 1), "\(resolver.steps) steps")
    }

    /// Types leading into a cycle (not in it) say so, whichever type is asked for first.
    @Test func typesLeadingIntoACycle() {
        for first in ["a", "d", "e"] {
            let r = resolver(["field a extends b", "field b extends a", "field d extends a", "field e extends d"])
            _ = r.resolve(first)
            guard case .failure(let e)? = r.resolve("e"), case .failure(let d)? = r.resolve("d"),
                  case .failure(let a)? = r.resolve("a") else {
                Issue.record("resolved"); return
            }
            #expect(a.diagnostics.map(\.message) == ["inheritance cycle: a extends b extends a"])
            #expect(d.diagnostics.map(\.message) == ["base type 'a' is part of an inheritance cycle: a extends b extends a"])
            #expect(e.diagnostics.map(\.message) == ["base type 'd' leads into an inheritance cycle: a extends b extends a"])
        }
    }

    /// A broken type in a chain: the types above it still resolve, those below say their
    /// base is broken.
    @Test func aChainBelowABrokenTypeFailsAndAboveItWorks() throws {
        var declarations = Self.chain(60)
        if case .field(let broken) = parseText("field t30 extends t29\nlabel 1\n", file: "t30.field").content {
            declarations["t30"] = broken
        }
        let resolver = TypeResolver(declarations: declarations)
        #expect((try? resolver.resolve("t29")?.get()) != nil)
        guard case .failure(let failure)? = resolver.resolve("t50") else { Issue.record("resolved"); return }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["invalid-base"])
    }

    /// A declaration that is not the registry's own (a file linted on its own) is resolved
    /// as if it replaced that one: its cycle through the registry is found.
    @Test func aDeclarationOutsideTheLookup() throws {
        let r = resolver(["field a extends b", "field b"])
        #expect((try? r.resolve("a")?.get()) != nil)
        let replacement = try #require(declaration("field b extends a"))
        guard case .failure(let failure) = r.resolve(replacement) else { Issue.record("resolved"); return }
        #expect(failure.diagnostics.map(\.message) == ["inheritance cycle: b extends a extends b"])
        // The registry's own `b` is still fine.
        #expect((try? r.resolve("b")?.get()) != nil)
    }
}
