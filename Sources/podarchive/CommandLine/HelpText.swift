// The help podarchive prints: `podarchive --help`, `podarchive help <command>`, and usage on errors.
import ArchiverCore

enum HelpText {
    static let usage = """
        usage: podarchive sync <feed> [--to DIR]
               podarchive list <feed> [--json]
               podarchive help [command]
               podarchive --version
        """

    static let exitCodes = """
        Exit codes:
          0  everything archived, or nothing new
          1  some episodes failed (they are tried again on the next run)
          2  usage error
          3  the feed could not be fetched or read
          5  the archive folder or its index could not be used
        """

    static let general = """
        podarchive \(PodarchiveVersion.current): keep podcasts for good.

        \(usage)

        Commands:
          sync   download every episode of a feed not yet archived
          list   show a feed's episodes without downloading anything
          help   show help for a command

        <feed> is an http(s) URL or a local file: RSS 2.0, Atom, JSON Feed, or a JSON array of episodes.

        \(exitCodes)

        Run 'podarchive help sync' for where files go and how they are dated.
        """

    static let sync = """
        usage: podarchive sync <feed> [--to DIR]

        Downloads every episode of <feed> that is not archived yet into DIR/<feed title>/, one file per
        episode named after its title. Run it again and it fetches only what is new; an episode that failed
        is tried again.

        Options:
          --to DIR   archive root (default: $PODARCHIVE_DIR, else ~/Podcasts)
          -h, --help show this help

        Each episode is streamed to a hidden file in the feed folder and renamed into place only after it is
        complete and checked (HTTP 2xx, Content-Length matched, not an HTML page). Existing files are never
        overwritten. <feed folder>/.podarchive/index.json records what is archived.

        File dates: each file's modification date is set to the episode's publication date. On macOS its
        creation date is set too; on Linux the creation (birth) time cannot be set and stays the download
        time. An episode without a date keeps the download time.

        \(exitCodes)
        """

    static let list = """
        usage: podarchive list <feed> [--json]

        Prints the episodes of <feed> in document order without downloading anything.

        Options:
          --json     print one JSON object: {"title", "episodes": [{"title", "guid", "url", "type",
                     "length", "published"}]}, dates as YYYY-MM-DDTHH:MM:SSZ, absent values as null
          -h, --help show this help

        \(exitCodes)
        """

    static let help = """
        usage: podarchive help [command]

        Shows help for a command: sync, list.
        """

    static func text(for topic: String?) -> String {
        switch topic {
        case "sync": return sync
        case "list": return list
        case "help": return help
        default: return general
        }
    }
}
