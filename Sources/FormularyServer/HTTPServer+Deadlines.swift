#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import CMicroHTTPD

/// The deadline of a request's head (its line and headers) on one connection: the timeout
/// from the connection's start, or from the end of its previous request.
///
/// libmicrohttpd's own timeout starts again with every byte, and the access handler runs
/// only once the headers are in, so neither notices a client that trickles a head a byte
/// at a time; the ``ConnectionWatch`` does, and shuts the socket down.
final class ConnectionState: Sendable {
    /// The connection's socket, valid until libmicrohttpd reports it closed.
    let socket: Int32
    private let timeout: Int64
    /// When the head awaited must be in (monotonic nanoseconds); 0 while none is awaited
    /// (a request is being read on or answered), ``cut`` once the watch has shut it down.
    private let deadline: Atomic<Int64>
    static let cut: Int64 = -1

    init(socket: Int32, timeoutNanoseconds: Int64) {
        self.socket = socket
        timeout = timeoutNanoseconds
        deadline = Atomic(Self.now() + timeoutNanoseconds)
    }

    /// The head is in. False when it came too late or the watch has already cut the
    /// connection: then nothing more may be written on it.
    func headArrived() -> Bool {
        let was = deadline.exchange(0, ordering: .acquiringAndReleasing)
        return was == 0 || (was != Self.cut && Self.now() <= was)
    }

    /// A request has ended: the next head is awaited from now.
    func requestEnded() {
        _ = deadline.compareExchange(expected: 0, desired: Self.now() + timeout, ordering: .acquiringAndReleasing)
    }

    /// Marks the connection cut when its head is overdue at `now`; true when it was.
    func cutIfOverdue(now: Int64) -> Bool {
        let due = deadline.load(ordering: .acquiring)
        guard due > 0, due < now else { return false }
        // Lost to the worker taking the head in just now: that head was on time.
        return deadline.compareExchange(expected: due, desired: Self.cut, ordering: .acquiringAndReleasing).exchanged
    }

    /// The monotonic clock in nanoseconds (no system call: the vDSO answers).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// Every open connection, and a thread that shuts down the socket of each whose head is
/// overdue, a few times a second; libmicrohttpd then sees the connection end and closes it.
///
/// A connection is removed when libmicrohttpd reports it closed, which it does before it
/// closes the socket, and the sweep holds the same lock: it never shuts down a socket
/// number that another connection has been given since.
final class ConnectionWatch: Sendable {
    private let open = Mutex<[ObjectIdentifier: ConnectionState]>([:])
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// How often overdue heads are looked for: a head is cut at most this much late.
    static let interval: TimeInterval = 0.2

    init() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + Self.interval)
                sweep(now: ConnectionState.now())
            }
            stopped.signal()
        }
        thread.name = "formulary-serve-deadlines"
        thread.start()
    }

    func opened(_ connection: ConnectionState) {
        open.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    func closed(_ connection: ConnectionState) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Stops the thread and waits for it.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        stopped.wait()
    }

    private func sweep(now: Int64) {
        open.withLock { connections in
            for connection in connections.values where connection.cutIfOverdue(now: now) {
                _ = shutdown(connection.socket, Int32(SHUT_RDWR))
            }
        }
    }
}

/// libmicrohttpd's notice of a connection opening or closing: the connection's state is
/// made, kept as its socket context and watched, then released.
let connectionNotice: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
    guard let context, let connection, let socketContext else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        let state = ConnectionState(socket: formulary_mhd_socket(server.mhd, connection), timeoutNanoseconds: server.timeoutNanoseconds)
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        server.watch.opened(state)
    } else if let raw = socketContext.pointee {
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        server.watch.closed(state)
    }
}
