#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Per-thread working memory for validation: two byte buffers that normalization and mask
/// formatting ping-pong between, and the PCRE2 match data, match context and JIT stack.
///
/// A `CompiledFieldType` is shared between threads, so nothing mutable lives in it; each
/// thread gets its own `Scratch` through a pthread key, created on first use and released
/// when the thread ends. PCRE2 match data is never shared between threads.
final class Scratch {
    private var storage: [UnsafeMutablePointer<UInt8>]
    private var capacities: [Int]
    private var regexState: RegexScratch?

    init() {
        capacities = [256, 256]
        storage = [.allocate(capacity: 256), .allocate(capacity: 256)]
    }

    deinit {
        storage[0].deallocate()
        storage[1].deallocate()
    }

    /// Buffer `index` (0 or 1) with room for at least `capacity` bytes. Its contents are
    /// not kept when it grows.
    @inline(__always)
    func buffer(_ index: Int, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity > capacities[index] { grow(index, to: capacity) }
        return storage[index]
    }

    private func grow(_ index: Int, to capacity: Int) {
        storage[index].deallocate()
        var size = capacities[index]
        while size < capacity { size *= 2 }
        storage[index] = .allocate(capacity: size)
        capacities[index] = size
    }

    /// The PCRE2 state of this thread, created on first use.
    var regex: RegexScratch {
        if let r = regexState { return r }
        let r = RegexScratch()
        regexState = r
        return r
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<Scratch>.fromOpaque(pointer).release()
            #else
            guard let pointer else { return }
            Unmanaged<Scratch>.fromOpaque(pointer).release()
            #endif
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The calling thread's scratch.
    @inline(__always)
    static var current: Scratch {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Scratch>.fromOpaque(pointer).takeUnretainedValue()
        }
        let scratch = Scratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }
}
