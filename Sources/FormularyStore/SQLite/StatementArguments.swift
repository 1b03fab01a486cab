import CSQLite

/// The values bound to a statement: a typed list for `?` / `?NNN` placeholders, or values by
/// name for `:name`, `@name` and `$name` placeholders.
///
/// Binding checks the arguments against the statement, so that a wrong count or a misspelt
/// name is an error naming the statement (never a value) instead of a silent NULL.
package struct StatementArguments: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case positional([SQLValue])
        case named([String: SQLValue])
    }

    let storage: Storage

    /// Values for `?1`, `?2`… in order.
    package init(_ values: [SQLValue]) { storage = .positional(values) }

    /// Values by placeholder name, without its `:`, `@` or `$`.
    package init(named values: [String: SQLValue]) { storage = .named(values) }

    /// No arguments.
    package static let none = StatementArguments([])
}

extension StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    package init(arrayLiteral elements: SQLValue...) { self.init(elements) }

    package init(dictionaryLiteral elements: (String, SQLValue)...) {
        self.init(named: Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Statement {
    /// The placeholder names of the statement, by index from 1 (nil for a bare `?`).
    var parameterNames: [String?] {
        (0..<parameterCount).map { k in
            sqlite3_bind_parameter_name(handle, Int32(k + 1)).map { String(cString: $0) }
        }
    }

    /// Resets the statement and binds `arguments`, after checking them against its
    /// placeholders: as many positional values as placeholders, all of them `?` or `?NNN`;
    /// or a value for every named placeholder and no value without one.
    package func bind(_ arguments: StatementArguments) throws(DatabaseError) {
        reset()
        let names = parameterNames
        switch arguments.storage {
        case .positional(let values):
            if let named = names.compactMap({ $0 }).first(where: { !$0.hasPrefix("?") }) {
                throw mismatch("it has the named placeholder \(named); bind its values by name")
            }
            guard values.count == names.count else {
                throw mismatch("\(values.count) values for \(names.count) placeholders")
            }
            for (offset, value) in values.enumerated() { bind(value, at: offset + 1) }
        case .named(let values):
            var unused = Set(values.keys)
            for (offset, name) in names.enumerated() {
                guard let name, !name.hasPrefix("?") else {
                    throw mismatch("placeholder \(offset + 1) has no name; bind a list of values")
                }
                let key = String(name.dropFirst())
                guard let value = values[key] else { throw mismatch("no value for \(name)") }
                unused.remove(key)
                bind(value, at: offset + 1)
            }
            if let extra = unused.sorted().first { throw mismatch("no placeholder named \(extra)") }
        }
    }

    private func mismatch(_ why: String) -> DatabaseError {
        DatabaseError(extendedCode: SQLITE_RANGE, message: "arguments do not fit the statement: \(why)", sql: sql)
    }
}
