// `podarchive search TERM...`: shows of the podcast directory (Apple Podcasts, or `$PODARCHIVE_DIRECTORY_URL`)
// whose name matches, each with its title, author, episode count and feed URL, which `add` and `sync` take as it
// is. Nothing is written; a directory that cannot be asked, or answers with something else than its JSON, exits 3.
import ArchiverCore
import Foundation

struct SearchCommand: CommandType {
    static let info = CommandInfo(
        name: "search", about: "find shows by name in the podcast directory (Apple Podcasts): title, author, feed",
        operands: "<term>...", repeats: true, fetches: true,
        discussion: """
            Searches the podcast directory (Apple Podcasts: https://itunes.apple.com, or the address in
            $PODARCHIVE_DIRECTORY_URL) for shows matching the words given, and prints each one's title, author,
            episode count and feed URL, which 'podarchive add' and 'podarchive sync' take as it is. Finding no
            show is not an error (exit 0, said on standard error); a directory that cannot be asked, or answers
            with anything but its JSON, is exit 3.
            """,
        exitCodes: [.success, .usage, .feedFailed],
        exitMeanings: [
            .success: "the shows found listed (none found is no error)",
            .feedFailed: "the directory could not be asked, or did not answer with its JSON",
        ])

    static let options: [BoundOption<Arguments>] = [
        SettingOptions.limit.at(\.limit),
        OutputOptions.json.at(\.json),
    ]

    struct Arguments: CommandArguments {
        /// The words searched for, joined by spaces.
        var terms: [String] = []
        var json = false
        /// At most this many shows (1 to 200).
        var limit = 10
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.terms = try Operands.some(operands, "the words to search for", command: info.name)
        guard (1...200).contains(arguments.limit) else {
            throw UsageError(
                message: "option '--limit' of search takes 1 to 200 shows, got \(arguments.limit)", command: info.name)
        }
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        let outcome = await context.makeArchiver().commands.search(
            SearchRequest(
                term: arguments.terms.joined(separator: " "), limit: arguments.limit,
                environment: context.environment.variables))
        guard let report = context.report(of: outcome) else { return outcome.status }
        if arguments.json {
            context.output.write(report.json)
        } else if report.shows.isEmpty {
            context.errors.write("podarchive: the podcast directory finds no show for \"\(report.term)\"\n")
        } else {
            context.output.write(report.lines)
        }
        return outcome.status
    }
}
