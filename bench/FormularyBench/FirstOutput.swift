import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a command's output arrived: when its first byte and its first line came (seconds
/// from the start), when it ended, how much it wrote, and its peak RSS.
struct FirstOutputResult {
    var status: Int32
    var firstByte: Double?
    var firstLine: Double?
    var seconds: Double
    var bytes: Int
    var peakMiB: Double
}

/// Runs `path` with standard output on a pseudo-terminal (`terminal`) or a pipe, and
/// standard error on a pseudo-terminal of its own, reading both as the program writes: what
/// a user at a terminal sees first, and when. A command that buffers until its end shows
/// its first line only then; one that streams, at once.
///
/// Standard error is a terminal too, so that a progress line is drawn (and costs what it
/// costs) as it would be; its text is read and dropped. The peak RSS is sampled from `/proc`
/// between reads (every 2 ms at most), as ``spawn(_:_:_:samplePeak:)`` does.
func spawnReadingOutput(_ path: String, _ arguments: [String], _ environment: [String],
                        terminal: Bool) -> FirstOutputResult? {
    guard let err = PseudoTerminalPair.open() else { print("first-output: no pseudo-terminal"); return nil }
    var out: (read: Int32, write: Int32)
    if terminal {
        guard let pair = PseudoTerminalPair.open() else { print("first-output: no pseudo-terminal"); return nil }
        out = (pair.master, pair.slave)
    } else {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        out = (fds[0], fds[1])
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out.write, 1)
    posix_spawn_file_actions_adddup2(&actions, err.slave, 2)
    for fd in [out.read, out.write, err.master, err.slave] { posix_spawn_file_actions_addclose(&actions, fd) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
        print("first-output: cannot start \(path)")
        return nil
    }
    // Only the child holds the writing ends now: reading ends when it closes them (a
    // pseudo-terminal's master then reads EIO, a pipe end of file).
    close(out.write)
    close(err.slave)
    defer { close(out.read); close(err.master) }

    var result = FirstOutputResult(status: 0, seconds: 0, bytes: 0, peakMiB: 0)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var open = [out.read, err.master]
    var peakKiB = 0
    while !open.isEmpty {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if poll(&fds, nfds_t(fds.count), 2) < 0 && errno != EINTR { break }
        for polled in fds where polled.revents != 0 {
            let n = read(polled.fd, &buffer, buffer.count)
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                open.removeAll { $0 == polled.fd }
                continue
            }
            guard polled.fd == out.read else { continue }
            let t = now()
            if result.firstByte == nil { result.firstByte = t }
            if result.firstLine == nil && buffer[..<n].contains(10) { result.firstLine = t }
            result.bytes += n
        }
        if let hwm = PeakMemory.highWaterKiB(pid: pid) { peakKiB = max(peakKiB, hwm) }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    result.seconds = now()
    result.status = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    result.peakMiB = Double(peakKiB > 0 ? peakKiB : Int(usage.ru_maxrss)) / 1024
    return result
}

/// A pseudo-terminal: the master end this process reads, the slave end a child writes to.
///
/// Glibc declares `posix_openpt`, `grantpt`, `unlockpt` and `ptsname` only under
/// `_XOPEN_SOURCE`, which Swift's Glibc module is not built with: they are looked up in the
/// C library by name.
enum PseudoTerminalPair {
    private typealias OpenPT = @convention(c) (Int32) -> Int32
    private typealias OnMaster = @convention(c) (Int32) -> Int32
    private typealias SlaveName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func function<F>(_ name: String, as: F.Type) -> F? {
        dlsym(nil, name).map { unsafeBitCast($0, to: F.self) }
    }

    static func open() -> (master: Int32, slave: Int32)? {
        guard let openpt = function("posix_openpt", as: OpenPT.self), let grant = function("grantpt", as: OnMaster.self),
              let unlock = function("unlockpt", as: OnMaster.self), let name = function("ptsname", as: SlaveName.self)
        else { return nil }
        let master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let path = name(master) else {
            if master >= 0 { close(master) }
            return nil
        }
        let slave = Glibc.open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { close(master); return nil }
        return (master, slave)
    }
}
