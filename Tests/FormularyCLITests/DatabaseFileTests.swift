import Foundation
import Testing

/// The file `--db` names, when it is not a plain writable Formulary database: read-only
/// (file and folder), empty, another application's SQLite database, not SQLite at all, or a
/// folder. Readers work where they can and never change the file; everything else is a
/// clear error naming the file, and nothing is written.
@Suite struct DatabaseFileTests {
    /// Every command that only reads the database, with the status it exits with.
    static let readers: [[String]] = [
        ["report"], ["--format", "json", "report"], ["audit"], ["audit", "verify"], ["entries", "list"],
        ["entries", "show", "1"], ["history", "1"], ["export"], ["types", "list"], ["types", "show", "visa"],
        ["types", "history", "visa"], ["forms", "list"], ["forms", "show", "signup"], ["migrate", "--status"],
        ["check", "visa", "4111 1111 1111 1111"], ["format", "visa", "4111111111111111"], ["types", "test", "visa"],
    ]

    /// Commands that write, each with what it needs in the sandbox.
    static let writers: [[String]] = [
        ["init"], ["migrate"], ["import", "--form", "signup", "more.csv"], ["types", "add", "visa.field"],
        ["types", "retire", "visa"], ["forms", "add", "signup.form"], ["validate"],
    ]

