#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyKit
import FormularyRules

/// The terminal's settings before `try` switched it to raw mode, for the SIGINT handler
/// (which can reach only globals) and for the normal exit.
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalIsRaw = false

/// `formulary try TYPE[(PARAMS)] [--accept-all]`: an interactive field on the terminal,
/// each keystroke applied by a `FieldEditor` as an app's text field would.
struct TryCommand: Command {
    static let acceptAll = Flag("accept-all", help: "Applies every keystroke; the verdict says what is wrong.")
    static let type = Argument("TYPE", spelling: "TYPE[(PARAMS)]",
                               help: "A field type, with parameters in parentheses if any: credit-card, 'age(min: 18)'.",
                               completion: .registry(.types))
    static let spec = CommandSpec(
        path: ["try"],
        abstract: "Types into a field of a type on the terminal, keystroke by keystroke.",
        discussion: """
        Each keystroke is applied as an app's text field applies it: the type formats the
        text while you type, the caret (shown as |) stays after what you typed, and a
        keystroke that no completion could make valid is refused. Each line shows the text,
        the live verdict (valid, incomplete or invalid) and the message to show.

        Keys: printable characters type, Backspace deletes before the caret, the left and
        right arrows move the caret, Enter shows the final verdict (the value judged as
        complete), Ctrl-D or Ctrl-C leaves. The terminal's settings are restored on leaving.

        When standard input is not a terminal, each line read is typed into an empty field
        one character at a time (refused keystrokes skipped), and one final verdict is
        printed per line, as 'check' prints it. Exit status: 1 when some line ends invalid.
        Values of secure types are shown as •.
        """,
        options: [acceptAll],
        arguments: [type],
        formats: [.text],
        examples: ["formulary try credit-card", "printf '4111111111111111\\n12a\\n' | formulary try exp-date"])

