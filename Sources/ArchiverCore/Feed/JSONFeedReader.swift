// Reads JSON Feed 1.0/1.1 (`items[].attachments[]`) and the plain JSON array of episodes
// (`[{"url", "title", "published"}]`, dates in RFC 822).
import Foundation

enum JSONFeedReader {
    static func read(_ data: Data, documentURL: URL?) -> Result<Feed, NotAFeed> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return .failure(NotAFeed(reason: "it is not valid JSON"))
        }
        if let array = object as? [Any] {
            return readArray(array, documentURL: documentURL)
        }
        if let dictionary = object as? [String: Any] {
            return readJSONFeed(dictionary, documentURL: documentURL)
        }
        return .failure(NotAFeed(reason: "its JSON is neither a JSON Feed object nor an array of episodes"))
    }

    struct NotAFeed: Error {
        var reason: String
    }

    // MARK: - Plain array

    private static func readArray(_ array: [Any], documentURL: URL?) -> Result<Feed, NotAFeed> {
        var episodes: [Episode] = []
        episodes.reserveCapacity(array.count)
        for element in array {
            guard let entry = element as? [String: Any], let raw = urlString(entry["url"]) else { continue }
            let published = string(entry["published"]).flatMap(FeedDate.parseRFC822)
            episodes.append(
                Episode(
                    title: string(entry["title"]),
                    guid: string(entry["guid"]) ?? string(entry["id"]),
                    url: FeedURL.resolve(raw, against: documentURL),
                    mimeType: string(entry["type"]),
                    length: integer(entry["length"]),
                    published: published))
        }
        if episodes.isEmpty && !array.isEmpty {
            return .failure(NotAFeed(reason: "its JSON array has no entries with a \"url\""))
        }
        return .success(Feed(title: nil, episodes: episodes, format: .jsonArray))
    }

    // MARK: - JSON Feed

    private static func readJSONFeed(_ object: [String: Any], documentURL: URL?) -> Result<Feed, NotAFeed> {
        let version = string(object["version"]) ?? ""
        guard version.contains("jsonfeed.org/version/") || object["items"] is [Any] else {
            return .failure(NotAFeed(reason: "its JSON object is not a JSON Feed (no \"version\" or \"items\")"))
        }
        let items = object["items"] as? [Any] ?? []
        var episodes: [Episode] = []
        episodes.reserveCapacity(items.count)
        for case let item as [String: Any] in items {
            let attachments = item["attachments"] as? [Any] ?? []
            guard
                let attachment = attachments.lazy.compactMap({ $0 as? [String: Any] })
                    .first(where: { urlString($0["url"]) != nil }),
                let raw = urlString(attachment["url"])
            else { continue }
            let published = (string(item["date_published"]) ?? string(item["date_modified"])).flatMap(
                FeedDate.parseRFC3339)
            episodes.append(
                Episode(
                    title: string(item["title"]),
                    guid: string(item["id"]),
                    url: FeedURL.resolve(raw, against: documentURL),
                    mimeType: string(attachment["mime_type"]),
                    length: integer(attachment["size_in_bytes"]),
                    published: published))
        }
        return .success(Feed(title: string(object["title"]), episodes: episodes, format: .jsonFeed))
    }

    // MARK: - Lenient values

    /// A trimmed, non-empty string; numbers are accepted as their decimal text (some feeds write numeric ids).
    private static func string(_ value: Any?) -> String? {
        let text: String
        switch value {
        case let string as String: text = string
        case let number as NSNumber where !isBoolean(number): text = number.stringValue
        default: return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A URL only ever comes from a non-empty JSON string (a number is no URL, not even a relative one).
    private static func urlString(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// JSON `true`/`false` arrive as NSNumber too (and on Linux `is Bool` matches every NSNumber).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && (number == NSNumber(value: true) || number == NSNumber(value: false))
    }

    private static func integer(_ value: Any?) -> Int64? {
        let parsed: Int64?
        switch value {
        case let number as NSNumber: parsed = Int64(exactly: number.doubleValue.rounded(.down))
        case let text as String: parsed = Int64(text.trimmingCharacters(in: .whitespaces))
        default: parsed = nil
        }
        guard let parsed, parsed > 0 else { return nil }
        return parsed
    }
}
