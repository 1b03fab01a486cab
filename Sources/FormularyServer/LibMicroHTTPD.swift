import FormularyKit
import CMicroHTTPD

/// libmicrohttpd, opened when `formulary serve` starts its daemon rather than linked: every
/// other command starts without loading it and GnuTLS behind it (docs/performance.md,
/// "Start-up").
///
/// The functions come as a table (`formulary_mhd`, CMicroHTTPD's shim.h) whose entries have
/// the types libmicrohttpd's header declares, so a call through it is checked as a direct
/// call would be.
package enum LibMicroHTTPD {
    /// libmicrohttpd's shared library, by its soname.
    package static let soname = "libmicrohttpd.so.12"

    /// The process's libmicrohttpd, loaded on first use; every server shares it.
    /// `nonisolated(unsafe)`: the table is filled once, inside the global's one-time
    /// initialisation, and only read after.
    nonisolated(unsafe) private static let shared: Result<UnsafePointer<formulary_mhd>, ServiceError> = load(soname)

    /// libmicrohttpd's functions, loading the library on the first call.
    ///
    /// - Throws: a ``ServiceError`` (environment) that names the library and the loader's
    ///   reason when it cannot be loaded.
    static func functions() throws(ServiceError) -> UnsafePointer<formulary_mhd> {
        try shared.get()
    }

    /// Opens `library` and resolves libmicrohttpd's functions from it (the process's copy is
    /// `load(soname)`; tests name a library that is not there).
    package static func load(_ library: String) -> Result<UnsafePointer<formulary_mhd>, ServiceError> {
        let table = UnsafeMutablePointer<formulary_mhd>.allocate(capacity: 1)
        if let reason = formulary_mhd_load(library, table) {
            table.deallocate()
            return .failure(ServiceError(
                .environment,
                "cannot serve: the HTTP server library \(library) cannot be loaded (\(String(cString: reason))). "
                    + "Install libmicrohttpd (Debian and Ubuntu: apt-get install libmicrohttpd12), then run the command again"))
        }
        return .success(UnsafePointer(table))
    }
}
