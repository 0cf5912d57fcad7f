// Reads RSS 2.0 (with iTunes and Podcasting 2.0 tags), RSS 1.0 and Atom into a `Feed`, recovering what a reader
// can see in broken documents: stray closing tags close the nearest matching element or are ignored, and a
// document cut off mid-way keeps the items it completed.
import Foundation

/// What the XML reader found: the feed, or why the document is not one.
enum XMLFeedResult {
    case feed(Feed)
    case notAFeed(String)
}

struct XMLFeedReader {
    private enum Namespace: Equatable {
        case none, atom, itunes, podcast, dc, rdf, rss1, content, other
    }

    private enum Kind: Equatable {
        case rss, rdf, channel, atomFeed, item, entry, title, guid, atomID, pubDate, dcDate, published, updated
        case enclosure, atomLink, itunesTitle, itunesEpisode, itunesSeason, liveItem, other
        case link, description, itunesSummary, contentEncoded, summary, content, itunesDuration, itunesImage
        case image, url, logo, icon
    }

    private struct Frame {
        var name: Range<Int>
        var kind: Kind
        var bindingsMark: Int
        var hasBase: Bool
    }

    private struct Binding {
        var prefix: Range<Int>
        var namespace: Namespace
    }

    /// The parts of an `<item>` or `<entry>` gathered so far.
    private struct ItemBuilder {
        var title: String?
        var itunesTitle: String?
        var guid: String?
        var url: String?
        var mimeType: String?
        var length: Int64?
        var pubDate: Date?
        var dcDate: Date?
        var published: Date?
        var updated: Date?
        var episodeNumber: Int?
        var seasonNumber: Int?
        var description: String?
        var summary: String?
        var content: String?
        var link: String?
        var duration: TimeInterval?
        var image: String?
    }

    /// The feed's artwork, by preference: `itunes:image`, RSS `image/url`, Atom `logo`, Atom `icon`.
    private var artwork: [Kind: String] = [:]

