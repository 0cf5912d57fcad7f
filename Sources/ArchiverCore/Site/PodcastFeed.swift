// `<show>/feed.xml`: the archive as a podcast any app can subscribe to (RSS 2.0 with iTunes tags), one item per
// archived episode with its original GUID, title, date, show notes and duration, and an enclosure pointing at
// the archived file; `<root>/feeds.opml` lists them. Enclosures are absolute under `--base-url`, else relative
// to the feed (which apps that read a local file or a same-folder URL resolve).
import Foundation

enum PodcastFeed {
    /// The feed of `show`; `base` is the archive root's public URL, ending in `/`, when known.
    static func xml(_ show: SiteShow, base: String?) -> String {
        let folder = SitePath.href(show.folder.lastPathComponent) + "/"
        func link(_ file: String) -> String { (base.map { $0 + folder } ?? "") + SitePath.href(file) }
        var items = ""
        // An episode away on purpose has no file to serve: a player is given only what it can play.
        for episode in show.episodes where episode.entry.isHere {
            let guid = episode.entry.guid ?? episode.entry.key
            items += "<item><title>\(HTMLText.escape(episode.title))</title>"
            items += "<guid isPermaLink=\"false\">\(HTMLText.escape(guid))</guid>"
            if let published = episode.published { items += "<pubDate>\(rfc822(published))</pubDate>" }
            if !episode.notes.isEmpty { items += "<description>\(HTMLText.escape(episode.notes))</description>" }
            if let duration = episode.duration, duration > 0 {
                items += "<itunes:duration>\(Int(duration.rounded()))</itunes:duration>"
            }
            let type = episode.type ?? mimeType(of: episode.entry.file)
            items += "<enclosure url=\"\(HTMLText.escape(link(episode.entry.file)))\" "
            items += "length=\"\(episode.entry.size)\" type=\"\(HTMLText.escape(type))\"/>"
            // The transcripts and chapters kept with it, served from the archive as the episode is.
            for companion in episode.entry.companions ?? [] where companion.kind != "artwork" {
                let url = HTMLText.escape(link(companion.file))
                if companion.kind == "chapters" {
                    items += "<podcast:chapters url=\"\(url)\" type=\"application/json+chapters\"/>"
                    continue
                }
                let language = companion.language.map { " language=\"\(HTMLText.escape($0))\"" } ?? ""
                items +=
                    "<podcast:transcript url=\"\(url)\" type=\"\(HTMLText.escape(transcriptType(companion)))\"\(language)/>"
            }
            items += "</item>\n"
        }
        let image = show.cover.map { "<itunes:image href=\"\(HTMLText.escape(link($0)))\"/>\n" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel>
            <title>\(HTMLText.escape(show.title))</title>
            <link>\(HTMLText.escape(link(ArchiveLayout.sitePage)))</link>
            <description>\(HTMLText.escape("\(show.title): \(SiteFormat.count(show.episodes.count)) archived by podarchive"))</description>
            <generator>podarchive \(PodarchiveVersion.current)</generator>
            \(image)\(items)</channel>
            </rss>

            """
    }

    /// The type a kept transcript is served as: what the feed declared, but text for one kept as `.txt` (an HTML
    /// transcript is kept, and served, as text: see `LiveContent`).
    static func transcriptType(_ companion: CompanionFile) -> String {
        if companion.file.lowercased().hasSuffix(".txt") { return "text/plain" }
        if let type = companion.type { return type }
        switch (companion.file as NSString).pathExtension.lowercased() {
        case "srt": return "application/srt"
        case "vtt": return "text/vtt"
        case "json": return "application/json"
        default: return "text/plain"
        }
    }

    /// OPML 2.0 listing every show's `feed.xml`.
    static func opml(_ shows: [SiteShow], base: String?) -> String {
        var outlines = ""
        for show in shows {
            let url = (base ?? "") + SitePath.href(show.folder.lastPathComponent + "/" + ArchiveLayout.siteFeed)
            outlines += "<outline type=\"rss\" text=\"\(HTMLText.escape(show.title))\" "
            outlines += "title=\"\(HTMLText.escape(show.title))\" xmlUrl=\"\(HTMLText.escape(url))\"/>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
            <head><title>Podcast archive</title></head>
            <body>
            \(outlines)</body>
            </opml>

            """
    }

    /// `Mon, 06 Jan 2025 08:00:00 GMT`, from the UTC date `FeedDate.iso8601` writes (no formatter per item).
    static func rfc822(_ date: Date) -> String {
        let iso = Array(FeedDate.iso8601(date).utf8)  // YYYY-MM-DDTHH:MM:SSZ
        func text(_ range: Range<Int>) -> String { String(decoding: iso[range], as: UTF8.self) }
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[(Int(text(5..<7)) ?? 1) - 1]
        return "\(weekday), \(text(8..<10)) \(month) \(text(0..<4)) \(text(11..<19)) GMT"
    }

    /// The type an archived file's extension says.
    static func mimeType(of file: String) -> String {
        let types = [
            "mp3": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/x-m4b", "aac": "audio/aac", "ogg": "audio/ogg",
            "opus": "audio/opus", "flac": "audio/flac", "wav": "audio/wav", "weba": "audio/webm", "mp4": "video/mp4",
            "m4v": "video/x-m4v", "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
            "pdf": "application/pdf",
        ]
        return types[(file as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
