// podarchive's entry point: run the command line with the live system, exit with its code.
import Foundation

let tool = CommandLineTool.live()
let arguments = Array(CommandLine.arguments.dropFirst())
let code = await Interruption.run(errors: tool.errors) { await tool.run(arguments) }
exit(code.rawValue)
