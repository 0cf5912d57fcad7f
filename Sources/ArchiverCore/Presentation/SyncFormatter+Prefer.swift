// What a sync says of the file `--prefer` chose for an episode: with `-v` and in `sync -n`, which and why; always,
// when no preference matched any of its files.
import Foundation

extension SyncFormatter {
    /// `chose the alternate (video/mp4, 480 lines) of "Ep" for --prefer 'video/mp4;height<=480'`, or `--prefer … matches
    /// none of the files of "Ep": the enclosure (audio/mpeg) is archived` (`SyncEvent.preferred`; see
    /// `PreferenceWords`).
    public static func preferredLine(_ episode: Episode, _ why: PreferredRendition) -> String {
        PreferenceWords(size: size).line(episode.title.map { "\"\(oneLine($0))\"" } ?? "(untitled)", why)
    }
}

/// The words of what a sync says of the file `--prefer` chose (`SyncFormatter.preferredLine`, `sync -n`).
struct PreferenceWords {
    /// `1.2 MB`: a size in bytes as the sync's lines say it.
    let size: (Int64) -> String

    /// `chose the video/mp4, 480 lines, 1.2 MB, of "Ep" for --prefer 'video/mp4;height<=480'`, or, when no
    /// preference matched, `--prefer 'video/mp4;height=2160' matches none of the files of "Ep": the enclosure
    /// (audio/mpeg) is archived` (`SyncEvent.preferred`), `title` quoted.
    func line(_ title: String, _ why: PreferredRendition) -> String {
        guard let preference = why.preference else {
            return "\(preferOption(why.preferences)) matches none of the files of \(title): "
                + "\(why.isEnclosure ? "the enclosure" : "its first file") (\(rendition(why))) is archived"
        }
        return "chose \(why.isEnclosure ? "the enclosure" : "the alternate") (\(rendition(why))) of \(title) for "
            + preferOption(preference)
    }

    /// What `sync -n` adds to the line of an episode whose file `--prefer` chose: `(the alternate (video/mp4, 480
    /// lines): --prefer 'video/mp4;height<=480')`, or `(the enclosure (audio/mpeg): --prefer '…' matches none of
    /// its files)`.
    func note(_ why: PreferredRendition) -> String {
        let file = "\(why.isEnclosure ? "the enclosure" : "the alternate") (\(rendition(why)))"
        guard let preference = why.preference else {
            return " (\(file): \(preferOption(why.preferences)) matches none of its files)"
        }
        return " (\(file): \(preferOption(preference)))"
    }

    /// `video/mp4, 480 lines, 800 kbit/s, 1.2 MB`: what the feed says of the file.
    private func rendition(_ why: PreferredRendition) -> String {
        var parts = [why.type ?? "type not given"]
        if let height = why.height { parts.append("\(height) lines") }
        if let bitrate = why.bitrate { parts.append("\(max(1, (bitrate + 500) / 1000)) kbit/s") }
        if let length = why.length { parts.append(size(length)) }
        return parts.joined(separator: ", ")
    }

    /// `--prefer opus`, or `--prefer 'video/mp4;height<=480'` when the shell would read the value.
    private func preferOption(_ value: String) -> String {
        value.contains(where: { ";<>".contains($0) }) ? "--prefer '\(value)'" : "--prefer \(value)"
    }
}
