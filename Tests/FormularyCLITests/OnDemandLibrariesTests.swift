import Foundation
import Testing
import FormularyPostgres
@testable import FormularyServer

/// libpq and libmicrohttpd are opened when a command needs them, not linked: the executable
/// starts without them (and the twenty-odd libraries behind them), every command that does
/// not reach a PostgreSQL server or serve HTTP works where they are missing, and the commands
/// that do say which library is missing and what to install.
@Suite struct OnDemandLibrariesTests {
    @Test func theExecutableLinksNeitherLibpqNorLibmicrohttpd() throws {
        let binary = try FormularyProcess.executable.get()
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ldd.arguments = ["ldd", binary]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        try #require(ldd.terminationStatus == 0, "ldd failed: \(text)")
        #expect(text.contains("libsqlite3"), "\(text)")
        for library in ["libpq", "libkrb5", "libgssapi", "libldap", "libsasl2", "libmicrohttpd", "libgnutls"] {
            #expect(!text.contains(library), "formulary links \(library):\n\(text)")
        }
    }

    /// The file the process loaded for `soname` (after loading it), from /proc/self/maps (read
    /// to its end: the kernel gives its size as 0, and a reader that trusts it stops early).
    static func loadedFile(_ soname: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
              let data = try? handle.readToEnd() else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        let stem = soname.prefix { $0 != "." }
        return maps.split(separator: "\n").lazy
            .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
            .first { $0.hasPrefix("/") && ($0 as NSString).lastPathComponent.hasPrefix(stem + ".so") }
    }

    /// A launcher that runs the executable in a mount namespace of its own where `file` reads
    /// as empty (as if the library were not installed), or nil when this machine cannot
    /// (not root, or no `unshare`).
    static func hiding(_ file: String) -> [String]? {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "/bin/true"]
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { return nil }
        return ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", file]
    }

    static let libpqFile: String? = {
        guard case .success = LibPQ.load(LibPQ.soname) else { return nil }
        return loadedFile(LibPQ.soname)
    }()

    static let libmicrohttpdFile: String? = {
        guard case .success = LibMicroHTTPD.load(LibMicroHTTPD.soname) else { return nil }
        return loadedFile(LibMicroHTTPD.soname)
    }()

    @Test(.enabled(if: libpqFile.flatMap(hiding) != nil, "needs root and unshare to hide libpq"))
    func withoutLibpqOnlyServerDatabasesFailAndSayWhatToInstall() throws {
        let launcher = try #require(Self.libpqFile.flatMap(Self.hiding))
        let sandbox = try Sandbox()
        let checked = try sandbox.spawn(["check", "credit-card", "4111 1111 1111 1111"], launcher: launcher)
        #expect(checked.status == 0 && checked.stdout.hasPrefix("valid"), "\(checked)")
        let initialized = try sandbox.spawn(["init"], launcher: launcher)
        #expect(initialized.status == 0, "\(initialized)")

        let server = try sandbox.spawn(["--db", "postgres://ann:s3cr3t@127.0.0.1:1/registry", "types", "list"],
                                       launcher: launcher)
        #expect(server.status == 3 && server.stdout.isEmpty, "\(server)")
        #expect(server.errorLines.first?.hasPrefix("formulary: error: cannot open postgres://ann:•••@127.0.0.1:1/registry: "
                                                   + "the PostgreSQL client library libpq.so.5 cannot be loaded (") == true,
                "\(server)")
        #expect(server.stderr.contains("apt-get install libpq5"), "\(server)")
        #expect(!server.stderr.contains("s3cr3t"), "\(server)")
    }

    @Test(.enabled(if: libmicrohttpdFile.flatMap(hiding) != nil, "needs root and unshare to hide libmicrohttpd"))
    func withoutLibmicrohttpdOnlyServeFailsAndSaysWhatToInstall() throws {
        let launcher = try #require(Self.libmicrohttpdFile.flatMap(Self.hiding))
        let sandbox = try Sandbox()
        let initialized = try sandbox.spawn(["init"], launcher: launcher)
        #expect(initialized.status == 0, "\(initialized)")
        let checked = try sandbox.spawn(["check", "email", "ada@example.com"], launcher: launcher)
        #expect(checked.status == 0, "\(checked)")

        let serve = try sandbox.spawn(["serve", "--listen", "127.0.0.1:0"], launcher: launcher)
        #expect(serve.status == 3 && serve.stdout.isEmpty, "\(serve)")
        #expect(serve.errorLines.first?.hasPrefix("formulary: error: cannot serve: the HTTP server library "
                                                  + "libmicrohttpd.so.12 cannot be loaded (") == true, "\(serve)")
        #expect(serve.stderr.contains("apt-get install libmicrohttpd12"), "\(serve)")
    }
}
