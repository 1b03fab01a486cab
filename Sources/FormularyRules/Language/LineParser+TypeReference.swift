extension LineParser {
    /// `name` or `name(param: value, …)`, values being numbers or strings.
    mutating func parseTypeReference() throws(Diagnostic) -> TypeReference {
        let (name, nameToken) = try expectName("a type name")
        var arguments: [TypeReference.Argument] = []
        guard let open = cursor.peek, open.kind == .punctuation("(") else {
            return TypeReference(name: name, location: nameToken.location)
        }
        cursor.advance()
        if cursor.peek?.kind == .punctuation(")") {
            cursor.advance()
            return TypeReference(name: name, location: nameToken.location)
        }
        while true {
            let (argument, argumentToken) = try expectName("a parameter name",
                                                           after: cursor.previous?.text)
            guard cursor.peek?.kind == .punctuation(":") else {
                throw expected("':' and a value", after: argument)
            }
            cursor.advance()
            let value: ParameterValue
            switch cursor.peek?.kind {
            case .number(let text): value = text.contains(".") ? .decimal(text) : .integer(text)
            case .string(let text): value = .string(text)
            default: throw expected("a value: a number or a string in double quotes", after: ":")
            }
            let valueToken = cursor.next()!
            var location = argumentToken.location
            if valueToken.location.line == location.line {
                location.length = valueToken.location.column + valueToken.location.length - location.column
            }
            arguments.append(.init(name: argument, value: value, location: location))
            if cursor.peek?.kind == .punctuation(",") {
                cursor.advance()
                continue
            }
            if cursor.peek?.kind == .punctuation(")") {
                cursor.advance()
                break
            }
            throw expected("',' or ')'", after: valueToken.text)
        }
        return TypeReference(name: name, arguments: arguments, location: nameToken.location)
    }
}
