#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import FormularyKit

/// `formulary serve`
struct ServeCommand: Command {
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
        answered 413. A connection idle for --timeout seconds is closed, and so is a request
        whose headers or body are still arriving that long after its first line; at most 256
        connections are open from one address and 4,096 in all.
        Types and forms come from the same places as for every command (built-in, the
        database, --plugins, FORMULARY_PATH), and a type added by another process shows on
        the next request. Reads need a token ('formulary tokens add NAME --scope read')
        unless --public-read is given; a token revoked elsewhere stops working on the next
        request. Each request
        logs one line on standard error: time, method, path, status, milliseconds, token
        name; never a body or a value. docs/http.md describes the API.
        Exit status: 0 after a clean stop, 2 for a bad option, 3 when the address cannot
        be listened on.
        """,
        options: [
            .option("listen", "HOST:PORT", help: "The IPv4 address and port to listen on (default 127.0.0.1:8080; port 0 picks a free one)."),
            .flag("public-read", help: "Answers reads without a token."),
            .option("threads", "N", help: "Worker threads (default 4)."),
            .option("timeout", "SECONDS", help: "Closes a connection idle, or a request still arriving, after this long (default 30)."),
        ],
        examples: ["formulary serve --public-read", "formulary serve --listen 0.0.0.0:9000 --threads 8"])

    let host: String
    let port: UInt16
    let threads: Int
    let timeout: Int
    let publicRead: Bool
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        let listen = arguments.value("listen") ?? "127.0.0.1:8080"
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw UsageError(message: "--listen '\(listen)' is not HOST:PORT (e.g. 127.0.0.1:8080)", helpCommand: "serve")
        }
        host = String(listen[..<colon])
        self.port = port
        if let text = arguments.value("threads") {
            guard let n = Int(text), (1...256).contains(n) else {
                throw UsageError(message: "--threads '\(text)' is not a number from 1 to 256", helpCommand: "serve")
            }
            threads = n
        } else {
            threads = 4
        }
        if let text = arguments.value("timeout") {
            guard let n = Int(text), (1...3600).contains(n) else {
                throw UsageError(message: "--timeout '\(text)' is not a number of seconds from 1 to 3600", helpCommand: "serve")
            }
            timeout = n
        } else {
            timeout = 30
        }
        publicRead = arguments.flag("public-read")
        _ = try context.today()   // a bad --today is a usage error now, not at the first request
        self.context = context
    }

    func run() throws -> ExitStatus {
        let option = context.arguments.value("today"), environment = context.environment["FORMULARY_TODAY"]
        let fallback = try context.today()
        let api = RegistryAPI(settings: context.workspaceSettings, publicRead: publicRead) {
            (try? Today.resolve(option: option, environment: environment)) ?? fallback
        }
        // The worker threads start with these signals blocked, so that only `sigwait`
        // below takes them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let log = AccessLog()
        let server = try HTTPServer(host: host, port: port, threads: threads, timeoutSeconds: timeout, log: { log.write($0.text) }) {
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