    /// A database with a form, a stored type, an entry and a run, moved into `ro/`.
    static func populated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("good.csv", "name,email\nAda,ada@example.com\n")
        try sandbox.write("more.csv", "name,email\nBo,bo@example.com\n")
        try sandbox.mustRun("import", "--form", "signup", "good.csv")
        try sandbox.mustRun("validate")
        return sandbox
    }

    /// The file's bytes, modification time and the folder's listing: what a reader leaves alone.
    struct FileState: Equatable {
        var bytes: Data
        var modified: Date
        var folder: [String]
        init(_ path: String) throws {
            let fm = FileManager.default
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            modified = try fm.attributesOfItem(atPath: path)[.modificationDate] as? Date ?? .distantPast
            folder = try fm.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
        }
    }

    static func chmod(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// A database file 0444 in a folder 0555: every reader works and leaves the file, its
    /// time and the folder exactly as they were (no `-wal` or `-shm`); a writer fails with a
    /// message that says so. Run as this process's user (as root, the mode bits alone make
    /// the readers open the file immutable) and, where possible, without the privilege to
    /// ignore permissions, so that the folder really refuses new files.
    @Test func readersWorkOnAReadOnlyDatabaseInAReadOnlyFolder() throws {
        let sandbox = try Self.populated()
        try sandbox.mkdir("ro")
        let path = sandbox.path("ro/formulary.db")
        try FileManager.default.moveItem(atPath: sandbox.databasePath, toPath: path)
        sandbox.environment["FORMULARY_DB"] = path
        try Self.chmod(path, 0o444)
        try Self.chmod(sandbox.path("ro"), 0o555)
        defer {
            try? Self.chmod(sandbox.path("ro"), 0o755)
            try? Self.chmod(path, 0o644)
        }
        let before = try FileState(path)
        #expect(before.folder == ["formulary.db"])
        var launchers: [(name: String, launcher: [String])] = [("as this user", [])]
        if let unprivileged = FormularyProcess.withoutPrivileges, !unprivileged.isEmpty {
            launchers.append(("without privileges", unprivileged))
        }
        for (name, launcher) in launchers {
            for arguments in Self.readers {
                let result = try sandbox.spawn(arguments, launcher: launcher)
                #expect(result.status == 0, "\(name): \(result)")
                #expect(result.stderr.isEmpty, "\(name): \(result)")
                #expect(try FileState(path) == before, "\(name): \(arguments.joined(separator: " ")) changed the database or its folder")
            }
        }
        // Where permissions apply, a writer is refused by them, saying what to check.
        if let unprivileged = FormularyProcess.withoutPrivileges {
            for arguments in Self.writers {
                let result = try sandbox.spawn(arguments, launcher: unprivileged)
                #expect(result.status == 3, "\(result)")
                #expect(result.stderr.contains("ro/formulary.db cannot be written"), "\(result)")
                #expect(result.stderr.contains("permissions"), "\(result)")
            }
            #expect(try FileState(path) == before)
        }
    }

    /// A read-only file in a writable folder: readers work, do not change the file and
    /// leave no `-wal` or `-shm` file beside it (a connection that cannot write the database
    /// cannot remove them either).
    @Test func readersWorkOnAReadOnlyFile() throws {
        let sandbox = try Self.populated()
        try Self.chmod(sandbox.databasePath, 0o444)
        defer { try? Self.chmod(sandbox.databasePath, 0o644) }
        let before = try FileState(sandbox.databasePath)
        for arguments in Self.readers {
            let result = try sandbox.spawn(arguments, launcher: FormularyProcess.withoutPrivileges ?? [])
            #expect(result.status == 0, "\(result)")
            #expect(try FileState(sandbox.databasePath) == before, "\(arguments.joined(separator: " ")) changed the database or its folder")
        }
    }

    /// An empty file is not a database yet: readers and writers other than `init` say so
    /// (exit 3) and leave it empty; `init` makes it one.
    @Test func anEmptyFileIsNotInitialisedAndStaysEmpty() throws {
        let sandbox = try Sandbox()
        try sandbox.write("formulary.db", "")
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.write("signup.form", Fixtures.signupForm)
        try sandbox.write("more.csv", "name,email\nBo,bo@example.com\n")
        for arguments in Self.readers + Self.writers.filter({ $0 != ["init"] }) {
            let result = try sandbox.run(arguments)
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("\(sandbox.databasePath) is not a Formulary database yet"), "\(result)")
            #expect(result.stderr.contains("run 'formulary init'"), "\(result)")
            #expect(!result.stderr.contains("migrate"), "no hint at migrate: \(result)")
            let size = try FileManager.default.attributesOfItem(atPath: sandbox.databasePath)[.size] as? Int
            #expect(size == 0, "\(arguments.joined(separator: " ")) wrote into the empty file")
            #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.hasPrefix("formulary.db") }
                    == ["formulary.db"])
        }
        let initialised = try sandbox.run("init")
        #expect(initialised.status == 0, "\(initialised)")
        #expect(initialised.stdout.hasPrefix("Created "), "\(initialised)")
        #expect(try sandbox.run("entries", "list").status == 0)
    }

    /// Another application's SQLite database: every command refuses it (exit 3), naming the
    /// file and whose it is not, and not one byte changes — not even its journal mode.
    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let sandbox = try Sandbox()
        try sandbox.write("formulary.db", "")
        try SQLiteShell(path: sandbox.databasePath).execute(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'hello')")
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.write("signup.form", Fixtures.signupForm)
        try sandbox.write("more.csv", "name,email\nBo,bo@example.com\n")
        let before = try FileState(sandbox.databasePath)
        for arguments in Self.writers + Self.readers {
            let result = try sandbox.run(arguments)
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("\(sandbox.databasePath) is an SQLite database of another application"), "\(result)")
            #expect(result.stderr.contains("(notes)"), "the message names its tables: \(result)")
            #expect(!result.stderr.contains("migrate`") && !result.stderr.contains("out of date"), "\(result)")
            #expect(try FileState(sandbox.databasePath) == before, "\(arguments.joined(separator: " ")) changed the file")
        }
        #expect(try SQLiteShell(path: sandbox.databasePath).query("SELECT name FROM sqlite_master") == [["notes"]])
    }

    /// A file that is not SQLite at all: "not an SQLite database", no talk of backups or
    /// integrity checks (nothing is damaged), and the file is left alone.
    @Test func aFileThatIsNotSQLiteIsNamedAsSuch() throws {
        let sandbox = try Sandbox()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.write("more.csv", "name,email\nBo,bo@example.com\n")
        for content in [Array("name,email\nAda,ada@example.com\n".utf8), BadFilesTests.noise(5000, seed: 7), Array("SQLite".utf8)] {
            try sandbox.write("formulary.db", bytes: content)
            for arguments in [["init"], ["entries", "list"], ["report"], ["types", "list"], ["import", "--form", "signup", "more.csv"]] {
                let result = try sandbox.run(arguments)
                #expect(result.status == 3, "\(result)")
                #expect(result.stderr.contains("\(sandbox.databasePath) is not an SQLite database"), "\(result)")
                #expect(!result.stderr.contains("backup") && !result.stderr.contains("integrity"), "\(result)")
                #expect(Array(try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath))) == content)
            }
        }
    }

    /// A folder as --db is a usage error (exit 2) that says to name the file in it.
    @Test func aFolderAsTheDatabaseIsAUsageError() throws {
        let sandbox = try Sandbox()
        try sandbox.mkdir("data")
        for arguments in [["init"], ["entries", "list"], ["types", "list"], ["report"]] {
            let result = try sandbox.run(["--db", "data"] + arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.errorLines.first == "formulary: error: --db data is a folder; name the database file, e.g. --db data/formulary.db",
                    "\(result)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("data")).isEmpty)
    }

    /// `init` where the folder is not there (or is a file) says so: the user's path to fix.
    @Test func initInAFolderThatIsNotThereSaysSo() throws {
        let sandbox = try Sandbox()
        try sandbox.write("notes.txt", "x")
        let missing = try sandbox.run("--db", "data/formulary.db", "init")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.errorLines == ["formulary: error: cannot create the database data/formulary.db: the folder data does not "
                                       + "exist; create the folder first, or pass --db with a path in a folder that exists"], "\(missing)")
        let file = try sandbox.run("--db", "notes.txt/formulary.db", "init")
        #expect(file.status == 2 && file.stderr.contains(": notes.txt is a file, not a folder;"), "\(file)")
        try sandbox.mkdir("data")
        #expect(try sandbox.run("--db", "data/formulary.db", "init").status == 0)
    }
}
