#if canImport(Glibc)
import Glibc
#endif

// Standard output may be a closed pipe (`formulary … | head`): write errors are then
// ignored instead of killing the process with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = Formulary.main(arguments: Array(CommandLine.arguments.dropFirst()),
                            environment: Formulary.processEnvironment())
exit(status.rawValue)
