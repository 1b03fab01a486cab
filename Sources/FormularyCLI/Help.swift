/// Help text, rendered from the command specs so that it always matches what the parser
/// accepts. Golden tests pin it down.
enum Help {
    /// The page `formulary WORDS… --help` shows, which `formulary help WORDS…` shows too:
    /// the overview for no words, a group's list for a group, else the command's page.
    static func page(for words: [String], specs: [CommandSpec]) throws(UsageError) -> String {
        switch try ArgumentParser(commands: specs).resolve(words, exactly: true) {
        case .root: root(specs: specs, group: nil)
        case .group(let group): root(specs: specs, group: group)
        case .command(let spec): command(spec)
        }
    }

    static func root(specs: [CommandSpec], group: String?) -> String {
        let visible = specs.filter { !$0.isHidden }
        var out = ""
        if let group {
            out += "USAGE: formulary \(group) <subcommand> [options]\n\nSUBCOMMANDS:\n"
            out += list(visible.filter { $0.path.first == group && $0.path.count > 1 })
            out += "\nSee 'formulary \(group) <subcommand> --help' for more about a subcommand.\n"
            return out
        }
        out += """
        OVERVIEW: Formulary keeps reusable form-field types (card numbers, dates, emails…) as
        small rule-script plugins, and validates values and stored records with them.

        USAGE: formulary <command> [options]

        COMMANDS:

        """
        out += list(visible)
        out += "\nGLOBAL OPTIONS (before or after the command):\n"
        out += options(OptionSpec.globals)
        out += "\nSee 'formulary help <command>' or 'formulary <command> --help' for more about a command.\n"
        return out
    }

    static func command(_ spec: CommandSpec) -> String {
        var out = "OVERVIEW: \(spec.abstract)\n\nUSAGE: formulary \(spec.usage)\n"
        if !spec.discussion.isEmpty { out += "\n\(spec.discussion)\n" }
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n" + TextTable(rows: spec.arguments.map { ["  " + $0.label, $0.help] }).render()
        }
        if !spec.options.isEmpty {
            out += "\nOPTIONS:\n" + options(spec.options)
        }
        out += "\nGLOBAL OPTIONS:\n" + options(OptionSpec.globals)
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n" + spec.examples.map { "  " + $0 + "\n" }.joined()
        }
        return out
    }

    private static func list(_ specs: [CommandSpec]) -> String {
        let table = TextTable(rows: specs.map { ["  " + $0.name, $0.abstract] })
        return table.render()
    }

    private static func options(_ options: [OptionSpec]) -> String {
        let rows = options.map { o -> [String] in
            var name = "  --\(o.name)"
            if let v = o.valueName { name += " \(v)" }
            if let s = o.short { name = "  -\(s), " + name.dropFirst(2) }
            return [name, o.help]
        }
        return TextTable(rows: rows).render()
    }
}
