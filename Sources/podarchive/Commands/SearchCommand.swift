// `podarchive search TERM...`: shows of the podcast directory (Apple Podcasts, or `$PODARCHIVE_DIRECTORY_URL`)
// whose name matches, each with its title, author, episode count and feed URL, which `add` and `sync` take as it
// is. Nothing is written; a directory that cannot be asked, or answers with something else than its JSON, exits 3.
import ArchiverCore
import Foundation

struct SearchCommand: CommandType {
    static let info = CommandInfo(
        name: "search", about: "find shows by name in the podcast directory (Apple Podcasts): title, author, feed",
        summary: "find shows by name", operands: "<term>...", repeats: true, fetches: true,
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

    /// The directory is asked within this many seconds.
    static let timeout: TimeInterval = 60

    func run() async -> ExitCode {
        let term = arguments.terms.joined(separator: " ")
        let resolver = context.makeArchiver().feedResolver(
            directory: PodcastDirectory.from(environment: context.environment.variables))
        let shows: [DirectoryShow]
        do {
            shows = try await resolver.search(term, limit: arguments.limit, limits: FeedLimits(timeout: Self.timeout))
        } catch {
            return context.report(error, cancelled: Task.isCancelled)
        }
        if arguments.json {
            context.output.write(Self.json(shows))
        } else if shows.isEmpty {
            context.errors.write("podarchive: the podcast directory finds no show for \"\(term)\"\n")
        } else {
            context.output.write(Self.lines(shows))
        }
        return .success
    }

    /// Two lines a show: its title, author and episode count; then its feed, ready for `add` or `sync`.
    static func lines(_ shows: [DirectoryShow]) -> String {
        shows.map { show in
            var facts: [String] = []
            if let author = show.author { facts.append("by \(author)") }
            if let episodes = show.episodes { facts.append("\(episodes) episode\(episodes == 1 ? "" : "s")") }
            let head =
                SyncFormatter.oneLine(show.title.isEmpty ? "(untitled)" : show.title)
                + (facts.isEmpty ? "" : " (\(SyncFormatter.oneLine(facts.joined(separator: ", "))))")
            return head + "\n    " + (show.feedURL?.absoluteString ?? "no public feed") + "\n"
        }.joined()
    }

    /// `{"shows": [{"title", "author", "episodes", "feed", "id"}]}`, in the directory's order.
    static func json(_ shows: [DirectoryShow]) -> String {
        var out = JSONWriter()
        out.raw("{\"shows\": [")
        for (position, show) in shows.enumerated() {
            out.raw(position == 0 ? "\n  {\"title\": " : ",\n  {\"title\": ")
            out.string(show.title)
            out.raw(", \"author\": ")
            out.string(show.author)
            out.raw(", \"episodes\": ")
            out.number(show.episodes.map(Int64.init))
            out.raw(", \"feed\": ")
            out.string(show.feedURL?.absoluteString)
            out.raw(", \"id\": ")
            out.number(show.id.map(Int64.init))
            out.raw("}")
        }
        out.raw(shows.isEmpty ? "]}\n" : "\n]}\n")
        return out.text
    }
}
