// The names podarchive gives in a show's folder besides the episodes' own: sidecars, a show's title, and a damaged
// file set aside by a repair. (Stems for episodes and shows without a usable title, made from what the feed says:
// ArchiveNames+Feed.swift; the artwork's and the site's: `ArchiveLayout`.)
import Foundation

/// Names of files and folders podarchive writes, worked out in one place.
enum ArchiveNames {
    /// The freedesktop.org extended attribute that records a file's source URL (as `curl --xattr` does).
    public static let originAttribute = "user.xdg.origin.url"
    /// The extended attribute that keeps the `Content-Type` a file's server sent, where the index cannot (the
    /// show's cover): freedesktop's name for a file's media type.
    public static let mediaTypeAttribute = "user.mime_type"

    /// The sidecar of an archived file: `Season 1/Pilot.mp3` has `Season 1/Pilot.info.json`.
    public static func sidecarName(for file: String) -> String {
        // By bytes: String index arithmetic cost 40,000 instructions a name, and an archive has thousands.
        let utf8 = Array(file.utf8)
        var nameStart = 0
        var dot: Int?
        for (position, byte) in utf8.enumerated() {
            if byte == UInt8(ascii: "/") {
                nameStart = position + 1
                dot = nil
            } else if byte == UInt8(ascii: "."), position > nameStart {
                dot = position
            }
        }
        return String(decoding: utf8[..<(dot ?? utf8.count)], as: UTF8.self) + ArchiveLayout.sidecarSuffix
    }

    /// Whether `name`, in a show's state folder, holds download records: the show's log of them, or the record file
    /// of one download an earlier version kept (`PartialFiles`).
    public static func isDownloadRecord(_ name: String) -> Bool { ArchiveLayout.isDownloadRecord(name) }

    /// Where a repair keeps a damaged file, in the state folder, for the instant of the rename that replaces it.
    static func aside(for file: String) -> String { ArchiveLayout.setAside(StableName.of(file)) }

    /// The title a show is shown and named by: the feed's, when anything of it survives sanitising, else the name
    /// of its folder.
    static func showTitle(_ title: String?, folder: URL) -> String {
        title.flatMap { FileNamer.sanitize($0).isEmpty ? nil : $0 } ?? folder.lastPathComponent
    }
}
