import FormularyKit
import FormularyRules

extension CommandContext {
    /// Parses `TYPE[(PARAMS)]` as typed on the command line and compiles it in `registry`,
    /// or fails with exit status 2 and the diagnostics (Kit's
    /// `RegistryService.compile(reference:in:today:)`). For a command that works on the
    /// compiled type itself; `check` and `format` go through `CheckService`.
    func compiledType(_ text: String, in registry: Registry) throws -> CompiledFieldType {
        try RegistryService.compile(reference: text, in: registry, today: try today())
    }
}
