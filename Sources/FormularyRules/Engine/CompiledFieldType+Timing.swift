extension CompiledFieldType {
    /// When an app shows the type's messages: its `timing`, ``MessageTiming/leaving`` when
    /// it gives none.
    public var timing: MessageTiming { definition.timing ?? .leaving }
}
