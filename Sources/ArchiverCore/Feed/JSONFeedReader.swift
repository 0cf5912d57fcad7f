// Reads JSON Feed 1.0/1.1 (`items[].attachments[]`) and the plain JSON array of episodes
// (`[{"url", "title", "published"}]`, dates in RFC 822).
//
// JSONDecoder into lenient types, not JSONSerialization: it reads a 20 MB feed faster and without building a tree
// of Foundation objects (200 MB of them for 20,000 items). Every field is optional and forgiving: a value of the
// wrong type is absent, never a reason to reject the whole feed.
import Foundation

enum JSONFeedReader {
    struct NotAFeed: Error {
        var reason: String
    }

    /// The decoder's `userInfo` key that asks items for their show notes.
    fileprivate static let descriptionsKey = CodingUserInfoKey(rawValue: "podarchive.descriptions")!

    /// - Parameter limits: what the document may hold, checked in one pass before it is decoded, so that no
    ///   nesting or count of values reaches the decoder's stack or memory.
    static func read(_ data: Data, documentURL: URL?, descriptions: Bool = false, limits: JSONLimits = .feed)
        -> Result<Feed, NotAFeed>
    {
        if let refusal = BoundedJSON.refusal(of: data, limits: limits) { return .failure(NotAFeed(reason: refusal)) }
        let decoder = JSONDecoder()
        decoder.userInfo[descriptionsKey] = descriptions
        if let array = try? decoder.decode([Lenient<ArrayEntry>].self, from: data) {
            return readArray(array.map(\.value), documentURL: documentURL)
        }
        if let object = try? decoder.decode(JSONFeedObject.self, from: data) {
            return readJSONFeed(object, documentURL: documentURL)
        }
        return .failure(NotAFeed(reason: "its JSON is neither a JSON Feed object nor an array of episodes"))
    }

    // MARK: - Plain array

    private struct ArrayEntry: Decodable {
        var url: String?
        var title: String?
        var published: String?
        var guid: String?
        var id: String?
        var type: String?
        var length: Int64?
        /// RSS's word for the file, which this format does not use: such an item is skipped and named.
        var hasEnclosure = false

        private enum Keys: String, CodingKey {
            case url, title, published, guid, id, type, length, enclosure
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            hasEnclosure = container.contains(.enclosure)
            url = container.urlString(.url)
            title = container.text(.title)
            published = container.text(.published)
            guid = container.text(.guid)
            id = container.text(.id)
            type = container.text(.type)
            length = container.positiveInteger(.length)
        }
    }

    /// Why an item with an `enclosure` and no `url` is skipped.
    static let enclosureReason =
        "it has \"enclosure\", which a JSON array of episodes does not read (the file goes in \"url\")"

    private static func readArray(_ items: [ArrayEntry?], documentURL: URL?) -> Result<Feed, NotAFeed> {
        let resolver = FeedURLResolver(base: documentURL)
        var episodes: [Episode] = []
        episodes.reserveCapacity(items.count)
        var skipped: [SkippedItem] = []
        var withoutMedia = 0
        var titles: [String] = []
        for item in items {
            guard let entry = item else {
                skipped.append(SkippedItem(title: nil, reason: "it is not an object"))
                continue
            }
            guard let raw = entry.url else {
                if entry.hasEnclosure {
                    skipped.append(SkippedItem(title: entry.title, reason: enclosureReason))
                } else {
                    withoutMedia += 1
                    titles.append(entry.title ?? "")
                }
                continue
            }
            episodes.append(
                Episode(
                    title: entry.title, guid: entry.guid ?? entry.id, url: resolver.resolve(raw),
                    mimeType: entry.type, length: entry.length,
                    published: entry.published.flatMap(FeedDate.parseRFC822)))
        }
        if episodes.isEmpty {
            guard !items.isEmpty else { return .failure(NotAFeed(reason: "its JSON array is empty")) }
            let enclosures = skipped.count { $0.reason == enclosureReason }
            return .failure(
                NotAFeed(
                    reason: "its JSON array has no entries with a \"url\""
                        + (enclosures == 0
                            ? ""
                            : " (\(enclosures) \(enclosures == 1 ? "has" : "have") \"enclosure\", which this format "
                                + "does not read)")))
        }
        var feed = Feed(title: nil, episodes: episodes, format: .jsonArray)
        feed.itemsWithoutMedia = withoutMedia
        feed.titlesWithoutMedia = titles
        feed.skippedItems = skipped
        return .success(feed)
    }

    // MARK: - JSON Feed

    private struct JSONFeedObject: Decodable {
        var version: String?
        var title: String?
        var icon: String?
        var nextURL: String?
        var feedURL: String?
        var homePageURL: String?
        var description: String?
        /// The first author's name (`authors`, JSON Feed 1.1).
        var author: String?
        var items: [Lenient<Item>]?

        private enum Keys: String, CodingKey {
            case version, title, items, icon, description, authors
            case nextURL = "next_url"
            case feedURL = "feed_url"
            case homePageURL = "home_page_url"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            version = container.text(.version)
            title = container.text(.title)
            icon = container.urlString(.icon)
            nextURL = container.urlString(.nextURL)
            feedURL = container.urlString(.feedURL)
            homePageURL = container.urlString(.homePageURL)
            author =
                (try? container.decodeIfPresent([Lenient<Author>].self, forKey: .authors))??
                .lazy.compactMap { $0.value?.name }.first
            // Read with the show notes only, as the episodes' descriptions are.
            description =
                decoder.userInfo[JSONFeedReader.descriptionsKey] as? Bool == true ? container.text(.description) : nil
            items = try? container.decodeIfPresent([Lenient<Item>].self, forKey: .items)
        }
    }

