// Where a feed comes from: an http(s) URL or a local file. Every other scheme is refused up front.
import Foundation

/// A feed location as the user gave it, checked.
public enum FeedSource: Equatable, Sendable {
    /// An http or https URL.
    case remote(URL)
    /// A file on this machine, by absolute path.
    case local(path: String)

    /// Reads a command-line feed argument.
    ///
    /// `http://` and `https://` URLs are remote; `file://` URLs and anything without a scheme are local paths,
    /// relative to `currentDirectory`. Any other scheme (`ftp:`, `data:`, `javascript:`) is refused. A URL's
    /// userinfo (`user:password@`) is not part of the source: read it with `login(in:)`. A URL is normalised
    /// (`FeedAddress`): every spelling of one address is one source.
    public init(_ text: String, currentDirectory: String) throws {
        let trimmed = URLSecrets.withoutUserinfo(text.trimmingSpace())
        guard !trimmed.isEmpty else { throw FeedError.invalidSource(text) }
        if let scheme = WebScheme.of(trimmed) {
            if WebScheme.isWeb(scheme) {
                guard let url = URL(string: FeedAddress.normalized(trimmed)), url.host?.isEmpty == false else {
                    throw FeedError.invalidSource(text)
                }
                self = .remote(url)
            } else if scheme == "file" {
                guard let url = URL(string: trimmed), url.isFileURL, !url.path.isEmpty else {
                    throw FeedError.invalidSource(text)
                }
                self = .local(path: url.path)
            } else {
                throw FeedError.unsupportedScheme(trimmed)
            }
            return
        }
        let path = trimmed.hasPrefix("/") ? trimmed : currentDirectory + "/" + trimmed
        self = .local(path: URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// The login a feed URL carries (`https://user:password@host/feed`), as credentials for its origin; nil when
    /// it carries none.
    public static func login(in text: String) -> ShowCredentials? {
        let trimmed = text.trimmingSpace()
        guard let login = URLSecrets.userinfo(of: trimmed),
            let origin = Origin(URLSecrets.withoutUserinfo(trimmed))
        else { return nil }
        return ShowCredentials(origin: origin, user: login.user, password: login.password)
    }

    /// The origin of a remote feed; nil for a local file.
    public var origin: Origin? {
        guard case .remote(let url) = self else { return nil }
        return Origin(url)
    }

    /// How messages show this feed: `displayName` with its tokens redacted (see `URLSecrets.redacted`).
    public var shownName: String {
        switch self {
        case .remote(let url): return URLSecrets.redacted(url.absoluteString)
        case .local(let path): return path
        }
    }

    /// The source as a URL: what relative enclosure URLs resolve against, and how errors name the feed.
    public var url: URL {
        switch self {
        case .remote(let url): return url
        case .local(let path): return URL(fileURLWithPath: path)
        }
    }

    /// How messages name this feed.
    public var displayName: String {
        switch self {
        case .remote(let url): return url.absoluteString
        case .local(let path): return path
        }
    }
}

extension FeedSource {
    /// What a run gives this feed: the login in its URL and `headers`, for its origin; nil when it gives neither,
    /// or the feed is a local file. (Here, not on `ShowCredentials`: the request seams know nothing of feeds.)
    public func givenCredentials(login: ShowCredentials?, headers: [String]) -> ShowCredentials? {
        guard let origin, login != nil || !headers.isEmpty else { return nil }
        return ShowCredentials(
            origin: origin, user: login?.user, password: login?.password, headers: headers.isEmpty ? nil : headers)
    }
}