    let typeText: String
    let policy: EditPolicy
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        typeText = try arguments.value(Self.type)
        policy = arguments[Self.acceptAll] ? .acceptAll : .refuseInvalid
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let type = try RegistryService(workspace: context.workspace).compile(reference: typeText, today: try context.today())
        if isatty(context.stdin) == 1 && context.stdout.isTerminal { return try interactive(type) }
        return lines(type)
    }

    // MARK: Lines from a pipe or a file

    private func lines(_ type: CompiledFieldType) -> ExitStatus {
        let style = context.style
        var rows: [[TextTable.Cell]] = []
        var anyInvalid = false
        var input = LineReader(fd: context.stdin)
        while let line = input.next() {
            var field = FieldEditor(type: type, policy: policy)
            for character in line { field.insert(String(character)) }
            let final = type.validate(field.text)
            if final.verdict == .invalid { anyInvalid = true }
            let verdict = final.verdict == .valid ? TextTable.Cell("valid", paint: style.green)
                : TextTable.Cell("invalid", paint: style.red)
            let problems = final.violations.map {
                ($0.severity == .warning ? "warning " : "") + "\($0.rule): \($0.message)"
            }.joined(separator: "; ")
            let shown = final.isAbsent ? "(empty: no check runs)" : CheckCommand.quoted(display(field.text, type))
            rows.append([verdict, TextTable.Cell(shown), TextTable.Cell(problems)])
        }
        context.stdout.write(TextTable(cells: rows).render())
        return anyInvalid ? .violations : .success
    }

    private func display(_ text: String, _ type: CompiledFieldType) -> String {
        type.definition.secure ? String(repeating: "•", count: text.count) : text
    }

    // MARK: The terminal

    private func interactive(_ type: CompiledFieldType) throws -> ExitStatus {
        guard tcgetattr(0, &savedTerminal) == 0 else {
            throw CommandFailure(status: .environment, message: "cannot read the terminal's settings")
        }
        var raw = savedTerminal
        // No line editing, no echo: every key reaches us as typed. ISIG stays on, so Ctrl-C
        // is SIGINT, whose handler restores the terminal before the process ends. Output
        // processing stays on too: "\n" still starts a new line at its left edge.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        let restoreAndLeave: @convention(c) (Int32) -> Void = { signal in
            if terminalIsRaw { tcsetattr(0, TCSANOW, &savedTerminal) }
            let newline: [UInt8] = [13, 10]
            _ = write(1, newline, 2)
            _exit(128 + signal)
        }
        signal(SIGINT, restoreAndLeave)
        signal(SIGTERM, restoreAndLeave)
        // A parent may have started us with these blocked (they are inherited): then Ctrl-C
        // would never reach the handler and the terminal would stay raw.
        var leaving = sigset_t()
        sigemptyset(&leaving)
        sigaddset(&leaving, SIGINT)
        sigaddset(&leaving, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &leaving, nil)
        guard tcsetattr(0, TCSANOW, &raw) == 0 else {
            throw CommandFailure(status: .environment, message: "cannot switch the terminal to raw mode")
        }
        terminalIsRaw = true
        defer {
            tcsetattr(0, TCSANOW, &savedTerminal)
            terminalIsRaw = false
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }

        let out = context.stdout
        let label = type.definition.label.map { " (\($0))" } ?? ""
        out.write("\(typeText)\(label). Type; ←/→ move, Backspace deletes, Enter judges, Ctrl-D leaves.\n")
        var field = FieldEditor(type: type, policy: policy)
        var refusal: Violation?
        var keys = KeyReader()
        draw(field, refusal: refusal)
        while let key = keys.next() {
            refusal = nil
            switch key {
            case .text(let characters):
                let outcome = field.insert(characters)
                if !outcome.accepted { refusal = outcome.refusal }
            case .backspace: field.deleteBackward()
            case .left: field.moveCaret(to: field.caret - 1)
            case .right: field.moveCaret(to: field.caret + 1)
            case .enter:
                out.write("\n" + finalLine(field) + "\n")
            case .quit:
                out.write("\n")
                out.flush()
                return .success
            case .other:
                break
            }
            draw(field, refusal: refusal)
        }
        out.write("\n")
        return .success
    }

    /// Redraws the field's line: prompt, text with the caret, live verdict and message.
    private func draw(_ field: FieldEditor, refusal: Violation?) {
        let style = context.style
        let characters = Array(display(field.text, field.type))
        let before = String(characters[..<field.caret]).forTerminal
        let after = String(characters[field.caret...]).forTerminal
        var line = "\r\u{1B}[K\(typeText)> \(before)|\(after)  "
        switch field.result.verdict {
        case _ where field.result.isAbsent: line += style.dim("empty")
        case .valid: line += style.green("valid")
        case .incomplete: line += style.yellow("incomplete")
        case .invalid: line += style.red("invalid")
        }
        if let message = field.result.message { line += "  " + message.forTerminal }
        if let refusal {
            line += "  " + style.dim("(refused: " + refusal.message.forTerminal + ")")
        }
        context.stdout.write(line)
        context.stdout.flush()
    }

    private func finalLine(_ field: FieldEditor) -> String {
        let style = context.style
        let final = field.type.validate(field.text)
        var line = "final: " + (final.verdict == .valid ? style.green("valid") : style.red("invalid"))
        line += "  " + (final.isAbsent ? "(empty: no check runs)" : CheckCommand.quoted(display(field.text, field.type)).forTerminal)
        let problems = final.violations.map { "\($0.rule): \($0.message)" }.joined(separator: "; ")
        if !problems.isEmpty { line += "  " + problems.forTerminal }
        return line
    }
}

/// Keys read from a raw terminal: UTF-8 text, and the few controls `try` knows.
private struct KeyReader {
    enum Key { case text(String), backspace, left, right, enter, quit, other }

    private func byte() -> UInt8? {
        var b: UInt8 = 0
        while true {
            let n = read(0, &b, 1)
            if n == 1 { return b }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }

    mutating func next() -> Key? {
        guard let b = byte() else { return nil }
        switch b {
        case 0x03, 0x04: return .quit
        case 0x7F, 0x08: return .backspace
        case 0x0D, 0x0A: return .enter
        case 0x1B:
            // ESC [ C / ESC [ D (or ESC O C / D): the arrows; other sequences are skipped.
            guard let b1 = byte(), b1 == 0x5B || b1 == 0x4F else { return .other }
            var final = byte()
            while let f = final, (0x30...0x3F).contains(f) { final = byte() }
            switch final {
            case 0x43: return .right
            case 0x44: return .left
            default: return .other
            }
        case ..<0x20: return .other
        default:
            var bytes = [b]
            let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            while bytes.count < length, let more = byte() { bytes.append(more) }
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}
