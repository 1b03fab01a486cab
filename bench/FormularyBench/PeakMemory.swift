#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process's peak resident memory, in KiB.
///
/// Not `ru_maxrss`: on Linux a process's `ru_maxrss` survives `execve`, and a child starts
/// from the parent's resident size at fork, so a child of this benchmark (which holds whole
/// data sets in memory while other suites run) would report the benchmark's size, not its
/// own (`make bench` printed 256 MiB for every child). `VmHWM` in `/proc/PID/status` is the
/// high-water mark of the process's own address space, which `execve` starts afresh.
enum PeakMemory {
    /// `VmHWM` of process `pid`, or nil where `/proc` is not available.
    static func highWaterKiB(pid: pid_t) -> Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("VmHWM:") else { continue }
            // "VmHWM:\t   35008 kB"
            return Int(String(text.dropFirst(6).filter { $0.isASCII && $0.isNumber }))
        }
        return nil
    }

    /// This process's peak: `VmHWM`, or `ru_maxrss` (KiB on Linux) where there is no `/proc`.
    static func ownPeakKiB() -> Int {
        if let hwm = highWaterKiB(pid: getpid()) { return hwm }
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_maxrss)
    }
}
