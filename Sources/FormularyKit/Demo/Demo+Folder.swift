#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Demo {
    /// A new private folder for the demo under `temporaryFolder` (`TMPDIR`; `/tmp` when nil
    /// or empty), left in place afterwards so that the user can explore it.
    ///
    /// - Throws: a ``ServiceError`` (environment) when no folder can be created there.
    package static func makeFolder(in temporaryFolder: String?) throws -> String {
        var base = temporaryFolder.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/formulary-demo-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw ServiceError(.environment,
                               "cannot create a temporary folder in \(base): \(String(cString: strerror(errno))); set TMPDIR to a writable folder")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
