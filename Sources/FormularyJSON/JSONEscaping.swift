/// Appends `string` as a JSON string literal: quoted, with `"`, `\` and the control
/// characters escaped, everything else (non-ASCII included) copied as UTF-8.
///
/// Control characters use the short escapes `\b \f \n \r \t` where RFC 8259 has one and
/// `\u00XX` (lowercase hex) otherwise, the same choice as RFC 8785, so that the output
/// is canonical: one string always has one encoding.
func appendJSONString(_ string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if let done: Void = string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) {
        _ = done
    } else {
        var copy = string
        copy.withUTF8 { appendEscaped($0, to: &out) }
    }
    out.append(UInt8(ascii: "\""))
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

private func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var runStart = 0
    for index in 0..<bytes.count {
        let byte = bytes[index]
        // Most strings have nothing to escape: copy runs, not bytes.
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { continue }
        if runStart < index {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        }
        runStart = index + 1
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
        }
    }
    if runStart < bytes.count {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}

/// Whether `text` follows the JSON number grammar.
func isValidJSONNumber(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
        scanJSONNumber(buffer, from: 0).map { $0 == buffer.count } ?? false
    }
}

/// Scans a number starting at `start`; returns the index just past it, or `nil` when
/// the bytes there do not begin a valid number.
func scanJSONNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
    if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard isDigit(index) else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
        index += 1
    } else {
        while isDigit(index) { index += 1 }
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard isDigit(index) else { return nil }
        while isDigit(index) { index += 1 }
    }
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
        index += 1
        if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
            index += 1
        }
        guard isDigit(index) else { return nil }
        while isDigit(index) { index += 1 }
    }
    return index
}
