// The public podcast directory people link to: Apple Podcasts. A show's page there
// (`https://podcasts.apple.com/<country>/podcast/<slug>/id<N>`, or an episode's, `…/id<N>?i=<episode>`) names
// the show by number only; the iTunes lookup API answers with its feed URL. The same API searches by name.
// Its answers are hostile input like any server's: only an http(s) `feedUrl` is taken, and text is cut to size.
import Foundation

/// A show the directory knows.
public struct DirectoryShow: Equatable, Sendable, Codable {
    /// The directory's number for the show (`collectionId`).
    public var id: Int?
    /// The show's title.
    public var title: String
    /// Who makes it (`artistName`).
    public var author: String?
    /// How many episodes the directory counts (`trackCount`).
    public var episodes: Int?
    /// The show's feed, when the directory has one (it has none for some shows behind a subscription).
    public var feedURL: URL?
}

/// Why the directory could not name a feed.
public enum DirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The answer was not the JSON the directory sends.
    case unreadableAnswer(url: String)
    /// The directory knows no show with that number.
    case noSuchShow(id: Int, link: String)
    /// The directory knows the show but lists no feed for it.
    case noFeed(title: String, link: String)
    /// The directory could not be asked: no connection, no answer in time.
    case unreachable(url: String, reason: String)
    /// The directory answered with a status other than 2xx.
    case httpStatus(url: String, status: Int)
    /// The answer passed the size cap; reading stopped there.
    case tooLarge(url: String, limit: Int64)
    /// `$PODARCHIVE_DIRECTORY_URL` is set to something else than an http(s) URL.
    case notWebURL(String)

    /// One line naming the problem and the value.
    public var description: String {
        switch self {
        case .unreadableAnswer(let url):
            return "the podcast directory's answer from \(url) is not the JSON it sends"
        case .notWebURL(let value):
            return "PODARCHIVE_DIRECTORY_URL is not an http(s) URL: \"\(value)\""
        case .noSuchShow(let id, let link):
            return "the podcast directory knows no show numbered \(id) (from \(link))"
        case .noFeed(let title, let link):
            return "the podcast directory lists no public feed for \"\(title)\" (from \(link))"
        case .unreachable(let url, let reason):
            return "the podcast directory at \(url) could not be asked: \(reason)"
        case .httpStatus(let url, let status):
            return "the podcast directory answered HTTP \(status) to \(url)"
        case .tooLarge(let url, let limit):
            return "the podcast directory's answer from \(url) is larger than \(limit) bytes; stopped reading there"
        }
    }
}

extension DirectoryError: LocalizedError {
    /// The same line as `description`, for whoever reads `localizedDescription`.
    public var errorDescription: String? { description }
}

/// The Apple Podcasts directory (the iTunes Search API), at `base`.
public struct PodcastDirectory: Sendable {
    /// Where the directory's API is served (`https://itunes.apple.com`, or a test server's address).
    public var base: URL

    /// Why the directory cannot be asked (`$PODARCHIVE_DIRECTORY_URL` names no http(s) URL), said when it is
    /// asked: a run that never asks it is not refused for it.
    public var refusal: DirectoryError?

    /// The directory at `base`.
    public init(base: URL) { self.base = base }

    /// Apple's directory, `https://itunes.apple.com`.
    public static let apple = PodcastDirectory(base: URL(string: "https://itunes.apple.com")!)

    /// The directory at `https://itunes.apple.com`, or at the URL `$PODARCHIVE_DIRECTORY_URL` names; one that
    /// names something else than an http(s) URL is refused when the directory is asked (`refusal`), never
    /// replaced by Apple's in silence.
    public static func from(environment: [String: String]) -> PodcastDirectory {
        guard let named = environment["PODARCHIVE_DIRECTORY_URL"] else { return apple }
        if let url = URL(string: named), WebScheme.isWeb(url), url.host?.isEmpty == false {
            return PodcastDirectory(base: url)
        }
        var refused = apple
        refused.refusal = .notWebURL(named)
        return refused
    }