    private let bytes: UnsafeBufferPointer<UInt8>
    private let documentResolver: FeedURLResolver
    /// Whether show notes are read (they are most of a feed's bytes).
    private let descriptions: Bool
    private var stack: [Frame] = []
    private var bindings: [Binding] = []
    /// One resolver per `xml:base` in scope, innermost last.
    private var bases: [FeedURLResolver] = []
    private var resolver: FeedURLResolver { bases.last ?? documentResolver }
    private var format: FeedFormat?
    /// A `<channel>` (or Atom's `<feed>`) or an item was seen: without either, `<rss/>` is no feed at all.
    private var sawChannelOrItem = false
    /// Items that closed without an enclosure.
    private var itemsWithoutMedia = 0
    private var feedTitle: String?
    private var episodes: [Episode] = []
    private var item: ItemBuilder?
    private var itemDepth = 0
    private var skipDepth: Int?
    private var captureDepth: Int?
    private var captured: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, documentURL: URL?, descriptions: Bool) {
        self.bytes = bytes
        self.documentResolver = FeedURLResolver(base: documentURL)
        self.descriptions = descriptions
    }

    /// Reads a UTF-8 XML document. `documentURL` resolves relative enclosure URLs; `descriptions` reads show notes.
    static func read(_ utf8: [UInt8], documentURL: URL?, descriptions: Bool = false) -> XMLFeedResult {
        utf8.withUnsafeBufferPointer { buffer in read(buffer, documentURL: documentURL, descriptions: descriptions) }
    }

    /// Reads UTF-8 XML where it lies (the fetched bytes, not a copy).
    static func read(_ utf8: UnsafeBufferPointer<UInt8>, documentURL: URL?, descriptions: Bool = false)
        -> XMLFeedResult
    {
        var reader = XMLFeedReader(bytes: utf8, documentURL: documentURL, descriptions: descriptions)
        return reader.run()
    }

    private mutating func run() -> XMLFeedResult {
        var tokenizer = XMLTokenizer(bytes)
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let name, let attributes, let selfClosing):
                if let rejection = open(name: name, attributes: attributes) { return .notAFeed(rejection) }
                if selfClosing { close(depth: stack.count - 1) }
            case .endTag(let name):
                // Close the innermost open element of that name; a closing tag nothing matches is ignored.
                // Only the innermost 64 are searched: real feeds are a few levels deep, and a hostile one with
                // thousands of unmatched closing tags under thousands of open ones must not cost depth x tags.
                let searched = stack.indices.suffix(64)
                if let depth = searched.last(where: { XMLText.equal(bytes, stack[$0].name, name) }) {
                    close(depth: depth)
                }
            case .text(let range):
                if captureDepth != nil { XMLText.decode(bytes, range, into: &captured) }
            case .cdata(let range):
                if captureDepth != nil { captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
            }
        }
        guard let format else { return .notAFeed("the document has no root element") }
        guard sawChannelOrItem else { return .notAFeed("the document has no channel and no items") }
        let truncated = !stack.isEmpty
        if truncated && episodes.isEmpty {
            return .notAFeed("the document is cut off before its first complete episode")
        }
        let artwork = self.artwork
        let image = [Kind.itunesImage, .url, .logo, .icon].lazy.compactMap { artwork[$0] }.first
        var feed = Feed(title: feedTitle, episodes: episodes, format: format, imageURL: image)
        feed.itemsWithoutMedia = itemsWithoutMedia
        return .feed(feed)
    }

    // MARK: - Elements

    private mutating func open(name: Range<Int>, attributes: Range<Int>) -> String? {
        let mark = bindings.count
        var hasBase = false
        var parsedAttributes: [XMLAttributeRange] = []
        if !attributes.isEmpty {
            parsedAttributes = XMLText.attributes(bytes, attributes)
            for attribute in parsedAttributes {
                hasBase = declare(attribute) || hasBase
            }
        }
        let kind = classify(name)
        let depth = stack.count
        stack.append(Frame(name: name, kind: kind, bindingsMark: mark, hasBase: hasBase))

        if depth == 0 {
            switch kind {
            case .rss, .rdf: format = .rss
            case .atomFeed:
                format = .atom
                sawChannelOrItem = true
            default:
                let root = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                return "the document is <\(root)>, not RSS or Atom"
            }
            return nil
        }
        guard format != nil, skipDepth == nil else { return nil }
        let parent = stack[depth - 1].kind
        if kind == .channel || kind == .item || kind == .entry { sawChannelOrItem = true }

        switch kind {
        case .liveItem:
            skipDepth = depth
        case .item where item == nil, .entry where item == nil:
            item = ItemBuilder()
            itemDepth = depth
        case .enclosure where parent == .item:
            if item?.url == nil { takeEnclosure(parsedAttributes, urlAttribute: "url") }
        case .atomLink where parent == .entry || parent == .item:
            let relation = value(of: "rel", in: parsedAttributes) ?? "alternate"
            if item?.url == nil, relation == "enclosure" {
                takeEnclosure(parsedAttributes, urlAttribute: "href")
            } else if item?.link == nil, relation == "alternate", let href = value(of: "href", in: parsedAttributes),
                !href.isEmpty
            {
                let link = resolver.resolve(href)
                item?.link = link
            }
        case .itunesImage:
            guard let href = value(of: "href", in: parsedAttributes), !href.isEmpty else { break }
            let resolved = resolver.resolve(href)
            if item != nil, depth == itemDepth + 1 {
                if item?.image == nil { item?.image = resolved }
            } else if item == nil, parent == .channel || parent == .atomFeed, artwork[.itunesImage] == nil {
                artwork[.itunesImage] = resolved
            }
        case .title, .guid, .atomID, .pubDate, .dcDate, .published, .updated, .itunesTitle, .itunesEpisode,
            .itunesSeason, .link, .description, .itunesSummary, .contentEncoded, .summary, .content, .itunesDuration,
            .url, .logo, .icon:
            let channelArtwork =
                item == nil
                && ((kind == .url && parent == .image && depth >= 2 && stack[depth - 2].kind == .channel)
                    || ((kind == .logo || kind == .icon) && parent == .atomFeed))
                && artwork[kind] == nil
            let isNotes =
                kind == .description || kind == .itunesSummary || kind == .contentEncoded
                || kind == .summary || kind == .content
            let wanted =
                (item != nil && depth == itemDepth + 1 && (descriptions || !isNotes))
                || (kind == .title && feedTitle == nil && (parent == .channel || parent == .atomFeed))
                || channelArtwork
            if wanted, captureDepth == nil {
                captureDepth = depth
                captured.removeAll(keepingCapacity: true)
            }
        default:
            break
        }
        return nil
    }

    private mutating func close(depth: Int) {
        while stack.count > depth {
            let frame = stack.removeLast()
            let closingDepth = stack.count
            if captureDepth == closingDepth {
                captureDepth = nil
                finishText(of: frame.kind, parent: stack.last?.kind)
            }
            if frame.kind == .item || frame.kind == .entry, item != nil, closingDepth == itemDepth, skipDepth == nil {
                finishItem()
            }
            if skipDepth == closingDepth { skipDepth = nil }
            if frame.hasBase { bases.removeLast() }
            bindings.removeSubrange(frame.bindingsMark...)
        }
    }

    private mutating func finishText(of kind: Kind, parent: Kind?) {
        let text = XMLText.trimmedString(captured)
        guard item != nil, parent == .item || parent == .entry else {
            if kind == .title, feedTitle == nil, !text.isEmpty { feedTitle = text }
            if kind == .url || kind == .logo || kind == .icon, !text.isEmpty {
                artwork[kind] = resolver.resolve(text)
            }
            return
        }
        let resolver = self.resolver
        // In place: copying the builder out and back costs a retain and release per field, per element.
        update { built in
            switch kind {
            case .title: built.title = built.title ?? text
            case .itunesTitle: built.itunesTitle = built.itunesTitle ?? (text.isEmpty ? nil : text)
            case .guid, .atomID: if built.guid == nil, !text.isEmpty { built.guid = text }
            case .pubDate: built.pubDate = built.pubDate ?? FeedDate.parseRFC822(text)
            case .dcDate: built.dcDate = built.dcDate ?? FeedDate.parseRFC3339(text) ?? FeedDate.parseRFC822(text)
            case .published: built.published = built.published ?? FeedDate.parseRFC3339(text)
            case .updated: built.updated = built.updated ?? FeedDate.parseRFC3339(text)
            case .itunesEpisode: built.episodeNumber = Int(text)
            case .itunesSeason: built.seasonNumber = Int(text)
            case .description: built.description = built.description ?? (text.isEmpty ? nil : text)
            case .itunesSummary: built.summary = built.summary ?? (text.isEmpty ? nil : text)
            case .summary: built.summary = built.summary ?? (text.isEmpty ? nil : text)
            case .contentEncoded, .content: built.content = built.content ?? (text.isEmpty ? nil : text)
            case .link:
                if built.link == nil, !text.isEmpty { built.link = resolver.resolve(text) }
            case .itunesDuration: built.duration = built.duration ?? FeedDate.duration(text)
            default: break
            }
        }
    }

    private mutating func update(_ body: (inout ItemBuilder) -> Void) {
        if item != nil { body(&item!) }
    }

    private mutating func finishItem() {
        defer { item = nil }
        guard let built = item, let url = built.url else {
            itemsWithoutMedia += 1
            return
        }
        let title = built.title ?? built.itunesTitle
        episodes.append(
            Episode(
                title: title, guid: built.guid, url: url, mimeType: built.mimeType, length: built.length,
                published: built.pubDate ?? built.dcDate ?? built.published ?? built.updated,
                episodeNumber: built.episodeNumber, seasonNumber: built.seasonNumber,
                description: built.description ?? built.summary ?? built.content, link: built.link,
                duration: built.duration, imageURL: built.image))
    }

    private mutating func takeEnclosure(_ attributes: [XMLAttributeRange], urlAttribute: StaticString) {
        guard let raw = value(of: urlAttribute, in: attributes),
            !raw.isEmpty
        else { return }
        let url = resolver.resolve(raw)
        item?.url = url
        let type = value(of: "type", in: attributes)
        item?.mimeType = type?.isEmpty == false ? type : nil
        if let length = value(of: "length", in: attributes).flatMap({ Int64($0) }),
            length > 0
        {
            item?.length = length
        }
    }

    // MARK: - Names and namespaces

    /// Records an `xmlns` or `xml:base` attribute; returns true when it set a new base URL.
    private mutating func declare(_ attribute: XMLAttributeRange) -> Bool {
        let name = attribute.name
        if XMLText.equals(bytes, name, "xml:base") {
            let raw = XMLText.trimmedValue(bytes, attribute.value)
            let parent = resolver.base
            guard let url = URL(string: raw, relativeTo: parent)?.absoluteURL else { return false }
            bases.append(FeedURLResolver(base: url))
            return true
        }
        guard name.count >= 5, XMLText.equals(bytes, name.lowerBound..<name.lowerBound + 5, "xmlns") else {
            return false
        }
        let prefix: Range<Int>
        if name.count == 5 {
            prefix = name.upperBound..<name.upperBound
        } else if bytes[name.lowerBound + 5] == Ascii.colon {
            prefix = name.lowerBound + 6..<name.upperBound
        } else {
            return false
        }
        let uri = XMLText.trimmedValue(bytes, attribute.value)
        bindings.append(Binding(prefix: prefix, namespace: Self.namespace(uri: uri)))
        return false
    }

    private func classify(_ name: Range<Int>) -> Kind {
        var colon = name.lowerBound
        while colon < name.upperBound, bytes[colon] != Ascii.colon { colon += 1 }
        let hasPrefix = colon < name.upperBound
        let prefix = hasPrefix ? name.lowerBound..<colon : name.lowerBound..<name.lowerBound
        let local = hasPrefix ? colon + 1..<name.upperBound : name
        let namespace = resolve(prefix: prefix)
        func isLocal(_ literal: StaticString) -> Bool { XMLText.equals(bytes, local, literal) }

        switch namespace {
        case .none, .rss1:
            if isLocal("item") { return .item }
            if isLocal("title") { return .title }
            if isLocal("enclosure") { return .enclosure }
            if isLocal("guid") { return .guid }
            if isLocal("pubDate") { return .pubDate }
            if isLocal("channel") { return .channel }
            if isLocal("rss") { return .rss }
            // Atom documents that forgot their namespace declaration.
            if namespace == .none, stack.isEmpty, isLocal("feed") { return .atomFeed }
            if namespace == .none, format == .atom { return atomKind(isLocal) }
            if isLocal("link") { return .link }
            if isLocal("description") { return .description }
            if isLocal("image") { return .image }
            if isLocal("url") { return .url }
        case .atom:
            return atomKind(isLocal)
        case .itunes:
            if isLocal("title") { return .itunesTitle }
            if isLocal("episode") { return .itunesEpisode }
            if isLocal("season") { return .itunesSeason }
            if isLocal("summary") { return .itunesSummary }
            if isLocal("duration") { return .itunesDuration }
            if isLocal("image") { return .itunesImage }
        case .dc:
            if isLocal("date") { return .dcDate }
        case .podcast:
            if isLocal("liveItem") { return .liveItem }
        case .content:
            if isLocal("encoded") { return .contentEncoded }
        case .rdf:
            if isLocal("RDF") { return .rdf }
        case .other:
            break
        }
        return .other
    }

    private func atomKind(_ isLocal: (StaticString) -> Bool) -> Kind {
        if isLocal("entry") { return .entry }
        if isLocal("title") { return .title }
        if isLocal("link") { return .atomLink }
        if isLocal("id") { return .atomID }
        if isLocal("published") { return .published }
        if isLocal("updated") { return .updated }
        if isLocal("feed") { return .atomFeed }
        if isLocal("summary") { return .summary }
        if isLocal("content") { return .content }
        if isLocal("logo") { return .logo }
        if isLocal("icon") { return .icon }
        return .other
    }

    private func resolve(prefix: Range<Int>) -> Namespace {
        for binding in bindings.reversed() where XMLText.equal(bytes, binding.prefix, prefix) {
            return binding.namespace
        }
        if prefix.isEmpty { return .none }
        // Feeds often use a prefix without declaring it; read the conventional ones anyway.
        if XMLText.equals(bytes, prefix, "itunes") { return .itunes }
        if XMLText.equals(bytes, prefix, "atom") { return .atom }
        if XMLText.equals(bytes, prefix, "podcast") { return .podcast }
        if XMLText.equals(bytes, prefix, "dc") { return .dc }
        if XMLText.equals(bytes, prefix, "rdf") { return .rdf }
        if XMLText.equals(bytes, prefix, "content") { return .content }
        return .other
    }

    private static func namespace(uri: String) -> Namespace {
        switch uri.lowercased() {
        case "": return .none
        case "http://www.w3.org/2005/atom", "http://purl.org/atom/ns#": return .atom
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd": return .itunes
        case "http://purl.org/dc/elements/1.1/": return .dc
        case "http://purl.org/rss/1.0/": return .rss1
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": return .rdf
        case "http://purl.org/rss/1.0/modules/content/": return .content
        case let other where other.contains("podcastindex.org/namespace") || other.contains("podcast-namespace"):
            return .podcast
        default: return .other
        }
    }

    /// The trimmed value of the attribute `name`, if present.
    private func value(of name: StaticString, in attributes: [XMLAttributeRange]) -> String? {
        for attribute in attributes where XMLText.equals(bytes, attribute.name, name) {
            return XMLText.trimmedValue(bytes, attribute.value)
        }
        return nil
    }
}
