// The option that chooses among the files a Podcasting 2.0 feed offers for an episode (`--prefer`): its own table,
// a seam of `OptionTable` (which is held to its size until it is split), joined to it in `Commands.options`.
import ArchiverCore
import Foundation

/// The options about which of an episode's files is archived.
enum AlternateOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [prefer.descriptor]

    static let prefer: Option<String> = .value(
        "--prefer", "TYPE[,TYPE...]", .preferences,
        help: #"""
            archive an alternate enclosure: of the files a Podcasting 2.0 feed offers for an episode
            (`podcast:alternateEnclosure`), the one whose media type or codecs match the first <TYPE> available
            (audio/opus, opus), else the enclosure; its sources are tried in order; episodes already archived are not
            fetched again when it changes; a saved setting

            Only http and https sources are fetched. The choice is recorded with the episode.
            """#,
        completion: .words(["audio/opus", "audio/mpeg", "video/mp4"]), saved: .show(.prefer), config: true,
        describe: { $0.prefer.map(ShellWord.quoted) },
        setting: { $0.prefer = $1 })
}
