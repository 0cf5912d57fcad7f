// One word as a POSIX shell reads it back, whatever it holds: what the completion scripts and the lines that name
// an option with its value (`feeds`, a sync's left-out line) write, so a value is never cut at an apostrophe.

enum ShellWord {
    /// `text` as one word for bash, zsh or sh: single quotes, a quote inside written `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
