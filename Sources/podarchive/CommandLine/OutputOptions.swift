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
        "--dry-run", short: "n", summary: "only say what would be downloaded",
        help: "only say what would be downloaded, and as which file (try --name this way); nothing is "
            + "created, locked or written; with --json, the plan as JSON",
        manual: #"""
            With
            .BR sync :
            only say which episodes would be downloaded (new ones, earlier failures, files gone missing) and the name
            each would get, so a
            .B \-\-name
            template can be tried first; nothing is created, locked or written.
            """#)
    static let quiet: Option<Bool> = .flag(
        "--quiet", short: "q", summary: "print only errors",
        help: "print only errors (on standard error); the exit code says the rest", excludes: ["--verbose"],
        manual: #"""
            With
            .BR sync :
            print only errors, on standard error; the exit code says the rest.
            Without it,
            .B sync
            prints a line per archived episode and a summary per feed; on a terminal it also shows each running download
            (bytes, percent, rate, time left) and the feed's \(lqN of M\(rq, redrawn in place and gone when the feed is
            done.
            """#)
    static let verbose: Option<Bool> = .flag(
        "--verbose", short: "v", summary: "also say what was skipped",
        help: "also say what the feed lists and which episodes were skipped, and why, and the other feeds a "
            + "show's web page links to",
        helpFor: ["add": "also list the other feeds a show's web page links to"], excludes: ["--quiet"],
        manual: #"""
            With
            .BR sync :
            also say how many episodes the feed lists and which were skipped because they are archived already.
            With
            .B sync
            or
            .BR add :
            also list the other feeds a show's web page links to, besides the one followed.
            """#)
    static let json: Option<Bool> = .flag(
        "--json", summary: "print JSON",
        help: "print one JSON summary instead of lines: {\"feeds\": [{\"feed\", \"title\", \"folder\", "
            + "\"status\", \"exit\", \"error\", \"feedUnchanged\", \"archived\", \"skipped\", \"bytes\", "
            + "\"seconds\", \"failed\": [{\"title\", \"url\", \"reason\"}], \"gone\": [{\"title\", \"url\", "
            + "\"reason\", \"since\"}], \"artwork\", \"artworkError\", \"pages\", \"pageError\", \"movedTo\", "
            + "\"skippedItems\": [{\"title\", \"reason\"}]}]}",
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
        ],
        manual: #"""
            With
            .BR list :
            print one JSON object:
            {"title", "episodes": [{"title", "guid", "url", "type", "length", "published"}]},
            dates as YYYY\-MM\-DDTHH:MM:SSZ, absent values as null.
            With
            .BR sync :
            print one JSON summary instead of lines:
            {"feeds": [{"feed", "title", "folder", "status", "exit", "error", "feedUnchanged", "archived", "skipped",
            "bytes", "seconds", "failed": [{"title", "url", "reason"}], "gone": [{"title", "url", "reason", "since"}],
            "artwork", "artworkError", "pages", "pageError", "movedTo", "skippedItems": [{"title", "reason"}]}]};
            failures are still reported on standard error.
            .B status
            is ok, episodes\-failed, feed\-failed, locked, archive\-failed or interrupted.
            With
            .BR "sync \-\-dry\-run" :
            the plan, {"feeds": [{"feed", "title", "folder", "alreadyArchived", "downloads": [{"title", "url", "file",
            "missing"}]}]}.
            With
            .BR config :
            {"file", "settings": [{"key", "value", "source", "line"}]}; source is command line, saved,
            environment, config file or default, and line the configuration file's line (else null).
            With
            .B verify
            (and
            .BR \-\-repair ):
            one JSON object with every finding instead of lines,
            {"feeds", "files", "remaining", "problems": [{"folder", "file", "kind", "size", "recorded", "state", "reason",
            "replacedBy"}], "gone": [{"folder", "title", "url", "reason", "since"}], "damagedHistory": [{"folder", "file",
            "reason"}]}; kind is missing, resized or changed, state damaged, repaired, repair\-failed or unrecoverable.
            """#)
    static let upstream: Option<Bool> = .flag(
        "--upstream", summary: "which episodes exist only here",
        help: "instead of rechecking files, ask each archived episode's origin whether it still exists (HEAD, "
            + "or the first byte where HEAD is refused; --jobs at once, at most 4 to one host) and list those "
            + "that exist only in this archive now (404, 410, host gone); no file is touched",
        excludes: ["--repair"],
        manual: #"""
            With
            .BR verify :
            instead of rechecking files, ask each archived episode's origin whether it still exists (a HEAD request, or
            a GET of its first byte where HEAD is refused;
            .B \-\-jobs
            at once, at most 4 to one host) and list the episodes that exist only in this archive now (404, 410, or a host
            that no longer exists).
            No file is touched; the exit code is 0 whatever the answers.
            With
            .BR \-\-json ,
            one JSON object with every answer.
            """#)
    static let archived: Option<Bool> = .flag(
        "--archived", summary: "what the archive holds of a show",
        help: "list what the archive holds of the show instead (its folder, or a subscription's feed URL or "
            + "folder name in --to DIR): every archived episode, those the feed no longer lists marked as "
            + "removed upstream; no network",
        manual: #"""
            With
            .BR list :
            list what the archive holds of
            .I show
            (its folder, or a subscription's feed URL or folder name in the archive root) instead of reading a feed:
            every archived episode, those the feed no longer lists marked as removed upstream, with when the feed last
            listed them.
            No network.
            """#)
    static let firstPage: Option<Bool> = .flag(
        "--first-page", summary: "only the document itself",
        help: "only the episodes of the document itself, not of the further pages and archive documents it "
            + "links to (on the feed's own host)",
        manual: #"""
            With
            .BR list :
            only the episodes of the document itself, not of the pages it links to.
            """#)
    static let repair: Option<Bool> = .flag(
        "--repair", summary: "download damaged files again",
        help: "download those files again; a damaged file is kept until its replacement is in place",
        manual: #"""
            With
            .BR verify :
            download again every missing, resized or changed file.
            A damaged file is kept until its replacement is in place.
            """#)
    static let retryGone: Option<Bool> = .flag(
        "--retry-gone", summary: "try episodes given up again",
        help: "also try episodes recorded as gone upstream (404 or 410 on every run for a week and 3 runs), and "
            + "those that answered with a torrent or a playlist instead of media; they are otherwise no longer "
            + "tried and no longer fail the run",
        manual: #"""
            With
            .BR sync :
            also try episodes recorded as gone upstream, or as not media.
            An episode that answered 404 or 410 on every run for at least a week and three runs is taken as deleted by
            its publisher: it is reported once, listed by
            .BR verify ,
            no longer tried and no longer fails the run.
            One whose URL answered with a torrent or a streaming playlist (HLS, DASH) instead of the episode's media
            is reported once and not asked for again while the feed offers it at that URL.
            """#)
    static let man: Option<Bool> = .flag(
        "--man", summary: "print the manual page",
        help: "print the whole manual page, in roff (man -l reads it; make man writes it to .build/podarchive.1)",
        manual: #"""
            With
            .BR help :
            print this manual page, in roff, made from the declarations the parser and
            .B help
            use;
            .B make man
            writes it to
            .IR .build/podarchive.1 ,
            .B make install
            installs it.
            """#)
}
