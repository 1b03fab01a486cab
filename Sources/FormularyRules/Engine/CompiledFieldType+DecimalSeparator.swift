extension CompiledFieldType {
    /// The character between the whole and the fractional digits of the type's numbers:
    /// its `decimal-separator`, ``DecimalSeparator/point`` when it says nothing. `decimal`,
    /// `range` and a form's `compare` read values with it, and messages show bounds with it.
    public var decimalSeparator: DecimalSeparator { definition.decimalSeparator ?? .point }
}
