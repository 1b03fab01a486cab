#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Working memory for judging values: two byte buffers that normalization and mask
/// formatting ping-pong between, and the state sets of patterns matched as an NFA.
///
/// A `CompiledFieldType` is shared between threads, so nothing mutable lives in it. By
/// default each thread gets its own `Scratch` through a pthread key, created on first use
/// and released when the thread ends. A loop that judges many values on one thread can make
/// its own and pass it (``CompiledFieldType/screen(utf8:scratch:)``), which saves the
/// thread-local lookup per value. A scratch must not be used by two threads at once.
package final class Scratch {
    private struct Buffers {
        var pointers: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
        var capacities: (Int, Int)
    }

    // Behind a pointer held in a `let`, so the hot path pays no dynamic exclusivity checks.
    private let buffers: UnsafeMutablePointer<Buffers>
    // Held unretained-on-use: reaching it through `withPatternState` costs no reference counting.
    private let patternState: UnsafeMutablePointer<Unmanaged<PatternScratch>?>

    package init() {
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: Buffers(pointers: (.allocate(capacity: 256), .allocate(capacity: 256)),
                                       capacities: (256, 256)))
        patternState = .allocate(capacity: 1)
        patternState.initialize(to: nil)
    }

    deinit {
        buffers.pointee.pointers.0.deallocate()
        buffers.pointee.pointers.1.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
        patternState.pointee?.release()
        patternState.deinitialize(count: 1)
        patternState.deallocate()
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

    /// Calls `body` with this scratch's NFA state sets, created on first use.
    @inline(__always)
    func withPatternState<R>(_ body: (PatternScratch) -> R) -> R {
        if let state = patternState.pointee { return state._withUnsafeGuaranteedRef(body) }
        let state = Unmanaged.passRetained(PatternScratch())
        patternState.pointee = state
        return state._withUnsafeGuaranteedRef(body)
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

    /// Calls `body` with the calling thread's scratch. The thread's key owns it, so the hot
    /// paths borrow it without retaining (two atomic operations per value otherwise).
    @inline(__always)
    static func withCurrent<R>(_ body: (Scratch) -> R) -> R {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Scratch>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        let scratch = Unmanaged.passRetained(Scratch())
        pthread_setspecific(key, scratch.toOpaque())
        return scratch._withUnsafeGuaranteedRef(body)
    }
}
