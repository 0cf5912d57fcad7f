// Lists of feeds: OPML 1.0/2.0 subscription lists as podcast apps export them, and plain files with one feed a
// line and `#` comments.
import Foundation

/// Reads the feed URLs out of subscription lists.
enum SubscriptionList {
    /// Why a list could not be read.
    public enum Failure: Error, Equatable, Sendable, LocalizedError {
        /// The file cannot be read.
        case unreadable(path: String)
        /// The file was read as OPML but is not an OPML document.
        case notOPML(path: String)

        public var errorDescription: String? {
            switch self {
            case .unreadable(let path): return "feed list \(path) cannot be read"
            case .notOPML(let path): return "feed list \(path) is not an OPML document"
            }
        }
    }

    /// The `xmlUrl` of every `<outline>`, in document order, without duplicates. OPML from real apps nests
    /// outlines in folders and spells the attribute `xmlUrl` or `xmlurl`; both are read.
    public static func feeds(fromOPML data: Data, path: String) throws -> [String] {
        let bytes = [UInt8](data)
        var urls: [String] = []
        var sawOPML = false
        bytes.withUnsafeBufferPointer { buffer in
            var tokenizer = XMLTokenizer(buffer)
            while let token = tokenizer.next() {
                guard case .startTag(let name, let attributes, _) = token else { continue }
                if XMLText.equals(buffer, name, "opml") { sawOPML = true }
                guard XMLText.equals(buffer, name, "outline") else { continue }
                for attribute in XMLText.attributes(buffer, attributes)
                where XMLText.equals(buffer, attribute.name, "xmlUrl")
                    || XMLText.equals(buffer, attribute.name, "xmlurl")
                {
                    let url = XMLText.trimmedValue(buffer, attribute.value)
                    if !url.isEmpty { urls.append(url) }
                }
            }
        }
        guard sawOPML else { throw Failure.notOPML(path: path) }
        return unique(urls)
    }

    /// One feed a line; blank lines and lines starting with `#` are skipped, as is anything after ` #`.
    public static func feeds(fromLines data: Data) -> [String] {
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
        return unique(
            lines.compactMap { line in
                var text = XMLText.trimmedString(String(line))
                if text.hasPrefix("#") { return nil }
                if let comment = text.range(of: " #") {
                    text = XMLText.trimmedString(String(text[..<comment.lowerBound]))
                }
                return text.isEmpty ? nil : text
            })
    }

    private static func unique(_ urls: [String]) -> [String] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}
