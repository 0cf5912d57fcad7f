// podarchive's entry point: run the command line with the live system, exit with its code.
import ArchiverCore
import Foundation

/// Runs `arguments` with `tool` and leaves the process from the thread the run ends on: returning to the main
/// thread first would only wait for it to be woken (about a quarter of a millisecond of a 13 ms no-op run).
func run(_ tool: CommandLineTool, _ arguments: [String]) async -> Never {
    let code = await Interruption.run(errors: tool.errors) { await tool.run(arguments) }
    #if DEBUG
        // Sanitizer builds report at exit: debug builds leave through exit(3), once no thread is still bringing
        // up libcurl and OpenSSL (a sync that ended before its first request), whose clean-up exit(3) would run
        // beside it.
        _ = FeedSession.preparationsEnded(within: 10)
        exit(code.rawValue)
    #else
        // Everything is written and synced by now (every command waits for its own work). What exit(3) would add
        // is the libraries' clean-up (OpenSSL's, libdispatch's, FoundationNetworking's session tear-down), which
        // changes nothing on disk and took 1.1 ms of a 13.7 ms no-op run (60 rounds side by side): only standard
        // output's buffer is flushed.
        fflush(nil)
        _exit(code.rawValue)
    #endif
}

// Before any thread starts: Foundation's networking, made with its folders at /dev/null, creates no folder in
// the user's home, and can then be made on the thread that brings the network up.
SessionTemplate.pinFoundationFolders()
let arguments = Array(CommandLine.arguments.dropFirst())
await run(CommandLineTool.live(for: arguments), arguments)
