#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import FormularyKit
import FormularyServer

/// `formulary serve`
struct ServeCommand: Command {
    static let listen = Option("listen", "HOST:PORT",
                               help: "The IPv4 address and port to listen on (default 127.0.0.1:8080; port 0 picks a free one).")
    static let publicRead = Flag("public-read",
                                 help: "Answers reads without a token: anyone who can reach the server reads the registry, runs, reports and audit log.")
    static let allowHost = Option("allow-host", "NAME",
                                  help: "Also answers requests whose Host header is NAME (a DNS name or IPv4 address); repeatable.",
                                  repeatable: true)
    static let threads = Option("threads", "N", help: "Worker threads (default 4).")
    static let timeout = Option("timeout", "SECONDS",
                                help: "Closes a connection idle, or a request still arriving, after this long (default 30).")
    static let spec = CommandSpec(
        path: ["serve"],
        abstract: "Serves the registry over HTTP: types, forms, checks and edits as JSON.",
        discussion: """
        Answers on HOST:PORT until stopped with SIGTERM or Ctrl-C (requests in flight
        finish first). Every project, in any language, asks the one engine: GET /v1/types,
        /v1/types/NAME, /v1/forms, /v1/forms/NAME and /v1/export (with an ETag), POST
        /v1/check, /v1/edit and /v1/forms/NAME/judge; GET /v1/runs, /v1/runs/ID/report and
        /v1/audit; GET /healthz answers {"status": "ok"}. A 'submit' token may also POST
        /v1/forms/NAME/entries (stored as an import of one record); an 'admin' token may
        also POST a .field or .form file to /v1/types or /v1/forms (as 'types add' and
        'forms add'). Errors are JSON: {"error": {"code", "message"}}. A body over 1 MiB is
        answered 413, a request line and headers over 16 KiB 431. A connection idle for
        --timeout seconds is closed; so is one whose request line and headers are not all
        in that long after it opened (or after its previous answer), and one whose body is
        still arriving that long after its first line. At most 128 connections are open
        from one address and 4,096 in all.
        Every request must name the server in its Host header: the --listen address,
        localhost when that is a loopback address (or 0.0.0.0, which also answers for any
        of the machine's IPv4 addresses), or a name given with --allow-host; any other is
        answered 421, so that a web page on another site cannot read the registry through
        a name of its own that resolves to this server.
        Types and forms come from the same places as for every command (built-in, the
        database, --plugins, FORMULARY_PATH), and a type added by another process shows on
        the next request. Reads need a token ('formulary tokens add NAME --scope read')
        unless --public-read is given, which lets anyone who can reach the server read
        everything a 'read' token may: types, forms, the export, runs and their reports
        (with the failing values, secure ones masked) and the audit log. A token revoked
        elsewhere stops working on the next request. Each request logs one line on
        standard error: time, method, path, status, milliseconds, token name (the method,
        path and name percent-encoded); never a body or a value. A request the server
        fails to answer gets 500 or 503 without the cause, which is logged on a line of its
        own. docs/http.md describes the API.
        Exit status: 0 after a clean stop, 2 for a bad option, 3 when the address cannot
        be listened on.
        """,
        options: [listen, publicRead, allowHost, threads, timeout],
        examples: ["formulary serve --public-read", "formulary serve --listen 0.0.0.0:9000 --threads 8",
                   "formulary serve --allow-host formulary.example.com"])

    let host: String
    let port: UInt16
    let threads: Int
    let timeout: Int
    let publicRead: Bool
    let allowedHosts: [String]
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        let listen = arguments[Self.listen] ?? "127.0.0.1:8080"
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw UsageError(message: "--listen '\(listen)' is not HOST:PORT (e.g. 127.0.0.1:8080)", helpCommand: "serve")
        }
        host = String(listen[..<colon])
        self.port = port
        if let text = arguments[Self.threads] {
            guard let n = Int(text), (1...256).contains(n) else {
                throw UsageError(message: "--threads '\(text)' is not a number from 1 to 256", helpCommand: "serve")
            }
            threads = n
        } else {
            threads = 4
        }
        if let text = arguments[Self.timeout] {
            guard let n = Int(text), (1...3600).contains(n) else {
                throw UsageError(message: "--timeout '\(text)' is not a number of seconds from 1 to 3600", helpCommand: "serve")
            }
            timeout = n
        } else {
            timeout = 30
        }
        publicRead = arguments[Self.publicRead]
        allowedHosts = arguments.all(Self.allowHost)
        for name in allowedHosts where !HostPolicy.isName(name) {
            throw UsageError(message: "--allow-host '\(ReportEscaping.terminal(name))' is not a host name: give a DNS name "
                             + "(letters, digits, '-' and '.', e.g. formulary.example.com) or an IPv4 address, without a port",
                             helpCommand: "serve")
        }
        _ = try context.today()   // a bad --today is a usage error now, not at the first request
        self.context = context
    }

    func run() throws -> ExitStatus {
        let option = context.arguments[GlobalOption.today], environment = context.environment["FORMULARY_TODAY"]
        let fallback = try context.today()
        let log = AccessLog()
        let api = RegistryAPI(settings: context.workspaceSettings, publicRead: publicRead, today: {
            (try? Today.resolve(option: option, environment: environment)) ?? fallback
        }, problems: { log.write($0) })
        // The worker threads start with these signals blocked, so that only `sigwait`
        // below takes them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server = try HTTPServer(host: host, port: port, threads: threads, timeoutSeconds: timeout,
                                    hosts: HostPolicy(listeningOn: host, allowing: allowedHosts),
                                    log: { log.write($0.text) }) {
            api.respond(to: $0)
        }
        context.stderr.line("Serving the registry on http://\(host):\(server.port) (\(publicRead ? "reads need no token" : "reads need a token")); stop with Ctrl-C.")
        context.stderr.flush()
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
        context.stderr.line("Stopped (\(received == SIGINT ? "SIGINT" : "SIGTERM")).")
        return .success
    }
}

/// The access log: one line per request on standard error, written whole by whichever
/// worker thread answered.
///
/// A line is one `write`: up to `PIPE_BUF` bytes that is whole on a pipe (POSIX) and on a
/// file or terminal (Linux serializes writes to one open file), so the usual line needs no
/// lock that a worker would wait on. A longer one (a path of kilobytes) takes the lock, so
/// that two such lines at least do not interleave.
private final class AccessLog: @unchecked Sendable {
    private let lock = NSLock()

    func write(_ line: String) {
        var text = line
        text.append("\n")
        text.withUTF8 { bytes in
            if bytes.count <= Int(PIPE_BUF) {
                _ = Glibc.write(2, bytes.baseAddress, bytes.count)
            } else {
                lock.lock()
                defer { lock.unlock() }
                _ = Glibc.write(2, bytes.baseAddress, bytes.count)
            }
        }
    }
}
