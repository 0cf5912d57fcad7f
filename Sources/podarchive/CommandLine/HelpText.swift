// The help podarchive prints: `podarchive --help`, `podarchive help <command>`, and usage on errors.
import ArchiverCore

enum HelpText {
    /// The general help's usage block: each command's synopsis, and where its help is.
    static let usage: String = {
        var lines = CommandTable.all.map { "podarchive " + $0.synopsis }
        lines.append("podarchive --version")
        return "usage: " + lines.joined(separator: "\n       ")
            + "\n\n'podarchive help <command>' (or <command> --help) gives a command's options."
    }()

    static let exitCodes = """
        Exit codes:
          0  everything archived, or nothing new (verify: every file intact)
          1  some episodes failed; they are tried again on the next run (verify: problems remain)
          2  usage error (also: a feed list that cannot be read)
          3  the feed could not be fetched or read
          4  another podarchive is syncing the same feed (see --wait)
          5  the archive could not be written: disk full, folder unwritable, index damaged
        130  interrupted by Ctrl-C (SIGINT); 143: stopped by SIGTERM. Partial downloads are kept and resumed
             next run, or started again where the server cannot continue them; locks are released
        When feeds end differently, the exit code is the worst outcome, worst first: \(ExitCode.worstFirst).
        """

    static let general = """
        podarchive \(PodarchiveVersion.current): keep podcasts for good.

        \(usage)

        Commands:
        \(commandList)

        <feed> is an http(s) URL or a local file: RSS 2.0, Atom, JSON Feed, or a JSON array of episodes
        ([{"url": "...", "title": "...", "published": "<RSS date>", "guid": "..."}]; only "url" is needed).
        sync and add also take a show's web page or Apple Podcasts link, and follow it to the feed.

        \(exitCodes)

        Run 'podarchive help sync' for where files go and how they are dated.
        """

    static let sync = """
        \(OptionTable.usage(for: .sync))

        \(syncIntro)

        Options:
        \(OptionTable.helpBlock(for: .sync))

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
        \(OptionTable.usage(for: .list))

        Prints the episodes of <feed> in document order without downloading anything, then those of the
        further pages and archive documents it links to (rel="next", rel="prev-archive", JSON Feed's next_url,
        on the feed's own host), each episode once. A page that cannot be read is named on standard error and
        the exit code is 1. With --archived, <feed> names a show of the archive instead (its folder, or a
        subscription's feed URL or folder name) and what the archive holds of it is listed, without network:
        episodes the feed no longer lists are marked as removed upstream.

        Options:
        \(OptionTable.helpBlock(for: .list))

        \(exitCodes)
        """

    static let verify = """
        \(OptionTable.usage(for: .verify))

        Rechecks every archived file in DIR (a feed folder, or an archive root holding feed folders; default
        the archive root: $PODARCHIVE_DIR, else ~/Podcasts) against the size and SHA-256 its index recorded,
        and lists each file that is missing, resized or changed. It also names damaged records of a show's index
        journal (the next sync finds their episodes again) and two index entries that name one file or one GUID;
        --repair touches neither of those entries' files and exits 5. --repair ends with each show's journal
        folded into its index.json.

        Options:
        \(OptionTable.helpBlock(for: .verify))

        \(exitCodes)
        """

    static let add = """
        \(OptionTable.usage(for: .add))

        Subscribes DIR to each <feed> without downloading anything: the feed is fetched and read, its folder
        chosen and created, and the settings given saved with it (replacing any saved before; add a show again
        to change them). 'podarchive sync' with no feed then syncs it. A feed that cannot be read is not
        subscribed (exit 3); the others are.

        <feed> may also be the show's web page or its Apple Podcasts link (sync takes them too): a page is
        followed to the feed its head links to (<link rel="alternate">; of several, the first that reads as a
        feed with episodes; --verbose lists the others), and an Apple Podcasts link is looked up in the
        directory for its feed. The feed is what is subscribed, and a login or --header given binds to the
        feed's origin, never the page's. A page that links to no feed is exit 3.

        Options:
        \(OptionTable.helpBlock(for: .add))

        \(exitCodes)
        """

    static let search = """
        \(OptionTable.usage(for: .search))

        Searches the podcast directory (Apple Podcasts: https://itunes.apple.com, or the address in
        $PODARCHIVE_DIRECTORY_URL) for shows matching the words given, and prints each one's title, author,
        episode count and feed URL, which 'podarchive add' and 'podarchive sync' take as it is. Finding no
        show is not an error (exit 0, said on standard error); a directory that cannot be asked, or answers
        with anything but its JSON, is exit 3.

        Options:
        \(OptionTable.helpBlock(for: .search))

        \(exitCodes)
        """

    static let remove = """
        \(OptionTable.usage(for: .remove))

        Unsubscribes each show, named by its feed URL or its folder's name. Nothing archived is deleted: the
        folder keeps every file and its index, and 'podarchive sync <feed>' subscribes it again. An unknown
        show is a usage error (exit 2).

        Options:
        \(OptionTable.helpBlock(for: .remove))
        """

    static let feeds = """
        \(OptionTable.usage(for: .feeds))

        Lists every show DIR is subscribed to, in the order they were added: its title, episodes archived and
        their size, the newest episode's date, episodes failing or gone upstream, and when its last sync ended
        and how; then its feed URL and folder, and the URL it replaced when another URL of the show took it
        over (with the 'add --separate' that keeps both). A show whose folder is not named after its title
        alone (a second show of one title) is named with its folder, 'Title (in Title (2)/)', here and in
        sync's lines. Read from the archive alone (no network). A damaged subscription record is named on
        standard error (exit 5).

        Options:
        \(OptionTable.helpBlock(for: .feeds))
        """

