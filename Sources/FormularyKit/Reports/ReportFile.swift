#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report file whole or not at all.
public enum ReportFile {
    /// The default name of a run's HTML report, in the current folder.
    public static func defaultHTMLName(run: Int64) -> String {
        "formulary-report-run-\(run).html"
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a
    /// reader (a browser, a mail attachment) never sees half a page, and a failure leaves
    /// any earlier file in place. The file gets the usual permissions (0666 less the umask).
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw FileError(path: path, reason: FileSystem.errnoText()) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = FileSystem.errnoText()
                close(fd)
                unlink(temporary)
                throw FileError(path: path, reason: reason)
            }
            offset += n
        }
        let synced = fsync(fd) == 0
        let syncError = FileSystem.errnoText()
        let closed = close(fd) == 0
        if !synced || !closed {
            let reason = synced ? FileSystem.errnoText() : syncError
            unlink(temporary)
            throw FileError(path: path, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = FileSystem.errnoText()
            unlink(temporary)
            throw FileError(path: path, reason: reason)
        }
    }
}