    private struct Author: Decodable {
        var name: String?

        private enum Keys: String, CodingKey { case name }

        init(from decoder: Decoder) throws {
            name = try decoder.container(keyedBy: Keys.self).text(.name)
        }
    }

    private struct Item: Decodable {
        var id: String?
        var title: String?
        var datePublished: String?
        var dateModified: String?
        var attachments: [Lenient<Attachment>]?
        var summary: String?
        var contentText: String?
        var contentHTML: String?
        var url: String?
        var image: String?

        private enum Keys: String, CodingKey {
            case id, title, attachments, summary, url, image
            case datePublished = "date_published"
            case dateModified = "date_modified"
            case contentText = "content_text"
            case contentHTML = "content_html"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = container.text(.id)
            title = container.text(.title)
            datePublished = container.text(.datePublished)
            dateModified = container.text(.dateModified)
            attachments = try? container.decodeIfPresent([Lenient<Attachment>].self, forKey: .attachments)
            if decoder.userInfo[JSONFeedReader.descriptionsKey] as? Bool == true {
                summary = container.text(.summary)
                contentText = container.text(.contentText)
                contentHTML = container.text(.contentHTML)
            }
            url = container.urlString(.url)
            image = container.urlString(.image)
        }
    }

    private struct Attachment: Decodable {
        var url: String?
        var mimeType: String?
        var size: Int64?
        var duration: TimeInterval?

        private enum Keys: String, CodingKey {
            case url
            case mimeType = "mime_type"
            case size = "size_in_bytes"
            case duration = "duration_in_seconds"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            url = container.urlString(.url)
            mimeType = container.text(.mimeType)
            size = container.positiveInteger(.size)
            duration = (try? container.decodeIfPresent(Double.self, forKey: .duration)).flatMap {
                $0.isFinite && $0 >= 0 ? $0 : nil
            }
        }
    }

    private static func readJSONFeed(_ object: JSONFeedObject, documentURL: URL?) -> Result<Feed, NotAFeed> {
        let resolver = FeedURLResolver(base: documentURL)
        guard object.version?.contains("jsonfeed.org/version/") == true || object.items != nil else {
            return .failure(NotAFeed(reason: "its JSON object is not a JSON Feed (no \"version\" or \"items\")"))
        }
        var episodes: [Episode] = []
        episodes.reserveCapacity(object.items?.count ?? 0)
        var withoutMedia = 0
        var titles: [String] = []
        for item in (object.items ?? []).compactMap(\.value) {
            guard let attachment = item.attachments?.lazy.compactMap(\.value).first(where: { $0.url != nil }),
                let raw = attachment.url
            else {
                withoutMedia += 1
                titles.append(item.title ?? "")
                continue
            }
            episodes.append(
                Episode(
                    title: item.title, guid: item.id, url: resolver.resolve(raw),
                    mimeType: attachment.mimeType, length: attachment.size,
                    published: (item.datePublished ?? item.dateModified).flatMap(FeedDate.parseRFC3339),
                    description: item.summary ?? item.contentText ?? item.contentHTML,
                    link: item.url.map(resolver.resolve), duration: attachment.duration,
                    imageURL: item.image.map(resolver.resolve)))
        }
        let icon = object.icon.map(resolver.resolve)
        var feed = Feed(title: object.title, episodes: episodes, format: .jsonFeed, imageURL: icon)
        feed.itemsWithoutMedia = withoutMedia
        feed.titlesWithoutMedia = titles
        feed.links.next = object.nextURL.map(resolver.resolve)
        feed.links.selfURL = object.feedURL.map(resolver.resolve)
        feed.links.website = object.homePageURL.map(resolver.resolve)
        feed.description = object.description
        feed.author = object.author
        return .success(feed)
    }
}

/// A value that is nil, instead of an error, when it cannot be decoded.
private struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A trimmed, non-empty string; a number is accepted as its decimal text (some feeds write numeric ids).
    fileprivate func text(_ key: Key) -> String? {
        let raw: String
        if let string = try? decodeIfPresent(String.self, forKey: key) {
            raw = string
        } else if let integer = try? decodeIfPresent(Int64.self, forKey: key) {
            raw = String(integer)
        } else if let number = try? decodeIfPresent(Double.self, forKey: key), number.isFinite {
            raw = String(number)
        } else {
            return nil
        }
        let trimmed = XMLText.trimmedString(raw)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A URL only ever comes from a non-empty JSON string (a number is no URL, not even a relative one).
    fileprivate func urlString(_ key: Key) -> String? {
        guard let string = try? decodeIfPresent(String.self, forKey: key) else { return nil }
        let trimmed = XMLText.trimmedString(string)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A positive whole number, from a JSON number or a numeric string.
    fileprivate func positiveInteger(_ key: Key) -> Int64? {
        let value: Int64?
        if let integer = try? decodeIfPresent(Int64.self, forKey: key) {
            value = integer
        } else if let number = try? decodeIfPresent(Double.self, forKey: key), number.isFinite, abs(number) < 9e18 {
            value = Int64(number.rounded(.down))
        } else if let string = try? decodeIfPresent(String.self, forKey: key) {
            value = Int64(XMLText.trimmedString(string))
        } else {
            value = nil
        }
        guard let value, value > 0 else { return nil }
        return value
    }
}