    static let site = """
        \(OptionTable.usage(for: .site))

        Writes the archive's web pages and podcast feeds from what it holds (no network): DIR/index.html (every
        show), DIR/feeds.opml, and in each show's folder index.html (its episodes newest first, each with a
        player of the archived file, its show notes made safe, transcripts and chapters) and feed.xml (a podcast
        any app can subscribe to, served from the archive). The pages need nothing from elsewhere: open them as
        files, or serve them. To publish, prefer --out DIR: the pages go there, with every archived file they
        name linked in, and a server serves DIR without ever seeing the archive's .podarchive folders. Serving
        the archive root itself needs a server that refuses dot-files (not python3 -m http.server). Pages are
        replaced whole; a show whose index has not changed is left as it is. sync --site does this after every
        sync, with the saved --base-url and --out.

        Options:
        \(OptionTable.helpBlock(for: .site))
        """

    static let export = """
        \(OptionTable.usage(for: .export))

        Writes the archive (or the shows named) as one WARC 1.1 file, the format the Internet Archive and national
        libraries take: a warcinfo record, then for each archived episode, transcript, chapters and artwork file a
        resource record with the URL it was fetched from and when, each episode's .info.json sidecar as a metadata
        record, and every kept revision of each feed. URLs are as the archive keeps them, logins and tokens
        redacted. Memory stays small whatever the files' sizes: each file is read twice, to hash it, then to copy it.

        Options:
        \(OptionTable.helpBlock(for: .export))
        """

    static let credentials = """
        \(OptionTable.usage(for: .credentials))

        Says, for each show with a secret (a login, --header values, a feed URL carrying a token), where it is
        kept: in the configuration folder ($PODARCHIVE_CONFIG_DIR, else $XDG_CONFIG_HOME/podarchive, else
        ~/.config/podarchive), in credentials/ (0600 files in a 0700 folder), never in the archive. Archives
        written by an earlier podarchive keep them inside the archive, where anyone it is served or copied to
        can read them; --move writes them to the configuration folder, then deletes them from the archive.
        Every machine that syncs the archive then needs the same configuration folder.

        Options:
        \(OptionTable.helpBlock(for: .credentials))
        """

    static let config = """
        \(OptionTable.usage(for: .config))

        Prints every setting the configuration file may set, as the file would say it (key = value), with the
        value a run uses and where it comes from: the command line (the options given here), the saved settings
        of <show> (its folder name or feed URL), the environment ($PODARCHIVE_DIR for to), the configuration
        file (with its line), or the default. The file is config in the configuration folder
        ($PODARCHIVE_CONFIG_DIR, else $XDG_CONFIG_HOME/podarchive, else ~/.config/podarchive): key = value
        lines, # comments, ~ for your home folder, each key the long name of an option listed below but --json.
        Its values are defaults, under the command line and a show's saved settings, never saved with a show.
        An unknown key or a bad value is a usage error (exit 2) naming the file and line, for every command
        but help and completions.

        Options:
        \(OptionTable.helpBlock(for: .config))
        """

    static let help = """
        usage: podarchive help [command]

        Shows help for a command: \(CommandTable.names.filter { $0 != "help" }.joined(separator: ", ")).
        """

    static let completions = """
        usage: podarchive completions bash|zsh|fish

        Prints the completion script for a shell (make install installs all three). To try one now:
          source <(podarchive completions bash)
        """

    /// The options saved with a show, as `help sync` and the man page name them.
    static var savedSettings: String { OptionTable.showSettings.map(\.name).joined(separator: ", ") }

    /// What `sync` does, wrapped: it names the settings a show keeps.
    static var syncIntro: String {
        let text =
            "Downloads every episode of each <feed> that is not archived yet into DIR/<feed "
            + "title>/, one file per episode named after its title; with no <feed> (and no --opml or "
            + "--feeds), of every show DIR is subscribed to. A feed synced is subscribed, and the "
            + "show settings given with it (\(savedSettings)) are saved with it. Each show syncs "
            + "with the options on the command line, else its saved settings, else the configuration "
            + "file's (podarchive help config), else the defaults. Up "
            + "to --feed-jobs shows sync at once, with at most --jobs downloads in all. One feed "
            + "failing never stops the others; the exit code is the worst outcome (below). Run it "
            + "again and it fetches only what is new; episodes that failed and files deleted by hand "
            + "are fetched again. The feed is asked for with If-None-Match/If-Modified-Since; when "
            + "it has not changed, only those are tried."
        return OptionTable.wrap(
            text.split(separator: " ").map(String.init), firstLine: "", indent: "", width: 103, join: "")
    }

    /// The general help's list of commands, each with what it is for.
    static var commandList: String {
        CommandTable.all.map { command in
            let name = command.name.rawValue
            let first = "  " + name + String(repeating: " ", count: max(2, 8 - name.count))
            let words = command.about.split(separator: " ").map(String.init)
            return OptionTable.wrap(
                words, firstLine: first, indent: String(repeating: " ", count: 10), width: 96, join: "")
        }.joined(separator: "\n")
    }

    /// The help of `topic` (a command's name), else the general help. Every command has a page: the switch is over
    /// all of them.
    static func text(for topic: String?) -> String {
        guard let command = topic.flatMap(CommandName.init(rawValue:)) else { return general }
        switch command {
        case .sync: return sync
        case .list: return list
        case .verify: return verify
        case .add: return add
        case .search: return search
        case .remove: return remove
        case .forget: return forget
        case .feeds: return feeds
        case .site: return site
        case .export: return export
        case .credentials: return credentials
        case .config: return config
        case .help: return help
        case .completions: return completions
        }
    }
}
