// The options that say what a command prints and which of its kinds of work it does.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum OutputOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        dryRun.descriptor, quiet.descriptor, verbose.descriptor, json.descriptor, upstream.descriptor,
        archived.descriptor, firstPage.descriptor, repair.descriptor, retryGone.descriptor, man.descriptor,
    ]

    static let dryRun: Option<Bool> = .flag(
        "--dry-run", short: "n",
        help: #"""
            only say what would be downloaded, and as which file (try `--name` this way); nothing is created, locked or
            written; with `--json`, the plan as JSON

            The episodes it names are the new ones, earlier failures and files gone missing, then those the show's
            retention (`--keep-last`, `--keep-days`, saved or given) would offload or delete after them.
            """#)
    static let quiet: Option<Bool> = .flag(
        "--quiet", short: "q",
        help: #"""
            print only errors (on standard error); the exit code says the rest

            Without it, `sync` prints a line per archived episode and a summary per feed; on a terminal it also shows
            each running download (bytes, percent, rate, time left) and the feed's "N of M", redrawn in place and gone
            when the feed is done.
            """#, excludes: ["--verbose"])
    static let verbose: Option<Bool> = .flag(
        "--verbose", short: "v",
        help: #"""
            also say what was skipped: how many episodes the feed lists and which were skipped, and why, and the other
            feeds a show's web page links to
            """#,
        helpFor: ["add": "also list the other feeds a show's web page links to"], excludes: ["--quiet"])
    static let json: Option<Bool> = .flag(
        "--json",
        help: #"""
            print JSON: one summary instead of lines, {"feeds": [{"feed", "title", "folder", "status", "exit", "error",
            "feedUnchanged", "archived", "skipped", "bytes", "seconds", "failed": [{"title", "url", "reason"}], "gone":
            [{"title", "url", "reason", "since"}], "artwork", "artworkError", "pages", "pageError", "movedTo",
            "skippedItems": [{"title", "reason"}]}]}

            With `sync`, failures are still reported on standard error, and `status` is ok, episodes-failed,
            feed-failed, locked, archive-failed or interrupted; with `sync --dry-run`, the plan, {"feeds": [{"feed",
            "title", "folder", "alreadyArchived", "downloads": [{"title", "url", "file", "missing"}], "retention":
            [{"title", "file", "action", "into"}]}]} (retention: what the show's retention would offload or delete
            after the sync; action is offload or delete). With `list`:
            {"title", "episodes": [{"title", "guid", "url", "type", "length", "published"}]}, dates as
            YYYY-MM-DDTHH:MM:SSZ, absent values as null. With `config`: {"file", "settings": [{"key", "value", "source",
            "line"}]}; source is command line, saved, environment, config file or default, and line the configuration
            file's line (else null). With `verify` (and `--repair`): every finding, {"feeds", "files", "remaining",
            "problems": [{"folder", "file", "kind", "size", "recorded", "state", "reason", "replacedBy"}], "gone":
            [{"folder", "title", "url", "reason", "since"}], "damagedHistory": [{"folder", "file", "reason"}]}; kind is
            missing, resized or changed, state damaged, repaired, repair-failed or unrecoverable. With `feeds`, `search`
            and `verify --upstream`, see their help.
            """#,
        helpFor: [
            "verify": "print one JSON object instead of lines: {\"feeds\", \"files\", \"remaining\", \"problems\": "
                + "[{\"folder\", \"file\", \"kind\" (missing, resized, changed), \"size\", \"recorded\", \"state\" "
                + "(damaged, repaired, repair-failed, unrecoverable), \"reason\", \"replacedBy\"}], \"gone\": "
                + "[{\"folder\", \"title\", \"url\", \"reason\", \"since\"}], \"damagedHistory\": [{\"folder\", "
                + "\"file\", \"reason\"}]}; with --upstream: {\"checked\", \"online\", \"gone\", \"unknown\", "
                + "\"episodes\": [{\"folder\", \"file\", \"title\", \"url\", \"state\", \"reason\"}]} (each "
                + "episode asked about; state online, gone or unknown)",
            "feeds": "print one JSON object: {\"feeds\": [{\"title\", \"feed\", \"folder\", \"episodes\", "
                + "\"bytes\", \"newest\", \"failing\", \"gone\", \"removedUpstream\", \"lastSync\", "
                + "\"outcome\", \"error\", \"movedFrom\", \"moved\", \"separate\", \"earlierFeed\", \"settings\", "
                + "\"credentials\" (whether any are saved; never what they are)}]}",
            "list": "print one JSON object: {\"title\", \"episodes\": [{\"title\", \"guid\", \"url\", \"type\", "
                + "\"length\", \"published\"}]}, dates as YYYY-MM-DDTHH:MM:SSZ, absent values as null",
            "search": "print one JSON object: {\"shows\": [{\"title\", \"author\", \"episodes\", \"feed\", "
                + "\"id\"}]}, absent values as null",
            "config": "print one JSON object: {\"file\" (the configuration file, or null), \"settings\": "
                + "[{\"key\", \"value\" (null: none), \"source\" (command line, saved, environment, config "
                + "file, default), \"line\"}]}",
        ])
    static let upstream: Option<Bool> = .flag(
        "--upstream",
        help: #"""
            ask each episode's origin whether it still exists, instead of rechecking files (HEAD, or the first byte
            where HEAD is refused; `--jobs` at once, at most 4 to one host), and list those that exist only in this
            archive now (404, 410, host gone); no file is touched

            The exit code is 0 whatever the answers. With `--json`, one JSON object with every answer.
            """#,
        excludes: ["--repair"])
    static let archived: Option<Bool> = .flag(
        "--archived",
        help: #"""
            list what the archive holds of the show instead (its folder, or a subscription's feed URL or folder name in
            `--to` <DIR>): every archived episode, those the feed no longer lists marked as removed upstream, with when
            the feed last listed them; no network
            """#)
    static let firstPage: Option<Bool> = .flag(
        "--first-page",
        help: #"""
            only the document itself: not the episodes of the further pages and archive documents it links to (on the
            feed's own host)
            """#)
    static let repair: Option<Bool> = .flag(
        "--repair",
        help: #"""
            download damaged files again: every missing, resized or changed one; a damaged file is kept until its
            replacement is in place
            """#)
    static let retryGone: Option<Bool> = .flag(
        "--retry-gone",
        help: #"""
            also try episodes given up: those recorded as gone upstream (404 or 410 on every run for a week and 3 runs),
            and those that answered with a torrent or a playlist instead of media; they are otherwise no longer tried
            and no longer fail the run

            An episode gone upstream is reported once and listed by `verify`. One whose URL answered with a torrent or a
            streaming playlist (HLS, DASH) is reported once and not asked for again while the feed offers it at that
            URL.
            """#)
    static let man: Option<Bool> = .flag(
        "--man",
        help: #"""
            print the manual page, in roff (`man -l` reads it; `make man` writes it to `.build/podarchive.1`, `make
            install` installs it)
            """#)
}
