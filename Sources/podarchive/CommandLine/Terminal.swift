// Where the command line writes and what it knows of its environment; injected so tests can capture it.
import ArchiverCore
import Foundation

/// A text sink such as standard output.
protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Writes UTF-8 bytes as they are (large outputs, such as `list --json`, skip a copy into a String).
    func write(utf8 bytes: [UInt8])
    /// Writes `text` with its secrets, past any redaction: only for what the user asked to see whole.
    func writeWithSecrets(_ text: String)
    /// Writes text with podarchive's own terminal control sequences (see `Printed`).
    func write(_ printed: Printed)
}

extension TextOutput {
    func write(utf8 bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
    func writeWithSecrets(_ text: String) { write(text) }
    func write(_ printed: Printed) { write(printed.raw) }
}

/// Writes through to `base` with every URL's login and tokens redacted (`TextSecrets.redactingURLs`) and every
/// control and bidi character left out of text (`InertText`): whatever a command prints, from a summary to a
/// system error that quotes a URL, shows no secret and cannot drive the terminal. Only podarchive's own control
/// sequences (`Printed.control`) pass.
struct RedactingOutput: TextOutput {
    let base: any TextOutput

    /// `output`, redacting (once: an output that already redacts is returned as it is).
    static func wrap(_ output: any TextOutput) -> any TextOutput {
        output is RedactingOutput ? output : RedactingOutput(base: output)
    }

    func write(_ text: String) { base.write(Self.shown(text)) }

    func writeWithSecrets(_ text: String) { base.write(InertText.of(text)) }

    func write(_ printed: Printed) {
        base.write(
            printed.parts.map {
                switch $0 {
                case .text(let text): Self.shown(text)
                case .control(let sequence): sequence
                }
            }.joined())
    }

    func write(utf8 bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = Self.shown(text)
        base.write(utf8: shown.utf8.count == bytes.count ? bytes : Array(shown.utf8))
    }

    private static func shown(_ text: String) -> String { InertText.of(TextSecrets.redactingURLs(in: text)) }
}

/// Standard output or standard error, written unbuffered line by line.
struct StandardStream: TextOutput {
    let descriptor: Int32

    static let output = StandardStream(descriptor: 1)
    static let error = StandardStream(descriptor: 2)

    func write(_ text: String) {
        write(utf8: Array(text.utf8))
    }

    func write(utf8 bytes: [UInt8]) {
        // A closed pipe or full disk on standard output is not worth stopping an archive for: the bytes go.
        _ = bytes.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process environment the command line depends on.
struct ProcessEnvironment: Sendable {
    var variables: [String: String]
    var currentDirectory: String

    static var live: ProcessEnvironment {
        ProcessEnvironment(
            variables: SessionTemplate.environmentAtStart,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }
}

/// What standard output and standard error are connected to, for deciding how to show progress.
struct TerminalInfo: Sendable {
    /// Standard output is a terminal.
    var outputIsTerminal: Bool
    /// Standard error is a terminal.
    var errorsIsTerminal: Bool
    /// `TERM` is `dumb` or unset: a terminal that cannot move the cursor.
    var dumb: Bool
    /// `NO_COLOR` is set to anything non-empty (https://no-color.org).
    var noColor: Bool
    /// The terminal's width in columns now (it can change while podarchive runs).
    var columns: @Sendable () -> Int

    /// Progress is redrawn in place only on a terminal that can move the cursor.
    var live: Bool { outputIsTerminal && !dumb }
    /// Colour on standard output / standard error.
    var colorOutput: Bool { live && !noColor }
    var colorErrors: Bool { errorsIsTerminal && !dumb && !noColor }

    /// Not a terminal at all: cron, a pipe, a file.
    static let none = TerminalInfo(
        outputIsTerminal: false, errorsIsTerminal: false, dumb: true, noColor: true, columns: { 80 })

    static func detect(_ environment: ProcessEnvironment) -> TerminalInfo {
        let variables = environment.variables
        let term = variables["TERM"] ?? ""
        let fallback = variables["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
        return TerminalInfo(
            outputIsTerminal: isatty(1) == 1, errorsIsTerminal: isatty(2) == 1, dumb: term.isEmpty || term == "dumb",
            noColor: !(variables["NO_COLOR"] ?? "").isEmpty,
            columns: {
                var size = winsize()
                guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return fallback }
                return Int(size.ws_col)
            })
    }
}
