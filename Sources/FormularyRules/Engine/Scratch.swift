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
    private struct Buffers {
        var pointers: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
        var capacities: (Int, Int)
    }

    // Behind a pointer held in a `let`, so the hot path pays no dynamic exclusivity checks.
    private let buffers: UnsafeMutablePointer<Buffers>
    private let regexState: UnsafeMutablePointer<RegexScratch?>

    init() {
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: Buffers(pointers: (.allocate(capacity: 256), .allocate(capacity: 256)),
                                       capacities: (256, 256)))
        regexState = .allocate(capacity: 1)
        regexState.initialize(to: nil)
    }

    deinit {
        buffers.pointee.pointers.0.deallocate()
        buffers.pointee.pointers.1.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
        regexState.deinitialize(count: 1)
        regexState.deallocate()
    }

    /// Buffer `index` (0 or 1) with room for at least `capacity` bytes. Its contents are
    /// not kept when it grows.
    @inline(__always)
    func buffer(_ index: Int, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if index == 0 {
            if capacity > buffers.pointee.capacities.0 { grow(0, to: capacity) }
            return buffers.pointee.pointers.0
        }
        if capacity > buffers.pointee.capacities.1 { grow(1, to: capacity) }
        return buffers.pointee.pointers.1
    }

    private func grow(_ index: Int, to capacity: Int) {
        var size = index == 0 ? buffers.pointee.capacities.0 : buffers.pointee.capacities.1
        while size < capacity { size *= 2 }
        if index == 0 {
            buffers.pointee.pointers.0.deallocate()
            buffers.pointee.pointers.0 = .allocate(capacity: size)
            buffers.pointee.capacities.0 = size
        } else {
            buffers.pointee.pointers.1.deallocate()
            buffers.pointee.pointers.1 = .allocate(capacity: size)
            buffers.pointee.capacities.1 = size
        }
    }

    /// The PCRE2 state of this thread, created on first use.
    var regex: RegexScratch {
        if let r = regexState.pointee { return r }
        let r = RegexScratch()
        regexState.pointee = r
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
