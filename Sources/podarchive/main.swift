// podarchive's entry point: run the command line with the live system, exit with its code.
import ArchiverCore
import Foundation

// Before any thread starts: Foundation's networking, made this way, creates no folder in the user's home.
SessionTemplate.prepare()
let tool = CommandLineTool.live()
let arguments = Array(CommandLine.arguments.dropFirst())
let code = await Interruption.run(errors: tool.errors) { await tool.run(arguments) }
exit(code.rawValue)
