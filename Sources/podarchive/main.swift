// podarchive's entry point: run the command line with the live system, exit with its code.
import Foundation

let code = await CommandLineTool.live().run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
