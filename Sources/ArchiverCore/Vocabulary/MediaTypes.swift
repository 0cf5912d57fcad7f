// MIME types podcasts use, the extensions they get, and the extensions of scripts that say nothing about a file.
import Foundation

/// MIME types podcasts use, and the extensions they get.
enum MediaTypes {
    static let scriptExtensions: Set<String> = ["php", "asp", "aspx", "cgi", "jsp", "pl", "py", "do", "html", "htm"]

    /// True for a declared type that is text (a transcript, a chapters document, a page): worth asking for
    /// compressed, unlike media, which is compressed already.
    static func isText(_ mimeType: String?) -> Bool {
        guard let mimeType else { return false }
        let type = bare(mimeType)
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasSuffix("+json")
            || type.hasSuffix("/xml") || type.hasSuffix("+xml") || type == "application/srt"
            || type == "application/x-subrip"
    }

    /// `type` without its parameters, in lower case.
    static func bare(_ type: String) -> String {
        type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// Whether two types name the same media: equal without parameters, or two names of one kind of file
    /// (`audio/mpeg` and `audio/mp3`).
    static func same(_ one: String, _ other: String) -> Bool {
        if bare(one) == bare(other) { return true }
        guard let ext = fileExtension(forMIMEType: one) else { return false }
        return ext == fileExtension(forMIMEType: other)
    }

    static func fileExtension(forMIMEType mimeType: String) -> String? {
        let type = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch type ?? "" {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/x-mp3": return "mp3"
        case "audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac-mp4": return "m4a"
        case "audio/x-m4b": return "m4b"
        case "audio/aac", "audio/x-aac": return "aac"
        case "audio/ogg", "application/ogg", "audio/vorbis": return "ogg"
        case "audio/opus": return "opus"
        case "audio/flac", "audio/x-flac": return "flac"
        case "audio/wav", "audio/x-wav", "audio/wave": return "wav"
        case "audio/webm": return "weba"
        case "video/mp4", "video/x-m4v": return "mp4"
        case "video/quicktime": return "mov"
        case "video/webm": return "webm"
        case "video/x-matroska": return "mkv"
        case "application/pdf": return "pdf"
        case "image/jpeg": return "jpg"
        case "image/png": return "png"
        case "image/webp": return "webp"
        case "image/gif": return "gif"
        default: return nil
        }
    }
}
