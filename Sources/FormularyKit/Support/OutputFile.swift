#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A failure to write an output file (a report, the demo's page), naming the file, what the
/// system said, and whether the path itself is wrong.
package struct OutputFileError: Error, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    package var path: String
    /// The `errno` of the failing call.
    package var code: Int32
    /// What is wrong, in words: the system's, or more precise ones where the path is a folder.
    package var reason: String

    /// Makes the error; without `reason`, the system's text for `code` (or a more precise one).
    package init(path: String, code: Int32, reason: String? = nil) {
        self.path = path
        self.code = code
        self.reason = reason ?? String(cString: strerror(code))
    }

    /// True when the path cannot name a file to write (a folder, a missing folder on the way,
    /// a name too long): the user's mistake, a usage error. Everything else — a full disk, an
    /// I/O error, a permission or a read-only file system — is the environment's.
    package var isBadPath: Bool {
        [EISDIR, ENOENT, ENOTDIR, ENAMETOOLONG, ELOOP].contains(code)
    }

    /// What to do about it.
    package var advice: String {
        switch code {
        case ENOSPC, EDQUOT, EFBIG:
            "free some space (or write somewhere else), then run the command again"
        case EIO:
            "check the disk and the file system (dmesg, df), then run the command again"
        case EACCES, EPERM, EROFS, ETXTBSY:
            "check the permissions of the file and its folder, or write somewhere else"
        case EISDIR:
            "name a file, not a folder (a file inside it, if that is where it should go)"
        case ENOENT, ENOTDIR:
            "create the folder first, or give a path in a folder that exists"
        default:
            "write somewhere else, or run the command again"
        }
    }

    /// `PATH: reason`.
    package var description: String { "\(path): \(reason)" }
}

/// Writes output files whole or not at all.
package enum OutputFile {
    #if FORMULARY_TEST_HOOKS
    /// A hook called before each output file is written; returning an `errno` makes the write
    /// fail with it (fault injection: a full disk, an I/O error). Nil, the default, does nothing.
    /// Test builds only (FORMULARY_TEST_HOOKS, see Package.swift).
    package typealias FaultHook = @Sendable (_ path: String) -> Int32?

    private static let hook = Mutex<FaultHook?>(nil)

    /// The fault hook for every output file of this process (tests and fault-injection runs).
    package static var faultHook: FaultHook? {
        get { hook.withLock { $0 } }
        set { hook.withLock { $0 = newValue } }
    }
    #endif

    /// Writes `bytes` to `path`.
    ///
    /// A regular file (or a new one) is written to a temporary file beside it, synced, then
    /// renamed over it: a reader (a browser, a mail attachment) never sees half a page, and a
    /// failure leaves any earlier file in place. A symbolic link is followed (see
    /// ``linkTarget(_:)``), so the link stays. Anything else that is not a folder — a
    /// terminal, a pipe, a device such as /dev/stdout or /dev/full — is written directly,
    /// never replaced. The file gets the usual permissions (0666 less the umask).
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        do {
            try write(to: path) { deliver in try deliver(bytes) }
        } catch let error as OutputFileError {
            throw error
        } catch {
            throw OutputFileError(path: path, code: EIO, reason: String(describing: error))
        }
    }

    /// Writes what `produce` hands to its `deliver` function, chunk by chunk, to `path`, the
    /// same way as ``write(_:to:)`` (whole or not at all). An error thrown by `produce`
    /// leaves nothing at `path` and is rethrown.
    package static func write(to path: String, _ produce: (_ deliver: ([UInt8]) throws -> Void) throws -> Void) throws {
        #if FORMULARY_TEST_HOOKS
        if let code = faultHook?(path) { throw OutputFileError(path: path, code: code) }
        #endif
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                throw OutputFileError(path: path, code: EISDIR, reason: "is a folder, not a file")
            case S_IFREG:
                break
            default:
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw OutputFileError(path: path, code: errno) }
                do {
                    try produce { bytes in try writeAll(bytes, to: fd, path: path) }
                } catch {
                    close(fd)
                    throw error
                }
                // A device reports a deferred write error at close (as /dev/full may).
                guard close(fd) == 0 else { throw OutputFileError(path: path, code: errno) }
                return
            }
        }
        let target = linkTarget(path)
        let temporary = target + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let code = errno
            let folder = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
            if code == ENOENT || code == ENOTDIR, !FileSystem.isDirectory(folder.isEmpty ? "/" : folder) {
                throw OutputFileError(path: path, code: code, reason: "the folder \(folder) does not exist")
            }
            throw OutputFileError(path: path, code: code)
        }
        do {
            try produce { bytes in try writeAll(bytes, to: fd, path: path) }
            guard fsync(fd) == 0 else { throw OutputFileError(path: path, code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputFileError(path: path, code: code)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputFileError(path: path, code: code)
        }
    }

    /// Where a write to `path` lands, as the shell's `>` would have it: through symbolic
    /// links (a dangling one included: its file is created), so that the link stays.
    static func linkTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let destination = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") || !current.contains("/") {
                current = destination
            } else {
                current = String(current[...current.lastIndex(of: "/")!]) + destination
            }
        }
        return current   // a loop of links: the write fails with ELOOP, as it should
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(OutputFileError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(path: path, code: errno)
            }
            offset += n
        }
    }
}
