// The option that chooses among the files a Podcasting 2.0 feed offers for an episode (`--prefer`): its own table,
// a seam of `OptionTable` (which is held to its size until it is split), joined to it in `Commands.options`.
import ArchiverCore
import Foundation

/// The options about which of an episode's files is archived.
enum AlternateOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [prefer.descriptor]

    static let prefer: Option<String> = .value(
        "--prefer", "PREF[,PREF...]", .preferences,
        help: #"""
            archive an alternate enclosure: of the files a Podcasting 2.0 feed offers for an episode
            (`podcast:alternateEnclosure`), one the first <PREF> matches, else one the next matches..., else the
            enclosure; its sources are tried in order; episodes already archived are not fetched again when it
            changes; a saved setting

            A <PREF> is a media type or codec (audio/opus, opus), bounds on the file's height, bitrate (bits a second)
            or length (bytes): `height<=480`, `height>=720`, `height=480` (also `<` and `>`; k, m, g for thousands,
            millions, billions: `bitrate<=64k`, `length<=200m`), `smallest` or `largest` (by length), or several of
            these joined by `;`, all of which must hold: `video/mp4;height<=480`, `audio/mpeg;smallest`. Of the files
            one <PREF> matches, `smallest`/`largest` takes the smallest or largest; else the first bound takes the one
            nearest it (`height<=480`: 480, else 360...; `height>=720`: 720, else 1080...); else the enclosure, then
            the feed's order. A file the feed gives no height, bitrate or length for (the enclosure has none but what
            its `default` alternate says) never matches a <PREF> that needs it, nor does a value no file has (0, or
            negative, or beyond 32768 lines or 16 TiB). When no <PREF> matches, the enclosure is archived and the sync
            says so; `-v` and `-n` say which file was chosen and why. Example: `--prefer 'video/mp4;height<=480,smallest'`
            (a video of at most 480 lines, the largest such; else the smallest file of any kind).

            Only http and https sources are fetched. The choice is recorded with the episode.
            """#,
        completion: .words(["audio/opus", "audio/mpeg", "video/mp4", "smallest", "largest"]),
        saved: .show(.prefer), config: true,
        describe: { $0.prefer.map(ShellWord.quoted) },
        setting: { $0.prefer = $1 })
}
