import CSQLite

/// SQL functions over encoded entries (``EntryValues``), so that reports can pick, count and
/// group stored values inside SQLite instead of loading every entry.
///
/// - `formulary_value(FIELDS, VALS, NAME)`: the value of field `NAME` in the entry values
///   `VALS` whose layout's encoded field names are `FIELDS`; NULL when absent.
/// - `formulary_has(FIELDS, VALS, NAME, VALUE)`: 1 when field `NAME` (any field for `*`)
///   holds exactly `VALUE`, else 0.
///
/// Both are deterministic and take only their arguments, so they are safe in any statement.
extension Database {
    /// Registers the entry functions on this connection (done once, when it opens).
    func registerEntryFunctions() {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(handle, "formulary_value", 3, flags, nil, { context, count, arguments in
            guard let context, let arguments, count == 3 else { return }
            guard let name = EntryFunctionArguments.bytes(arguments[2]) else { sqlite3_result_null(context); return }
            if let slot = EntryFunctionArguments.slot(fields: arguments[0], values: arguments[1], name: name) {
                if let base = slot.baseAddress, slot.count > 0 {
                    sqlite3_result_text(context, base.assumingMemoryBound(to: CChar.self), Int32(slot.count),
                                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                } else {
                    sqlite3_result_text(context, "", 0, nil)
                }
            } else {
                sqlite3_result_null(context)
            }
        }, nil, nil, nil)
        sqlite3_create_function_v2(handle, "formulary_has", 4, flags, nil, { context, count, arguments in
            guard let context, let arguments, count == 4 else { return }
            sqlite3_result_int(context, EntryFunctionArguments.has(arguments) ? 1 : 0)
        }, nil, nil, nil)
    }
}

/// The argument handling of the entry functions (plain functions: C callbacks cannot capture).
enum EntryFunctionArguments {
    /// The bytes of a text or blob argument; nil for NULL.
    static func bytes(_ value: OpaquePointer?) -> UnsafeRawBufferPointer? {
        guard sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        let pointer: UnsafeRawPointer? = sqlite3_value_type(value) == SQLITE_BLOB
            ? sqlite3_value_blob(value) : UnsafeRawPointer(sqlite3_value_text(value))
        let count = Int(sqlite3_value_bytes(value))
        guard let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// The slot of field `name`, or nil when the layout has no such field or the value is absent.
    static func slot(fields: OpaquePointer?, values: OpaquePointer?,
                     name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let index = fieldIndex(fields, name: name), let vals = bytes(values) else { return nil }
        var reader = EntryValuesReader(vals)
        var i = 0
        do {
            while let slot = try reader.next() {
                if i == index { return slot }
                i += 1
            }
        } catch {
            return nil
        }
        return nil
    }

    static func fieldIndex(_ fields: OpaquePointer?, name: UnsafeRawBufferPointer) -> Int? {
        guard let names = bytes(fields) else { return nil }
        var reader = EntryValuesReader(names)
        var i = 0
        do {
            while let slot = try reader.next() {
                if let slot, slot.elementsEqual(name) { return i }
                i += 1
            }
        } catch {
            return nil
        }
        return nil
    }

    static func has(_ arguments: UnsafeMutablePointer<OpaquePointer?>) -> Bool {
        guard let name = bytes(arguments[2]), let wanted = bytes(arguments[3]) else { return false }
        if name.elementsEqual("*".utf8) {
            guard let vals = bytes(arguments[1]) else { return false }
            var reader = EntryValuesReader(vals)
            while let slot = try? reader.next() {
                if let slot, slot.elementsEqual(wanted) { return true }
            }
            return false
        }
        guard let slot = slot(fields: arguments[0], values: arguments[1], name: name) else { return false }
        return slot.elementsEqual(wanted)
    }
}
