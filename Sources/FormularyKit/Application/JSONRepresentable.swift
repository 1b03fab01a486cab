import FormularyJSON

/// An output model that says itself in JSON, so that a front end only prints it: the
/// names and shapes of `--format json` live with the model, in one place.
public protocol JSONRepresentable {
    /// Writes the model as one JSON value.
    func writeJSON(to writer: inout JSONWriter)
}

/// An output model that is one JSON object (an element of a listing).
public protocol JSONObjectRepresentable: JSONRepresentable {
    /// Writes the model's fields into an object being written.
    func writeFields(to object: inout JSONObjectWriter)
}

extension JSONObjectRepresentable {
    /// Writes the model as one JSON object.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { writeFields(to: &$0) }
    }
}

extension JSONRepresentable {
    /// The model as a JSON document: the value and a line end, as `--format json` prints it.
    public var jsonDocument: [UInt8] {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        writer.newline()
        return writer.bytes
    }
}

extension Array: JSONRepresentable where Element: JSONObjectRepresentable {
    /// Writes the elements as a JSON array of objects.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.array { array in
            for element in self { array.object { element.writeFields(to: &$0) } }
        }
    }
}
