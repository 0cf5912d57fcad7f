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
    typealias Kind = XMLNames.Kind

    struct Frame {
        var name: Range<Int>
        var kind: Kind
        var bindingsMark: Int
        var hasBase: Bool
    }

    /// What the document says of the show itself.
    var channel = FeedChannelBuilder()

    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether show notes are read (they are most of a feed's bytes).
    let descriptions: Bool
    /// What the document may hold, judged as each element opens.
    var limits = XMLLimits.feed
    var itemsOpened = 0
    var stack: [Frame] = []
    /// The namespaces and base URLs in scope.
    var names: XMLNames
    var resolver: FeedURLResolver { names.resolver }
    var format: FeedFormat?
    /// A `<channel>` (or Atom's `<feed>`) or an item was seen: without either, `<rss/>` is no feed at all.
    var sawChannelOrItem = false
    /// Items that closed without an enclosure.
    var itemsWithoutMedia = 0
    var titlesWithoutMedia: [String] = []
    var episodes: [Episode] = []
    var item: FeedItemBuilder?
    var itemDepth = 0
    var skipDepth: Int?
    var captureDepth: Int?
    var captured: [UInt8] = []
    /// Tokens read and names compared (see `countingWork`).
    var work = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, documentURL: URL?, descriptions: Bool) {
        self.bytes = bytes
        self.names = XMLNames(bytes: bytes, documentResolver: FeedURLResolver(base: documentURL))
        self.descriptions = descriptions
    }

    /// Reads a UTF-8 XML document. `documentURL` resolves relative enclosure URLs; `descriptions` reads show notes.
    static func read(_ utf8: [UInt8], documentURL: URL?, descriptions: Bool = false, limits: XMLLimits = .feed)
        -> XMLFeedResult
    {
        utf8.withUnsafeBufferPointer { read($0, documentURL: documentURL, descriptions: descriptions, limits: limits) }
    }

    /// Reads UTF-8 XML where it lies (the fetched bytes, not a copy), refused past `limits` as it is read.
    static func read(
        _ utf8: UnsafeBufferPointer<UInt8>, documentURL: URL?, descriptions: Bool = false, limits: XMLLimits = .feed
    ) -> XMLFeedResult {
        var reader = XMLFeedReader(bytes: utf8, documentURL: documentURL, descriptions: descriptions)
        reader.limits = limits
        return reader.run()
    }

    /// Reads `utf8` and counts the work done (tokens, and element names compared to match closing tags): how a
    /// test tells linear from quadratic reading without a clock.
    static func countingWork(_ utf8: [UInt8]) -> (result: XMLFeedResult, work: Int) {
        utf8.withUnsafeBufferPointer { buffer in
            var reader = XMLFeedReader(bytes: buffer, documentURL: nil, descriptions: false)
            let result = reader.run()
            return (result, reader.work)
        }
    }

    private mutating func run() -> XMLFeedResult {
        var tokenizer = XMLTokenizer(bytes)
        while let token = tokenizer.next() {
            work += 1
            switch token {
            case .startTag(let name, let attributes, let selfClosing):
                if let rejection = open(name: name, attributes: attributes) { return .notAFeed(rejection) }
                if selfClosing { close(depth: stack.count - 1) }
            case .endTag(let name):
                // Close the innermost open element of that name; a closing tag nothing matches is ignored.
                // Only the innermost 64 are searched: real feeds are a few levels deep, and a hostile one with
                // thousands of unmatched closing tags under thousands of open ones must not cost depth x tags.
                let searched = stack.indices.suffix(64)
                if let depth = searched.last(where: {
                    work += 1
                    return XMLText.equal(bytes, stack[$0].name, name)
                }) {
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
        var feed = channel.feed(episodes: episodes, format: format)
        feed.itemsWithoutMedia = itemsWithoutMedia
        feed.titlesWithoutMedia = titlesWithoutMedia
        return .feed(feed)
    }

    // MARK: - Elements

    private mutating func open(name: Range<Int>, attributes: Range<Int>) -> String? {
        let mark = names.bindings.count
        var hasBase = false
        var parsedAttributes: [XMLAttributeRange] = []
        if !attributes.isEmpty {
            parsedAttributes = XMLText.attributes(bytes, attributes)
            for attribute in parsedAttributes {
                hasBase = names.declare(attribute) || hasBase
            }
        }
        let depth = stack.count
        if let refusal = limits.refusal(openingAt: depth) { return refusal }
        let kind = names.classify(name, atRoot: stack.isEmpty, atom: format == .atom)
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
            itemsOpened += 1
            if let refusal = limits.refusal(item: itemsOpened) { return refusal }
            item = FeedItemBuilder()
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
        case .podcastTranscript, .podcastChapters, .pscChapter, .mediaThumbnail, .podcastImages:
            if item != nil { takeCompanion(kind, parsedAttributes) }
        case .podcastAlternateEnclosure where parent == .item:
            takeAlternate(parsedAttributes)
        case .podcastSource where parent == .podcastAlternateEnclosure,
            .podcastIntegrity where parent == .podcastAlternateEnclosure:
            if item != nil, depth == itemDepth + 2 { takeAlternatePart(kind, parsedAttributes) }
        case .atomLink where parent == .channel || parent == .atomFeed:
            guard let href = value(of: "href", in: parsedAttributes), !href.isEmpty else { break }
            channel.takeLink(
                href, relation: value(of: "rel", in: parsedAttributes), atomFeed: parent == .atomFeed,
                resolver: resolver)
        case .itunesImage:
            guard let href = value(of: "href", in: parsedAttributes), !href.isEmpty else { break }
            let resolved = resolver.resolve(href)
            if item != nil, depth == itemDepth + 1 {
                if item?.image == nil { item?.image = resolved }
            } else if item == nil, parent == .channel || parent == .atomFeed, channel.artwork[.itunesImage] == nil {
                channel.artwork[.itunesImage] = resolved
            }
        case .title, .guid, .atomID, .pubDate, .dcDate, .published, .updated, .itunesTitle, .itunesEpisode,
            .itunesSeason, .link, .description, .itunesSummary, .contentEncoded, .summary, .content, .itunesDuration,
            .url, .logo, .icon, .itunesNewFeedURL, .podcastGUID, .podcastEpisode, .podcastSeason, .itunesAuthor:
            let channelArtwork =
                item == nil
                && ((kind == .url && parent == .image && depth >= 2 && stack[depth - 2].kind == .channel)
                    || ((kind == .logo || kind == .icon) && parent == .atomFeed))
                && channel.artwork[kind] == nil
            let isNotes =
                kind == .description || kind == .itunesSummary || kind == .contentEncoded
                || kind == .summary || kind == .content
            let wanted =
                (item != nil && depth == itemDepth + 1 && (descriptions || !isNotes))
                || (kind == .title && channel.title == nil && (parent == .channel || parent == .atomFeed))
                || (kind == .itunesNewFeedURL && item == nil && channel.links.newFeedURL == nil)
                || (kind == .podcastGUID && item == nil && channel.podcastGUID == nil)
                || (kind == .itunesAuthor && item == nil && parent == .channel && channel.author == nil)
                || (item == nil && parent == .channel
                    && ((kind == .link && channel.links.website == nil)
                        || (descriptions && (kind == .description || kind == .itunesSummary)
                            && channel.description == nil)))
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
            if frame.hasBase { names.bases.removeLast() }
            names.bindings.removeSubrange(frame.bindingsMark...)
        }
    }

    private mutating func finishText(of kind: Kind, parent: Kind?) {
        let text = XMLText.trimmedString(captured)
        guard item != nil, parent == .item || parent == .entry else {
            channel.finishText(of: kind, text: text, parent: parent, resolver: resolver)
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
            case .itunesEpisode: built.episodeNumber = Int(text) ?? built.episodeNumber
            case .podcastEpisode: built.podcastEpisode = built.podcastEpisode ?? Int(text)
            case .podcastSeason: built.podcastSeason = built.podcastSeason ?? Int(text)
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

    /// The trimmed value of the attribute `name`, if present.
    func value(of name: StaticString, in attributes: [XMLAttributeRange]) -> String? {
        names.value(of: name, in: attributes)
    }

    private mutating func update(_ body: (inout FeedItemBuilder) -> Void) {
        if item != nil { body(&item!) }
    }

    private mutating func finishItem() {
        defer { item = nil }
        guard let built = item, let url = built.url else {
            itemsWithoutMedia += 1
            titlesWithoutMedia.append(item?.title ?? item?.itunesTitle ?? "")
            return
        }
        episodes.append(built.episode(url: url))
    }
}
