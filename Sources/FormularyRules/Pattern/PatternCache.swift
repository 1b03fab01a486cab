#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Compiled patterns by source and flags, shared by the whole process: a type compiled with
/// several argument sets, a base type under its derived ones, the export and `types test`
/// compile each pattern once. At most `limit` entries; when full it starts over.
///
/// `@unchecked Sendable`: the dictionary is only touched with the mutex held, and programs
/// are immutable. A pthread mutex, as `CatalogCache` (Synchronization's needs macOS 15).
package final class PatternCache: @unchecked Sendable {
    package static let shared = PatternCache()
    static let limit = 512

    private struct Key: Hashable {
        var source: String
        var flags: UInt8
    }

    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var programs: [Key: PatternProgram] = [:]

    private init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    /// Forgets every program, so that the next compile of each pattern is a cold one (for
    /// measuring compile times).
    package func removeAll() {
        pthread_mutex_lock(lock)
        programs.removeAll()
        pthread_mutex_unlock(lock)
    }

    /// The program of `source` with `flags`, compiled on first use. Compiling happens outside
    /// the lock: two threads may both compile a new pattern, and the first to finish is kept.
    func program(_ source: String, flags: RegexFlags) throws(PatternError) -> PatternProgram {
        let key = Key(source: source, flags: flags.rawValue)
        pthread_mutex_lock(lock)
        let known = programs[key]
        pthread_mutex_unlock(lock)
        if let known { return known }
        let compiled = PatternProgram(try PatternAutomaton(try PatternParser.parse(source, flags: flags)))
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let winner = programs[key] { return winner }
        if programs.count >= Self.limit { programs.removeAll() }
        programs[key] = compiled
        return compiled
    }
}
