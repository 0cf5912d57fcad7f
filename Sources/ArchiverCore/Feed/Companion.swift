// What a feed publishes with an episode besides its audio: transcripts (`<podcast:transcript>`), chapters
// (`<podcast:chapters>`, or Podlove Simple Chapters inline), and the episode's own artwork. Each is kept beside
// the episode's file under a name made from the episode's.
import Foundation

/// Something published with an episode besides its audio.
public struct Companion: Equatable, Sendable {
    /// What it is.
    public enum Kind: String, Equatable, Sendable {
        case transcript, chapters, artwork
    }

    /// What it is.
    public var kind: Kind
    /// Where it is published (resolved); nil for chapters given inline, whose `content` is ready.
    public var url: String?
    /// The declared MIME type (`text/vtt`, `application/srt`, `application/json+chapters`, `image/png`...).
    public var type: String?
    /// The transcript's language (`en`, `de-AT`), as declared.
    public var language: String?
    /// `captions` for a transcript meant as captions, as declared.
    public var rel: String?
    /// The JSON chapters document made from Podlove Simple Chapters given inline in the item.
    public var content: Data?

    /// A companion as a feed declares it.
    public init(
        kind: Kind, url: String? = nil, type: String? = nil, language: String? = nil, rel: String? = nil,
        content: Data? = nil
    ) {
        self.kind = kind
        self.url = url
        self.type = type
        self.language = language
        self.rel = rel
        self.content = content
    }

    /// Its file name beside the episode's file `file`: `Pilot.mp3` keeps `Pilot.en.srt` (`Pilot.transcript.vtt`
    /// without a language, `Pilot.captions.en.vtt` for captions), `Pilot.chapters.json` and `Pilot.jpg`, in the
    /// episode's subfolder.
    public func fileName(beside file: String) -> String {
        let stem = (file as NSString).deletingPathExtension
        switch kind {
        case .transcript:
            let language = language.map { FileNamer.sanitize($0, maximumBytes: 20) }.flatMap { $0.isEmpty ? nil : $0 }
            // Captions (`rel="captions"`) beside a transcript of the same language and type: a name of their own.
            if rel?.lowercased() == "captions" {
                return "\(stem).captions\(language.map { "." + $0 } ?? "").\(fileExtension)"
            }
            return "\(stem).\(language ?? "transcript").\(fileExtension)"
        case .chapters: return "\(stem).chapters.json"
        case .artwork: return "\(stem).\(fileExtension)"
        }
    }

    /// The extension its file gets, from its declared type, else its URL; never one a static server serves as
    /// live content (an HTML transcript is `html.txt`, see `LiveContent`). Once downloaded, its bytes have the
    /// last word (`LiveContent.name(for:kind:sniffed:)`).
    public var fileExtension: String {
        let declared = (type ?? "").lowercased().split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        switch declared {
        case "application/srt", "application/x-subrip", "text/srt": return "srt"
        case "text/vtt": return "vtt"
        case "text/html": return "html.txt"
        case "image/svg+xml": return "svg.txt"
        case "text/plain": return "txt"
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/webp": return "webp"
        case "image/gif": return "gif"
        case let json? where json.hasPrefix("application/json"): return "json"
        default: break
        }
        let fromURL = url.flatMap { URL(string: $0)?.pathExtension.lowercased() } ?? ""
        let known: Set<String> =
            kind == .artwork ? Set(LiveContent.imageExtensions) : ["srt", "vtt", "json", "html", "txt"]
        if known.contains(fromURL) { return fromURL == "jpeg" ? "jpg" : LiveContent.defusedExtension(fromURL) }
        return kind == .artwork ? "jpg" : "txt"
    }

    /// A Podlove Simple Chapters list as the JSON chapters format (podcastindex.org's `application/json+chapters`).
    static func jsonChapters(_ chapters: [(start: String, title: String?, href: String?, image: String?)]) -> Data {
        var out = JSONWriter()
        out.raw("{\"version\": \"1.2.0\", \"chapters\": [")
        for (position, chapter) in chapters.enumerated() {
            out.raw(position == 0 ? "\n  {\"startTime\": " : ",\n  {\"startTime\": ")
            out.raw(startSeconds(chapter.start).map { String(format: "%g", $0) } ?? "0")
            if let title = chapter.title {
                out.raw(", \"title\": ")
                out.string(title)
            }
            if let href = chapter.href {
                out.raw(", \"url\": ")
                out.string(href)
            }
            if let image = chapter.image {
                out.raw(", \"img\": ")
                out.string(image)
            }
            out.raw("}")
        }
        out.raw(chapters.isEmpty ? "]}\n" : "\n]}\n")
        return Data(out.bytes)
    }

    /// Seconds of a PSC start time: `HH:MM:SS.mmm`, `MM:SS`, or seconds.
    static func startSeconds(_ text: String) -> Double? {
        var seconds = 0.0
        for part in text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }
}
