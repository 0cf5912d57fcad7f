// Which of an episode's files `--prefer` chose, and why: said with `-v` and by `sync -n`, and always when no
// preference matched any file (the enclosure is archived). Made by `PreferredFile`, worded by `SyncFormatter`.
import Foundation

/// Which of an episode's files `--prefer` chose, and the preference that chose it.
public struct PreferredRendition: Sendable, Equatable {
    /// The preference that chose the file, as written (`video/mp4;height<=480`); nil when none matched any file.
    public var preference: String?
    /// Every preference given, as written, comma-separated.
    public var preferences: String
    /// Whether the file chosen is the enclosure (else one of the alternates).
    public var isEnclosure: Bool
    /// The file's media type, when known.
    public var type: String?
    /// Its height in lines, when the feed gives a real one.
    public var height: Int64?
    /// Its bitrate in bits a second, when the feed gives a real one.
    public var bitrate: Int64?
    /// Its length in bytes, when the feed gives a real one.
    public var length: Int64?

    /// The choice of `rendition` (the enclosure when `isEnclosure`) by `preference` among `preferences`.
    init(_ rendition: Rendition, isEnclosure: Bool, preference: String?, preferences: [String]) {
        self.preference = preference
        self.preferences = preferences.joined(separator: ",")
        self.isEnclosure = isEnclosure
        type = rendition.type.map(MediaTypes.bare)
        height = rendition[.height]
        bitrate = rendition[.bitrate]
        length = rendition[.length]
    }
}
