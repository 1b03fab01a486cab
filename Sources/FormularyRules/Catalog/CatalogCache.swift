#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a ``FieldCatalog`` has worked out so far: resolved definitions (inside the
/// resolver's memo) and compiled types by reference. Shared by the copies of one catalog,
/// whose declarations are the same, so anything one copy computes holds for all.
///
/// `@unchecked Sendable` because its mutable state (a `TypeResolver`, which memoizes, and a
/// dictionary) is only touched with `lock` held, and every value it hands out is immutable
/// and `Sendable` (`FieldTypeDefinition`, `CompiledFieldType`). A pthread mutex rather than
/// `Synchronization.Mutex`, which needs macOS 15: the rules module builds wherever Swift 6
/// does.
final class CatalogCache: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let resolver: TypeResolver
    private var types: [String: CompiledFieldType] = [:]

    init(resolver: TypeResolver) {
        self.resolver = resolver
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    private func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// The resolved definition of `name`, or nil when no declaration has that name.
    func resolve(_ name: String) -> Result<FieldTypeDefinition, DiagnosticList>? {
        locked { resolver.resolve(name) }
    }

    /// The type compiled before for `key`, if any.
    func compiled(_ key: String) -> CompiledFieldType? {
        locked { types[key] }
    }

    /// Keeps `type` for `key` and returns the one kept: another thread may have compiled the
    /// same reference meanwhile, and every caller then gets the same instance.
    func store(_ type: CompiledFieldType, for key: String) -> CompiledFieldType {
        locked {
            if let existing = types[key] { return existing }
            types[key] = type
            return type
        }
    }
}
