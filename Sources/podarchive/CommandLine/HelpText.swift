// The help podarchive prints: `podarchive --help`, `podarchive help <command>`, and usage on errors.
import ArchiverCore

enum HelpText {
    static let usage = """
        usage: podarchive sync <feed>... [--opml FILE] [--feeds FILE] [--to DIR] [--name TEMPLATE]
                                      [--metadata] [--quiet | --verbose] [--json] [--dry-run] [--limit N]
                                      [--since DATE] [--match REGEX] [--jobs N] [--retries N]
                                      [--timeout SECONDS] [--wait SECONDS]
               podarchive list <feed> [--json] [--limit N] [--since DATE] [--match REGEX]
               podarchive verify [DIR] [--repair]
               podarchive help [command]
               podarchive --version
        """

    static let exitCodes = """
        Exit codes:
          0  everything archived, or nothing new (verify: every file intact)
          1  some episodes failed; they are tried again on the next run (verify: problems remain)
          2  usage error (also: a feed list that cannot be read)
          3  the feed could not be fetched or read
          4  another podarchive is syncing the same feed (see --wait)
          5  the archive could not be written: disk full, folder unwritable, index damaged
        130  interrupted by Ctrl-C (SIGINT); 143: stopped by SIGTERM. Partial downloads are kept and resumed
             next run; locks are released
        """

    static let general = """
        podarchive \(PodarchiveVersion.current): keep podcasts for good.

        \(usage)

        Commands:
          sync    download every episode of a feed not yet archived
          list    show a feed's episodes without downloading anything
          verify  recheck archived files against their recorded size and SHA-256
          help    show help for a command

        <feed> is an http(s) URL or a local file: RSS 2.0, Atom, JSON Feed, or a JSON array of episodes.

        \(exitCodes)

        Run 'podarchive help sync' for where files go and how they are dated.
        """

    static let filterOptions = """
          --limit N          only the newest N episodes
          --since DATE       only episodes published on or after DATE (2025-01-31, or RFC 3339)
          --match REGEX      only episodes whose title matches REGEX (prefix (?i) to ignore case)
        """

    static let transferOptions = """
          --jobs N           download N episodes at once, so at most N connections to one host
                             (default 4); output stays in feed order
          --retries N        tries again after a connection failure, timeout, 5xx, 408 or 429, waiting
                             1 s, 2 s, 4 s... with jitter and honouring Retry-After (default 3)
          --timeout SECONDS  each episode must be complete within this time, all tries included
                             (default 3600); what arrived is kept and resumed on the next run
          --wait SECONDS     if another podarchive is syncing the same feed, wait this long for it
                             (default 0: exit 4 at once)
        """

    static let sync = """
        usage: podarchive sync <feed>... [--opml FILE] [--feeds FILE] [--to DIR] [--name TEMPLATE]
                                      [--metadata] [--quiet | --verbose] [--json] [--dry-run] [--limit N]
                                      [--since DATE] [--match REGEX] [--jobs N] [--retries N]
                                      [--timeout SECONDS] [--wait SECONDS]

        Downloads every episode of each <feed> that is not archived yet into DIR/<feed title>/, one file per
        episode named after its title. One feed failing never stops the others; the exit code is the worst
        outcome (5, then 3, then 4, then 1). Run it again and it fetches only what is new; episodes that failed and
        files deleted by hand are fetched again. The feed is asked for with If-None-Match/If-Modified-Since;
        when it has not changed, only those are tried.

        Options:
          --opml FILE        also sync every feed of an OPML subscription list (as podcast apps export)
          --feeds FILE       also sync every feed of FILE: one URL or path a line, # starts a comment
          --to DIR           archive root (default: $PODARCHIVE_DIR, else ~/Podcasts)
          --name TEMPLATE    name new files after TEMPLATE (default {title}): {title}, {date}
                             (YYYY-MM-DD), {feed}, {episode}, {season} ({episode:03} pads),
                             {guid} (8-digit hash); '/' makes subfolders; each part is made a safe
                             name, so no value can leave the feed folder; archived files keep their names
          --metadata         also write <file stem>.info.json beside each file (title, description, GUID,
                             URLs, dates, duration, numbers, size, SHA-256) and the feed's artwork to
                             cover.<ext> once; files archived earlier get theirs on the next changed feed
        \(filterOptions)
          --dry-run          only say what would be downloaded, and as which file (try --name this way);
                             nothing is created, locked or written
          --quiet            print only errors (on standard error); the exit code says the rest
          --verbose          also say what the feed lists and which episodes were skipped, and why
          --json             print one JSON summary instead of lines: {"feeds": [{"feed", "title",
                             "folder", "status", "exit", "error", "feedUnchanged", "archived", "skipped",
                             "bytes", "seconds", "failed": [{"title", "url", "reason"}], "artwork",
                             "artworkError"}]}
        \(transferOptions)
          -h, --help         show this help

        Each episode is streamed to a hidden file in <feed folder>/.podarchive/ and renamed into place only
        after it is complete and checked (HTTP 2xx, Content-Length matched, not an HTML page); its SHA-256 is
        computed as it streams. An interrupted download resumes with a Range request. Existing files are
        never overwritten. A full disk or unwritable folder stops the run (exit 5) with the index intact.
        A sync locks its feed folder, so two syncs of one feed never run at once.

        On a terminal, each running download (bytes, percent, rate, time left) and the feed's "N of M" are
        shown below the lines and redrawn in place; not on a terminal, or with TERM=dumb, there is no progress
        and no escape code. NO_COLOR turns colours off.

        File dates: each file's modification date is set to the episode's publication date. On macOS its
        creation date is set too; on Linux the creation (birth) time cannot be set and stays the download
        time. An episode without a date keeps the download time.

        \(exitCodes)
        """

    static let list = """
        usage: podarchive list <feed> [--json] [--limit N] [--since DATE] [--match REGEX]

        Prints the episodes of <feed> in document order without downloading anything.

        Options:
          --json             print one JSON object: {"title", "episodes": [{"title", "guid", "url",
                             "type", "length", "published"}]}, dates as YYYY-MM-DDTHH:MM:SSZ, absent
                             values as null
        \(filterOptions)
          -h, --help         show this help

        \(exitCodes)
        """

    static let verify = """
        usage: podarchive verify [DIR] [--repair] [--jobs N] [--retries N] [--timeout SECONDS] [--wait SECONDS]

        Rechecks every archived file in DIR (a feed folder, or an archive root holding feed folders; default
        the archive root: $PODARCHIVE_DIR, else ~/Podcasts) against the size and SHA-256 its index recorded,
        and lists each file that is missing, resized or changed.

        Options:
          --to DIR           the archive root, when DIR is not given
          --repair           download those files again; a damaged file is kept until its replacement is
                             in place
        \(transferOptions)
          -h, --help         show this help

        \(exitCodes)
        """

    static let help = """
        usage: podarchive help [command]

        Shows help for a command: sync, list, verify.
        """

    static func text(for topic: String?) -> String {
        switch topic {
        case "sync": return sync
        case "list": return list
        case "verify": return verify
        case "help": return help
        default: return general
        }
    }
}
