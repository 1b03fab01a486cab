#if canImport(Glibc)
import Glibc
#endif
import FormularyJSON
import FormularyRules

/// A file written line by line (JSON Lines), buffered.
struct FileOutput {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []

    init(_ path: String) {
        guard let file = fopen(path, "w") else { Self.fail("cannot write \(path): errno \(errno)") }
        self.file = file
        buffer.reserveCapacity(1 << 20)
    }

    mutating func append(_ line: JSONValue) {
        line.write(to: &buffer)
        buffer.append(0x0A)
        if buffer.count > 1 << 20 { flush() }
    }

    private mutating func flush() {
        if !buffer.isEmpty, fwrite(buffer, 1, buffer.count, file) != buffer.count { Self.fail("write failed: errno \(errno)") }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() {
        flush()
        fclose(file)
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        var out = FileOutput(path)
        out.buffer = bytes
        out.close()
    }

    static func makeFolder(_ path: String) {
        var partial = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            partial += (partial.isEmpty && !path.hasPrefix("/") ? "" : "/") + part
            if !part.isEmpty { mkdir(partial, 0o755) }
        }
    }

    static func fail(_ message: String) -> Never {
        let line = Array("FormularyConformance: \(message)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
}

/// The compact JSON shapes of the vectors (runtime/conformance/README.md).
enum Encode {
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// `{"v": verdict, "f": formatted, "a": absent, "x": [[rule, severity, message]…], "m": mask}`
    /// (`m`: the name of the mask that formatted the value, or null).
    static func result(_ r: FieldResult) -> JSONValue {
        ["v": .string(r.verdict.rawValue), "f": .string(r.formatted), "a": .bool(r.isAbsent),
         "x": .array(r.violations.map { [.string($0.rule), .string($0.severity.rawValue), .string($0.message)] }),
         "m": optional(r.mask)]
    }

    /// `{"v": verdict, "fields": {KEY: result}, "fv": [[field, rule, severity, message]…], "u": [KEY…],
    /// "all": [[field, rule, severity, message]…]}`.
    static func form(_ r: FormResult, keys: [String]) -> JSONValue {
        func violation(_ v: FormViolation) -> JSONValue {
            [v.field.map(JSONValue.string) ?? .null, .string(v.rule), .string(v.severity.rawValue), .string(v.message)]
        }
        return [
            "v": .string(r.verdict.rawValue),
            "fields": .object(JSONObject(keys.compactMap { key in r.fields[key].map { (key, result($0)) } })),
            "fv": .array(r.formViolations.map(violation)),
            "u": .array(r.unknownFields.map(JSONValue.string)),
            "all": .array(r.violations.map(violation)),
        ]
    }
}

extension String {
    /// The UTF-16 offset at which each character starts, then the length.
    var characterBounds: [Int] {
        var bounds = [0]
        var offset = 0
        for character in self {
            offset += character.utf16.count
            bounds.append(offset)
        }
        return bounds
    }
}
