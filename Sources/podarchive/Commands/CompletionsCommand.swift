// `podarchive completions bash|zsh|fish`: the completion script of a shell, made from the commands' declarations.

struct CompletionsCommand: CommandType {
    static let info = CommandInfo(
        name: "completions", about: "print the completion script for bash, zsh or fish",
        operands: "bash|zsh|fish", readsConfiguration: false,
        discussion: """
            Prints the completion script for a shell, made from the same declarations the parser uses (make install
            installs all three). To try one now:

              source <(podarchive completions bash)
            """,
        exitCodes: [.success, .usage],
        exitMeanings: [.success: "the script printed"])

    static let options: [BoundOption<Arguments>] = []

    /// The shells it has a script for.
    static let shells = ["bash", "zsh", "fish"]

    struct Arguments: CommandArguments {
        var shell = ""
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        guard operands.count == 1, let shell = operands.first, shells.contains(shell) else {
            let got = operands.first.map { ", got '\($0)'" } ?? ""
            throw UsageError(message: "completions needs one of bash, zsh, fish\(got)", command: info.name)
        }
        arguments.shell = shell
    }

    let context: CommandContext
    let arguments: Arguments

    func run() -> ExitCode {
        context.output.write(context.manual.completions(arguments.shell) ?? "")
        return .success
    }
}
