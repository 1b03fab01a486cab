#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers, for each field of one form, how recent short values screened, so that a
/// value seen before is not judged again: one worker thread's memory, for one run.
///
/// Judging is a pure function of the value once a type is compiled (with its parameters and
/// the run's "today"), and stored records repeat themselves: ages, expiry dates, codes,
/// countries, names. On the sign-up bench the name, age, expiry and security-code columns
/// hit 90–99% of the time, and a hit costs a few nanoseconds where judging costs 25–130.
///
/// Each field has two direct-mapped tables of ``defaultSlots`` entries keyed by the value's
/// bytes: one word a slot for values of at most ``shortLength`` bytes (the bytes and the
/// answer in one word), four words for longer ones up to ``maxLength`` (longer values are
/// always judged). The short table is what keeps ages, codes and dates in the cache: with
/// one four-word table for all, a 1M-entry run's profile spent 8% of its cycles waiting for
/// memo slots that the rows streaming through had evicted. A field whose values do not
/// repeat (card numbers, e-mail addresses) stops using its tables after ``window`` lookups
/// with fewer than a quarter of hits, so it costs nothing after that. Secure values are in
/// the table as they are in SQLite's row buffer: in this process's memory only.
package final class ScreeningMemo {
    package static let defaultSlots = 4096
    /// Slots per field, a power of two.
    package let slots: Int
    /// 64 less log2(``slots``) (63 for one slot, which the mask then picks): a hash's top
    /// bits pick the slot.
    private let slotShift: UInt64
    package static let maxLength = 24
    package static let window = 8192

    /// The longest value kept in the one-word table: its bytes, zero-padded, leave the top
    /// byte free for the length and the answer.
    package static let shortLength = 7
    /// Four words per slot: the value's ``key(_:_:)``, then `length << 8 | code`
    /// (code 0: empty slot).
    private let table: UnsafeMutablePointer<UInt64>
    /// One word per slot, for values of at most ``shortLength`` bytes: ``shortKey(_:_:)``
    /// (the bytes, zero-padded) | `length << 58 | code << 56` (code 0: an empty slot).
    private let shortTable: UnsafeMutablePointer<UInt64>
    /// Per field: lookups, hits, and 1 while the table is in use. Behind a pointer (like
    /// `table`) so that the per-value path pays no exclusivity checks on class storage.
    private let stats: UnsafeMutablePointer<Int>
    package let fieldCount: Int

    /// - Parameters:
    ///   - enabled: false makes a memo that remembers nothing (every value is judged); it
    ///     then holds one slot per field, so that a one-off judgment allocates little.
    ///   - slots: entries per field, rounded up to a power of two (tests use tiny tables to
    ///     force collisions).
    package init(fieldCount: Int, enabled: Bool = true, slots: Int = ScreeningMemo.defaultSlots) {
        self.fieldCount = fieldCount
        var size = 1
        while enabled && size < slots { size *= 2 }
        self.slots = size
        slotShift = UInt64(min(63, 64 - size.trailingZeroBitCount))
        let words = max(fieldCount, 1) * size * 4
        // Zeroed by the allocator: a large block comes as fresh pages, zero already, that
        // are touched only where values land (writing the tables' zeros ourselves was 5% of
        // a small run, for 2 MiB per two workers mostly never read).
        guard let long = calloc(words, MemoryLayout<UInt64>.stride),
              let short = calloc(words / 4, MemoryLayout<UInt64>.stride) else {
            fatalError("out of memory for the screening memo")
        }
        table = long.bindMemory(to: UInt64.self, capacity: words)
        shortTable = short.bindMemory(to: UInt64.self, capacity: words / 4)
        stats = .allocate(capacity: max(fieldCount, 1) * 3)
        for f in 0..<max(fieldCount, 1) { (stats[3 * f], stats[3 * f + 1], stats[3 * f + 2]) = (0, 0, enabled ? 1 : 0) }
    }

    deinit {
        free(table)
        free(shortTable)
        stats.deallocate()
    }

    /// The screening of `value` in field `field`: remembered, or computed by `screen` and
    /// remembered.
    @inline(__always)
    package func screening(field: Int, of value: UnsafeRawBufferPointer,
                   _ screen: (UnsafeRawBufferPointer) -> CompiledFieldType.Screening) -> CompiledFieldType.Screening {
        let n = value.count
        let stat = stats + 3 &* field
        guard stat[2] == 1, n <= Self.maxLength else { return screen(value) }
        // One miss path below for both tables: a second call of `screen` made the optimizer
        // keep the caller's loop out of line (4% more instructions per run).
        var shortSlot: UnsafeMutablePointer<UInt64>? = nil
        var longSlot = table
        var word: UInt64 = 0
        var key: (UInt64, UInt64, UInt64) = (0, 0, 0)
        stat[0] &+= 1
        if n <= Self.shortLength {
            word = n == 0 ? 0 : Self.shortKey(value.baseAddress!, n)
            word |= UInt64(n) << 58
            let slot = shortTable + (field &* slots &+ Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) &>> slotShift)
                                         & (slots &- 1))
            let stored = slot.pointee
            if stored & ~(3 << 56) == word && stored >> 56 & 3 != 0 {
                stat[1] &+= 1
                return Self.screening(code: stored >> 56 & 3)
            }
            shortSlot = slot
        } else {
            key = Self.key(value.baseAddress!, n)
            var h = key.0 &* 0x9E37_79B9_7F4A_7C15
            h ^= (key.1 ^ UInt64(n)) &* 0xC2B2_AE3D_27D4_EB4F
            h ^= key.2 &* 0x1656_67B1_9E37_79F9
            // The top bits: a product's low bits never see the key's high bytes (the last
            // byte of a value is in a key word's top byte).
            longSlot = table + (field &* slots &+ Int(truncatingIfNeeded: h &>> slotShift) & (slots &- 1)) &* 4
            let meta = longSlot[3]
            if meta != 0 && meta >> 8 == UInt64(n) && longSlot[0] == key.0 && longSlot[1] == key.1 && longSlot[2] == key.2 {
                stat[1] &+= 1
                return Self.screening(code: meta & 0xFF)
            }
        }
        let result = screen(value)
        if let shortSlot {
            shortSlot.pointee = word | Self.code(result) << 56
        } else {
            (longSlot[0], longSlot[1], longSlot[2], longSlot[3]) = (key.0, key.1, key.2, UInt64(n) << 8 | Self.code(result))
        }
        if stat[0] == Self.window && stat[1] * 4 < Self.window { stat[2] = 0 }
        return result
    }

    /// The words a value of `n` bytes (more than ``shortLength``, at most 24) is remembered
    /// by in the four-word table: loads that stay inside the value and overlap where it is
    /// short, so that for one length they tell any two values apart (the slot keeps the
    /// length too). No call to copy the bytes. Shorter values go to the one-word table
    /// (``shortKey(_:_:)``).
    @inline(__always)
    package static func key(_ p: UnsafeRawPointer, _ n: Int) -> (UInt64, UInt64, UInt64) {
        let first = p.loadUnaligned(as: UInt64.self)
        let last = p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        return (first, last, n > 16 ? p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0)
    }

    /// The bytes of a value of 1 to ``shortLength`` bytes, exactly, in the low bytes of a word
    /// (byte `i` at bits `8i`), read by loads that stay inside the value.
    @inline(__always)
    package static func shortKey(_ p: UnsafeRawPointer, _ n: Int) -> UInt64 {
        if n >= 4 {
            let low = UInt64(p.loadUnaligned(as: UInt32.self))
            // The high load overlaps the low one where n < 8: the bytes it shares are equal.
            return low | UInt64(p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << (8 &* UInt64(n &- 4))
        }
        let middle = n >> 1
        return UInt64(p.load(as: UInt8.self)) | UInt64(p.load(fromByteOffset: middle, as: UInt8.self)) << (8 &* UInt64(middle))
            | UInt64(p.load(fromByteOffset: n &- 1, as: UInt8.self)) << (8 &* UInt64(n &- 1))
    }

    /// Whether field `field` still uses its table.
    package func isEnabled(field: Int) -> Bool { stats[3 * field + 2] == 1 }

    /// Lookups and hits so far in field `field`'s table.
    package func counts(field: Int) -> (lookups: Int, hits: Int) { (stats[3 * field], stats[3 * field + 1]) }

    @inline(__always)
    private static func code(_ s: CompiledFieldType.Screening) -> UInt64 {
        switch s {
        case .absent: 1
        case .clean: 2
        case .failing: 3
        }
    }

    @inline(__always)
    private static func screening(code: UInt64) -> CompiledFieldType.Screening {
        code == 1 ? .absent : code == 2 ? .clean : .failing
    }
}
