// How `XMLFeedReader` knows an element: its namespace (from the bindings in scope), its local name, and the
// `xml:base` that relative URLs inside it resolve against.
import Foundation

/// The names in scope where `XMLFeedReader` is: the namespace bindings and `xml:base` URLs of the open
/// elements, and what each element's name means under them.
struct XMLNames {
    enum Namespace: Equatable {
        case none, atom, itunes, podcast, dc, rdf, rss1, content, psc, media, other
    }

    enum Kind: Equatable {
        case rss, rdf, channel, atomFeed, item, entry, title, guid, atomID, pubDate, dcDate, published, updated
        case enclosure, atomLink, itunesTitle, itunesEpisode, itunesSeason, liveItem, other
        case link, description, itunesSummary, contentEncoded, summary, content, itunesDuration, itunesImage
        case image, url, logo, icon, itunesNewFeedURL, podcastGUID, podcastEpisode, podcastSeason
        case podcastTranscript, podcastChapters, pscChapters, pscChapter, mediaThumbnail, podcastImages
        case podcastAlternateEnclosure, podcastSource, podcastIntegrity, itunesAuthor
    }

    struct Binding {
        var prefix: Range<Int>
        var namespace: Namespace
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let documentResolver: FeedURLResolver
    /// The namespace bindings of the open elements, innermost last.
    var bindings: [Binding] = []
    /// One resolver per `xml:base` in scope, innermost last.
    var bases: [FeedURLResolver] = []
    var resolver: FeedURLResolver { bases.last ?? documentResolver }

    /// Records an `xmlns` or `xml:base` attribute; returns true when it set a new base URL.
    mutating func declare(_ attribute: XMLAttributeRange) -> Bool {
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

    /// What the element `name` is; `atRoot` for the document's root, `atom` in an Atom document.
    func classify(_ name: Range<Int>, atRoot: Bool, atom: Bool) -> Kind {
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
            if namespace == .none, atRoot, isLocal("feed") { return .atomFeed }
            if namespace == .none, atom { return atomKind(isLocal) }
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
            if isLocal("new-feed-url") { return .itunesNewFeedURL }
            if isLocal("author") { return .itunesAuthor }
        case .dc:
            if isLocal("date") { return .dcDate }
        case .podcast:
            if isLocal("liveItem") { return .liveItem }
            if isLocal("transcript") { return .podcastTranscript }
            if isLocal("chapters") { return .podcastChapters }
            if isLocal("images") { return .podcastImages }
            if isLocal("alternateEnclosure") { return .podcastAlternateEnclosure }
            if isLocal("source") { return .podcastSource }
            if isLocal("integrity") { return .podcastIntegrity }
            if isLocal("guid") { return .podcastGUID }
            if isLocal("episode") { return .podcastEpisode }
            if isLocal("season") { return .podcastSeason }
        case .content:
            if isLocal("encoded") { return .contentEncoded }
        case .rdf:
            if isLocal("RDF") { return .rdf }
        case .psc:
            if isLocal("chapters") { return .pscChapters }
            if isLocal("chapter") { return .pscChapter }
        case .media:
            if isLocal("thumbnail") { return .mediaThumbnail }
        case .other:
            break
        }
        return .other
    }

    func atomKind(_ isLocal: (StaticString) -> Bool) -> Kind {
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

    func resolve(prefix: Range<Int>) -> Namespace {
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
        if XMLText.equals(bytes, prefix, "psc") { return .psc }
        if XMLText.equals(bytes, prefix, "media") { return .media }
        return .other
    }

    static func namespace(uri: String) -> Namespace {
        switch uri.lowercased() {
        case "": return .none
        case "http://www.w3.org/2005/atom", "http://purl.org/atom/ns#": return .atom
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd": return .itunes
        case "http://purl.org/dc/elements/1.1/": return .dc
        case "http://purl.org/rss/1.0/": return .rss1
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": return .rdf
        case "http://purl.org/rss/1.0/modules/content/": return .content
        case "http://podlove.org/simple-chapters": return .psc
        case "http://search.yahoo.com/mrss/": return .media
        case let other where other.contains("podcastindex.org/namespace") || other.contains("podcast-namespace"):
            return .podcast
        default: return .other
        }
    }

    /// The trimmed value of the attribute `name`, if present.
    func value(of name: StaticString, in attributes: [XMLAttributeRange]) -> String? {
        for attribute in attributes where XMLText.equals(bytes, attribute.name, name) {
            return XMLText.trimmedValue(bytes, attribute.value)
        }
        return nil
    }
}
