extension SourceLocation {
    /// The placeholder location `strippingLocations()` puts everywhere.
    package static let unknown = SourceLocation(file: "", line: 0, column: 0)
}

extension Arg {
    func strippingLocation() -> Arg {
        if case .parameter(let name, _) = self { return .parameter(name, .unknown) }
        return self
    }
}

extension RangeSpec {
    func strippingLocations() -> RangeSpec {
        var copy = self
        copy.lower = lower?.strippingLocation()
        copy.upper = upper?.strippingLocation()
        return copy
    }
}

extension FieldTypeDefinition {
    /// A copy with every source location replaced by `SourceLocation.unknown`, for
    /// comparing definitions by meaning (e.g. a definition with the one parsed back from
    /// its `canonicalSource`).
    package func strippingLocations() -> FieldTypeDefinition {
        var copy = self
        copy.location = .unknown
        copy.parameters = parameters.map { var p = $0; p.location = .unknown; return p }
        copy.masks = masks.map { var m = $0; m.options.location = .unknown; return m }
        copy.checks = checks.map { check in
            var c = check
            c.options.location = .unknown
            c.options.condition?.location = .unknown
            switch check.kind {
            case .length(let range, let unit): c.kind = .length(range.strippingLocations(), unit)
            case .decimal(let places): c.kind = .decimal(places: places?.strippingLocation())
            case .range(let range): c.kind = .range(range.strippingLocations())
            case .date(let format, let range): c.kind = .date(format: format, range: range?.strippingLocations())
            case .maskOneOf(let names): c.kind = .maskOneOf(names.strippingLocation())
            default: break
            }
            return c
        }
        copy.examples = examples.map { var e = $0; e.location = .unknown; return e }
        return copy
    }
}

extension FormDefinition {
    /// A copy with every source location replaced by `SourceLocation.unknown`.
    package func strippingLocations() -> FormDefinition {
        var copy = self
        copy.location = .unknown
        copy.fields = fields.map { field in
            var f = field
            f.location = .unknown
            f.type.location = .unknown
            f.type.arguments = field.type.arguments.map { var a = $0; a.location = .unknown; return a }
            return f
        }
        copy.rules = rules.map { var r = $0; r.options.location = .unknown; return r }
        return copy
    }
}
