// Nothing from a feed becomes live content where the archive is served. A static server picks a file's type from
// its extension, and a browser runs what is served as HTML, SVG or XML (XHTML's scripts included) with the
// rights of the archive's origin: one such file could read everything else the server serves. So no file a feed
// supplies is kept under a live extension: a transcript declared `text/html` is `Pilot.en.html.txt`, served as
// text, its bytes untouched. Artwork is named after what its bytes are (a JPEG is `.jpg` whatever the feed or
// server said); an image that is not a raster one (SVG, which runs scripts) is kept as text, or, for the show's
// cover, refused.
import Foundation

/// Which file names a static server would serve as live content, and what a file's first bytes say it is.
enum LiveContent {
    /// The extensions a static server serves as something a browser renders and may run scripts in.
    static let extensions: Set<String> = [
        "html", "htm", "xhtml", "xht", "shtml", "mhtml", "svg", "svgz", "xml", "xsl", "xslt", "js", "mjs",
    ]

    /// Whether a file called `name` would be served as live content (its last extension, without case). Reads
    /// at most the last few bytes: a sync asks this of every name its index holds.
    static func isLive(_ name: String) -> Bool {
        var reversed: [UInt8] = []
        for byte in name.utf8.reversed() {
            if byte == UInt8(ascii: ".") {
                return extensions.contains(String(decoding: reversed.reversed(), as: UTF8.self))
            }
            guard reversed.count < longestExtension, byte != UInt8(ascii: "/") else { return false }
            reversed.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte)
        }
        return false
    }

    private static let longestExtension = extensions.map(\.utf8.count).max()!

    /// `name`, or `name.txt` when it would be served as live content.
    static func defused(_ name: String) -> String {
        isLive(name) ? name + ".txt" : name
    }

    /// The extensions of raster images, kept as they are, in the order the site looks for a cover: what `sniff`
    /// names an image, and `jpeg`, which earlier versions kept.
    static let imageExtensions = ["jpg", "png", "webp", "gif", "jpeg"]

    /// The extension `ext` (without its dot), or `ext.txt` when it is live.
    static func defusedExtension(_ ext: String) -> String {
        extensions.contains(ext.lowercased()) ? ext + ".txt" : ext
    }

    /// What a file's first bytes say it is.
    enum Sniffed: Equatable {
        /// A raster image, with the extension it is kept under.
        case image(String)
        /// HTML, SVG or other XML markup, with the extension that names it (kept with `.txt` after it).
        case markup(String)
        /// Anything else (text, JSON, audio...): the declared type stands.
        case other
    }

    /// What `data` (a file's first bytes are enough) is.
    static func sniff(_ data: Data) -> Sniffed {
        let bytes = [UInt8](data.prefix(1024))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .image("jpg") }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .image("png") }
        if bytes.starts(with: Array("GIF8".utf8)) { return .image("gif") }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .image("webp")
        }
        var text = String(decoding: bytes, as: UTF8.self).lowercased()
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = String(text.drop(while: \.isWhitespace))
        guard text.hasPrefix("<") else { return .other }
        if text.contains("<svg") { return .markup("svg") }
        for marker in ["<!doctype html", "<html", "<head", "<body", "<script", "<iframe", "<meta", "<div", "<p>"]
        where text.contains(marker) {
            return .markup("html")
        }
        return .markup("xml")
    }

    /// The name a downloaded companion is kept under, from what its bytes are: artwork after its image type
    /// (`Pilot.png`), anything else markup as text (`Pilot.en.html.txt`); `declared` (its name from the feed's
    /// type) otherwise, defused.
    static func name(for declared: String, artwork: Bool, sniffed: Sniffed) -> String {
        let stem = stem(of: declared)
        switch sniffed {
        case .image(let ext) where artwork: return "\(stem).\(ext)"
        case .markup(let ext): return "\(stem).\(ext).txt"
        default: return defused(declared)
        }
    }

    /// `declared` without the extension its type gave it (`Pilot.en.html.txt` and `Pilot.en.vtt` are
    /// `Pilot.en`; an artwork `Pilot.jpg` is `Pilot`).
    private static func stem(of declared: String) -> String {
        var stem = declared
        if stem.lowercased().hasSuffix(".txt"), isLive(String(stem.dropLast(4))) {
            stem = String(stem.dropLast(4))
        }
        return (stem as NSString).deletingPathExtension
    }
}