    /// The show number of an Apple Podcasts link (`podcasts.apple.com` or `itunes.apple.com`, any country, a
    /// show's or an episode's page); nil for any other URL.
    public static func showID(inLink text: String) -> Int? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), WebScheme.isWeb(url),
            let host = url.host?.lowercased(),
            host == "podcasts.apple.com" || host == "itunes.apple.com"
        else { return nil }
        for component in url.pathComponents.reversed() where component.hasPrefix("id") {
            let digits = component.dropFirst(2)
            if !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCII), let id = Int(digits), id > 0 {
                return id
            }
        }
        return nil
    }

    /// The request that looks show `id` up.
    public func lookupURL(id: Int) -> URL {
        endpoint(
            "lookup", [URLQueryItem(name: "id", value: String(id)), URLQueryItem(name: "entity", value: "podcast")])
    }

    /// The request that searches for shows matching `term`, at most `limit` of them (the API allows 1-200).
    public func searchURL(term: String, limit: Int) -> URL {
        endpoint(
            "search",
            [
                URLQueryItem(name: "media", value: "podcast"), URLQueryItem(name: "entity", value: "podcast"),
                URLQueryItem(name: "term", value: term),
                URLQueryItem(name: "limit", value: String(min(200, max(1, limit)))),
            ])
    }

    private func endpoint(_ name: String, _ query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: base.appendingPathComponent(name), resolvingAgainstBaseURL: true)!
        components.queryItems = query
        // `+` means a space to the directory's form decoding; URLComponents leaves it as it is.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// The shows in an answer of the lookup or search API (`{"resultCount": N, "results": [...]}`), podcasts only.
    /// - Throws: `DirectoryError.unreadableAnswer` when `data` is not that JSON.
    public static func shows(inAnswer data: Data, from url: URL) throws -> [DirectoryShow] {
        let redacted = URLSecrets.redacted(url.absoluteString)
        guard data.count <= 16 << 20,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let results = object["results"] as? [Any]
        else { throw DirectoryError.unreadableAnswer(url: redacted) }
        return results.compactMap { item in
            guard let fields = item as? [String: Any] else { return nil }
            if let kind = fields["kind"] as? String, kind != "podcast" { return nil }
            if let wrapper = fields["wrapperType"] as? String, wrapper != "track", wrapper != "collection" {
                return nil
            }
            let title = text(fields["collectionName"]) ?? text(fields["trackName"]) ?? ""
            let feed = (fields["feedUrl"] as? String).flatMap { URL(string: $0) }.flatMap {
                WebScheme.isWeb($0) && $0.host?.isEmpty == false ? $0 : nil
            }
            return DirectoryShow(
                id: number(fields["collectionId"]) ?? number(fields["trackId"]), title: title,
                author: text(fields["artistName"]), episodes: number(fields["trackCount"]), feedURL: feed)
        }
    }

    /// The feed of the show an Apple Podcasts link names, from the lookup API's answer.
    /// - Throws: `DirectoryError.noSuchShow` or `.noFeed`, naming the link.
    public static func feed(ofShow id: Int, link: String, inAnswer data: Data, from url: URL) throws -> URL {
        let shows = try shows(inAnswer: data, from: url)
        guard let show = shows.first(where: { $0.id == id }) ?? shows.first else {
            throw DirectoryError.noSuchShow(id: id, link: URLSecrets.redacted(link))
        }
        guard let feed = show.feedURL else { throw DirectoryError.noFeed(title: show.title, link: link) }
        return feed
    }

    private static func text(_ value: Any?) -> String? {
        guard let string = value as? String else { return nil }
        let line = string.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : String(line.prefix(500))
    }

    private static func number(_ value: Any?) -> Int? {
        if let int = value as? Int { return int }
        if let double = value as? Double, double.isFinite, abs(double) < 1e15 { return Int(double) }
        return nil
    }
}
