// The options that say where feeds come from and where the archive is, and what a few commands print.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum SourceOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        opmlFile.descriptor, opmlOutput.descriptor, includeSecrets.descriptor, move.descriptor, separate.descriptor,
        feedList.descriptor, archiveDirectory.descriptor,
    ]

    static let opmlFile: Option<String> = .value(
        "--opml", "FILE", .text,
        help: #"""
            also sync every feed of an OPML subscription list (OPML 1.0 or 2.0, as podcast apps export them)
            """#, completion: .file)
    static let opmlOutput: Option<Bool> = .flag(
        "--opml",
        help: #"""
            print the subscriptions as OPML 2.0, which any podcast app (and `sync --opml`) reads

            Each feed URL is redacted (see `--include-secrets`).
            """#,
        excludes: ["--json"])
    static let includeSecrets: Option<Bool> = .flag(
        "--include-secrets",
        help: #"""
            keep logins and tokens in the OPML: with `--opml`, write each feed URL whole, its login and token included,
            to move subscriptions to another app (without it, secret values are replaced by REDACTED); keep that file
            private

            A line on standard error says so.
            """#)
    static let move: Option<Bool> = .flag(
        "--move",
        help: #"""
            move secrets out of the archive: write every login, header and feed token an earlier podarchive kept inside
            the archive to the configuration folder, then delete them from the archive and redact its sidecars, history
            and download records
            """#)
    static let separate: Option<Bool> = .flag(
        "--separate",
        help: #"""
            keep the feed apart from a show it shares a title or episodes with (a members or ad-free variant): a
            subscription and folder of its own, never taken over by another URL of the show nor taking over one; saved
            with it. For a URL that took a subscription over, or the one it replaced, both are kept: the folder stays
            with the feed whose files it holds, the other gets its own

            Giving it again for a feed already followed marks that one. A URL that took a subscription over, or the URL
            it replaced, is named as the line that said so names it (a redacted token included); the folder's index,
            history and settings stay with the feed whose files it holds, and the other feed's next sync fetches its
            episodes into its own.
            """#)
    static let feedList: Option<String> = .value(
        "--feeds", "FILE", .text,
        help: #"""
            also sync every feed of <FILE>: one URL or path a line, `#` starts a comment; relative paths in it start at
            <FILE>'s folder

            Blank lines are ignored. One feed failing never stops the others; the exit status is the worst outcome (see
            `EXIT STATUS`).
            """#, completion: .file)
    static let archiveDirectory: Option<String> = .value(
        "--to", "DIR", .text,
        help: #"""
            archive root (default: `$PODARCHIVE_DIR`, else `to` in the configuration file, else `~/Podcasts`)

            The archive root also keeps the subscriptions.
            """#,
        helpFor: [
            "verify": "the archive root, when DIR is not given", "site": "the archive root, when DIR is not given",
            "export": "the archive root, when DIR is not given",
        ],
        completion: .directory, config: true, environment: "PODARCHIVE_DIR")
}
