#if canImport(Glibc)
import Glibc
#endif
import FormularyPostgres

// postgres:// URLs open the PostgreSQL backend; FormularyKit itself links no libpq.
PostgresBackend.install()

// Standard output may be a closed pipe (`formulary … | head`): write errors are then
// ignored instead of killing the process with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

// `CommandLine.arguments` quietly repairs invalid UTF-8 with U+FFFD, which would check a
// different value than the one given; refuse such arguments instead.
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
    let message = "formulary: error: argument \(index) is not valid UTF-8; values must be UTF-8 text\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(ExitStatus.badInput.rawValue)
}

let status = Formulary.main(arguments: Array(CommandLine.arguments.dropFirst()),
                            environment: Formulary.processEnvironment())
exit(status.rawValue)
