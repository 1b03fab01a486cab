import FormularyStore

extension Workspace {
    /// The store's, SQLite's and PostgreSQL's failures as the user reads them, or nil for any other error
    /// (which the caller reports as it is).
    ///
    /// - An unknown entry and a name the database does not hold are bad input (the latter
    ///   says where the name comes from, when a built-in or a plugin folder has it);
    /// - other store failures (an old schema, corrupt data) are environment failures;
    /// - SQLite's failures say what happened, what `command` kept, and what to do
    ///   (``DatabaseFailure``), with SQLite's own words as details; so do PostgreSQL's
    ///   (``ServerFailure``: the server unreachable, a refused login, no such database, a lost
    ///   connection…), never with a password;
    /// - text with a NUL character, which a PostgreSQL database cannot store, is bad input.
    ///
    /// - Parameter command: the failing command's path (`["import"]`, `["types", "add"]`…).
    public func serviceError(for error: any Error, command: [String]) -> ServiceError? {
        switch error {
        case let error as ServiceError:
            return error
        case let error as StoreError:
            switch error {
            case .noSuchEntry:
                return ServiceError(.notFound, error.description + " (see 'formulary entries list')")
            case let .notInDatabase(kind, name):
                // Known elsewhere (a built-in, a plugin folder's): there, but not the database's
                // to change.
                let hint = notInDatabaseHint(kind: DefinitionKind(kind), name: name)
                return ServiceError(hint.isEmpty ? .notFound : .notAllowed, error.description + hint)
            default:
                return ServiceError(.environment, error.description)
            }
        case let error as DatabaseError:
            let failure = DatabaseFailure(error: error, database: settings.databasePath, command: command)
            return ServiceError(.environment, failure.message, details: .text(failure.details))
        case let error as PostgresError where error.isNulInText:
            // Bad input, not the server's failure: the same file works on an SQLite file.
            return ServiceError(.badInput, "a text value to store (an entry's key, a name) holds a NUL character, "
                                + "which a PostgreSQL database cannot store; \(DatabaseFailure.kept(command: command)). "
                                + "Remove the NUL characters from the keys of the input (field values may hold them)")
        case let error as PostgresError:
            let failure = ServerFailure(error: error, location: location, command: command)
            return ServiceError(.environment, failure.message, details: .text(failure.details))
        default:
            return nil
        }
    }

    /// Why a name is not in the database when it is known elsewhere: a built-in or a plugin
    /// folder's (`types retire age`), which only their files can change.
    func notInDatabaseHint(kind: DefinitionKind, name: String) -> String {
        guard let registry = try? Registry.load(folders: settings.pluginFolders) else { return "" }
        let source = kind == .type ? registry.type(named: name)?.source : registry.forms[name]?.source
        switch source {
        case .builtin?:
            return "; it is a built-in \(kind.rawValue), which cannot be retired (a database \(kind.rawValue) of that name, "
                + "added with 'formulary \(kind.rawValue)s add', can)"
        case .folder(let folder)?:
            return "; it comes from the plugin folder \(folder.path): remove its file there instead"
        default:
            return "; 'formulary \(kind.rawValue)s list' shows where each one comes from"
        }
    }
}
