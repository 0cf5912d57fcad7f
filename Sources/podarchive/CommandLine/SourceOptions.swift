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
        "--opml", "FILE", .text, summary: "OPML subscription list",
        help: "also sync every feed of an OPML subscription list (as podcast apps export)", completion: .file,
        manual: #"""
            With
            .BR sync :
            also sync every feed of an OPML 1.0/2.0 subscription list, as podcast apps export them.
            """#)
    static let opmlOutput: Option<Bool> = .flag(
        "--opml", summary: "print OPML",
        help: "print the subscriptions as OPML 2.0, which any podcast app (and sync --opml) reads",
        excludes: ["--json"],
        manual: #"""
            With
            .BR feeds :
            print the subscriptions as OPML 2.0, which podcast apps and
            .B sync \-\-opml
            read back, each feed URL redacted (see
            .BR \-\-include\-secrets ).
            """#)
    static let includeSecrets: Option<Bool> = .flag(
        "--include-secrets", summary: "keep tokens in the OPML",
        help: "with --opml: write each feed URL whole, its login and token included, to move subscriptions to "
            + "another app (without it, secret values are replaced by REDACTED); keep that file private",
        manual: #"""
            With
            .BR "feeds \-\-opml" :
            write each feed URL whole, its login and token included; a line on standard error says so.
            """#)
    static let move: Option<Bool> = .flag(
        "--move", summary: "move secrets out of the archive",
        help: "write every login, header and feed token an earlier podarchive kept inside the archive to the "
            + "configuration folder, then delete them from the archive and redact its sidecars, history and "
            + "download records",
        manual: #"""
            With
            .BR credentials :
            move the secrets an earlier podarchive kept inside the archive to the configuration folder.
            """#)
    static let separate: Option<Bool> = .flag(
        "--separate", summary: "keep a variant feed apart",
        help: "keep the feed apart from a show it shares a title or episodes with (a members or ad-free "
            + "variant): a subscription and folder of its own, never taken over by another URL of the show nor "
            + "taking over one; saved with it. For a URL that took a subscription over, or the one it replaced, "
            + "both are kept: the folder stays with the feed whose files it holds, the other gets its own",
        manual: #"""
            With
            .BR add :
            keep the feed apart from a show it shares a title or episodes with, such as a members or ad\-free
            variant of a feed already followed: it gets a subscription and a folder of its own, and no later
            .B add
            or
            .B sync
            of another URL of the show takes it over (nor does it take over another).
            Saved with its subscription; giving it again for a feed already followed marks that one.
            Given for a URL that took a subscription over, or for the URL it replaced (as the line that said so
            names it, a redacted token included), it keeps both: the folder, its index, history and settings
            stay with the feed whose files it holds, and the other feed gets a subscription and folder of its
            own, kept apart, where its next sync fetches its episodes.
            """#)
    static let feedList: Option<String> = .value(
        "--feeds", "FILE", .text, summary: "file of feeds, one a line",
        help: "also sync every feed of FILE: one URL or path a line, # starts a comment; relative paths in it "
            + "start at FILE's folder", completion: .file,
        manual: #"""
            With
            .BR sync :
            also sync every feed named in
            .IR file ,
            one URL or path a line; blank lines and text after
            .B #
            are ignored.
            One feed failing never stops the others; the exit status is the worst outcome (see
            .BR "EXIT STATUS" ).
            """#)
    static let archiveDirectory: Option<String> = .value(
        "--to", "DIR", .text,
        summary: "archive root",
        help: "archive root (default: $PODARCHIVE_DIR, else to in the configuration file, else ~/Podcasts)",
        helpFor: [
            "verify": "the archive root, when DIR is not given", "site": "the archive root, when DIR is not given",
            "export": "the archive root, when DIR is not given",
        ],
        completion: .directory, config: true, environment: "PODARCHIVE_DIR",
        manual: #"""
            The archive root, which also keeps the subscriptions (default:
            .BR $PODARCHIVE_DIR ,
            else
            .B to
            in the configuration file, else
            .IR ~/Podcasts ).
            """#)
}
