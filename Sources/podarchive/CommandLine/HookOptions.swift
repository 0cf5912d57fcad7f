// The options of the hook run after each archived episode. Never saved: they come from the command line or the
// configuration file, so whoever can write an archive cannot make the machines that sync it run a command.
import ArchiverCore
import Foundation

/// `--exec` and `--exec-timeout`.
enum HookOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [exec.descriptor, execTimeout.descriptor]

    static let exec: Option<String> = .value(
        "--exec", "CMD", .text,
        help: #"""
            run <CMD> after each archived episode (with `/bin/sh -c`, one at a time, with `PODARCHIVE_FILE`, `_TITLE`,
            `_SHOW`, `_GUID`, `_URL`, `_DATE` and `_FOLDER` in its environment); its output is shown only when it fails
            (or with `-v`), on standard error; a hook that fails is tried again on the next run (exit 1), 3 runs at most; never saved; with `--json`, each
            feed has "hooks": [{"title", "file", "reason", "runs", "gaveUp"}]

            It runs once the episode's file is in place and recorded in the index. What it needs of the episode is in
            its environment, never in the command's text: `PODARCHIVE_FILE` (the file's path), `PODARCHIVE_TITLE`,
            `PODARCHIVE_SHOW` (the show's title), `PODARCHIVE_GUID`, `PODARCHIVE_URL` (the enclosure URL, its secrets
            redacted), `PODARCHIVE_DATE` (the publication date, RFC 3339; empty when the feed gave none) and
            `PODARCHIVE_FOLDER` (the show's folder). Quote them in the command: `--exec 'ffmpeg -i "$PODARCHIVE_FILE"
            ...'`. Hooks run after the show's downloads, in the order the episodes were archived, while the show is
            locked; with `--feed-jobs` above 1, hooks of different shows may run at the same time. The hook's standard
            input is `/dev/null`; its standard output and error are captured (their last 32 KiB) and shown on
            podarchive's standard error below the line naming the episode only when the hook fails, or with `-v`: a
            hook that did its work is silent in cron, and a `--json` report stays whole. A hook that exits non-zero or runs past `--exec-timeout` never costs the episode, which
            stays archived: it is reported naming the episode, and after three runs it is given up and said so once. A
            hook owed is recorded before the episode is fetched and settled once it ran: a run killed in between runs it
            on the next run (at least once across a crash), and without a crash a hook that succeeded is never run again
            for that episode. The command comes from the command line or the configuration file (`exec = ...`) only.
            """#,
        completion: .words(["notify-send \"$PODARCHIVE_TITLE\""]), config: true)
    static let execTimeout: Option<TimeInterval> = .value(
        "--exec-timeout", "SECONDS", .seconds(positive: true),
        help: #"""
            seconds a hook may run: one still running after this long (default {default} seconds) is stopped with every
            process it started, and counts as failed

            Its process group gets SIGTERM, then SIGKILL five seconds later if anything of it remains.
            """#, config: true, default: EpisodeHook.defaultTimeout,
        showDefault: { "\(Int($0))" })
}
