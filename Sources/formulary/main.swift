#if canImport(Glibc)
import Glibc
#endif
import FormularyCLI
import FormularyPostgres

// What belongs to the process; the commands themselves are FormularyCLI's, which the tests
// run in-process.

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

let environment = Formulary.processEnvironment()
#if FORMULARY_TEST_HOOKS
TestFault.install(from: environment)
TestWaitLog.install(from: environment)
TestChunkPause.install(from: environment)
#endif
exit(Formulary.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment).rawValue)
