// The options of the hook run after each archived episode. Never saved: they come from the command line or the
// configuration file, so whoever can write an archive cannot make the machines that sync it run a command.
import ArchiverCore
import Foundation

/// `--exec` and `--exec-timeout`.
enum HookOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [exec.descriptor, execTimeout.descriptor]

    static let exec: Option<String> = .value(
        "--exec", "CMD", .text, summary: "run CMD after each archived episode",
        help: "run CMD with /bin/sh -c after each episode is archived, one at a time, with PODARCHIVE_FILE, "
            + "_TITLE, _SHOW, _GUID, _URL, _DATE and _FOLDER in its environment; its output goes to standard "
            + "error; a hook that fails is tried again on the next run (exit 1), 3 runs at most; never saved; "
            + "with --json, each feed has \"hooks\": [{\"title\", \"file\", \"reason\", \"runs\", \"gaveUp\"}]",
        completion: .words(["notify-send \"$PODARCHIVE_TITLE\""]), config: true,
        manual: #"""
            With
            .BR sync :
            run
            .I cmd
            with
            .B /bin/sh \-c
            after each episode is archived (its file in place and recorded in the index).
            What it needs of the episode is in its environment, never in the command's text:
            .B PODARCHIVE_FILE
            (the file's path),
            .BR PODARCHIVE_TITLE ,
            .B PODARCHIVE_SHOW
            (the show's title),
            .BR PODARCHIVE_GUID ,
            .B PODARCHIVE_URL
            (the enclosure URL, its secrets redacted),
            .B PODARCHIVE_DATE
            (the publication date, RFC 3339; empty when the feed gave none) and
            .B PODARCHIVE_FOLDER
            (the show's folder).
            Quote them in the command:
            .BR "\-\-exec 'ffmpeg \-i \(dq$PODARCHIVE_FILE\(dq ...'" .
            Hooks run one at a time, after the show's downloads, in the order the episodes were archived, while the
            show is locked; with
            .B \-\-feed\-jobs
            above 1, hooks of different shows may run at the same time.
            The hook's standard input is
            .BR /dev/null ;
            its standard output and error both go to podarchive's standard error, so a
            .B \-\-json
            report stays whole.
            A hook that exits non\-zero or runs past
            .B \-\-exec\-timeout
            never costs the episode, which stays archived: it is reported naming the episode, the run exits 1, and
            the next run tries it again, three runs in all, after which it is given up and said so once.
            A hook owed is recorded before the episode is fetched and settled once it ran: a run killed in between
            runs it on the next run (at least once across a crash), and without a crash a hook that succeeded is
            never run again for that episode.
            With
            .BR \-\-json ,
            each feed's entry lists the hooks that failed on the run as
            "hooks": [{"title", "file", "reason", "runs", "gaveUp"}].
            The command is never saved with a show or in the archive: it comes from the command line or the
            configuration file
            .RB ( "exec = ..." )
            only.
            """#)
    static let execTimeout: Option<TimeInterval> = .value(
        "--exec-timeout", "SECONDS", .seconds(positive: true),
        summary: "seconds a hook may run",
        help: "stop a hook still running after this long, with every process it started, and count it as "
            + "failed (default {default} seconds)", config: true, default: EpisodeHook.defaultTimeout,
        showDefault: { "\(Int($0))" },
        manual: #"""
            A hook still running after this long (default {default} seconds) is stopped with every process it started (its
            process group gets SIGTERM, then SIGKILL five seconds later if anything of it remains) and counts as
            failed.
            """#)
}
