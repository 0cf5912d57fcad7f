// What a show's requests carry: a User-Agent hosts accept, and credentials, each only to the origin it names
// (scheme, host and port, as curl sends `-u` without `--location-trusted`), on the first request and on every
// redirect. A `.netrc` login goes to the host it names, as in curl and wget.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URL's scheme, host and port: what a credential is scoped to.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public var scheme: String
    /// The host, lowercased.
    public var host: String
    /// The port, the scheme's default when the URL gives none.
    public var port: Int

    /// The origin of `url`; nil for a URL without a host or with a scheme other than http(s).
    public init?(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), WebScheme.isWeb(scheme), let host = url.host,
            !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// The origin of the URL `text` (see `init(_:URL)`).
    public init?(_ text: String) {
        self.init(URL(string: text))
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// Credentials for one origin: a login (sent as HTTP Basic) and headers (a bearer token, a cookie, a Referer).
/// The subscription record that saves them is the only file that holds them.
public struct ShowCredentials: Codable, Equatable, Sendable {
    /// The origin they are sent to, `scheme://host:port`.
    public var origin: String
    /// The user name (with `password`, sent as HTTP Basic).
    public var user: String?
    /// The password.
    public var password: String?
    /// Headers sent with each request to the origin, `Name: value`.
    public var headers: [String]?

    /// Credentials for `origin`.
    public init(origin: Origin, user: String? = nil, password: String? = nil, headers: [String]? = nil) {
        self.origin = origin.description
        self.user = user
        self.password = password
        self.headers = headers?.isEmpty == true ? nil : headers
    }

    /// True when they carry nothing to send.
    public var isEmpty: Bool { user == nil && (headers ?? []).isEmpty }

    /// These credentials with what `newer` gives replacing what it replaces: a login replaces the login,
    /// headers replace the headers, and credentials for another origin replace these whole.
    public func overlaid(by newer: ShowCredentials) -> ShowCredentials {
        guard newer.origin == origin else { return newer }
        var merged = self
        if newer.user != nil {
            merged.user = newer.user
            merged.password = newer.password
        }
        if let headers = newer.headers { merged.headers = headers }
        return merged
    }

    /// The headers these credentials add to a request: `Authorization: Basic` for a login, then each header.
    var fields: [(name: String, value: String)] {
        var fields: [(String, String)] = []
        if let user {
            let token = Data("\(user):\(password ?? "")".utf8).base64EncodedString()
            fields.append(("Authorization", "Basic \(token)"))
        }
        for header in headers ?? [] {
            guard let parsed = Self.parseHeader(header) else { continue }
            fields.append(parsed)
        }
        return fields
    }

    /// `Name: value` split; nil when it is not a header (no colon, an empty or invalid name, a line break).
    public static func parseHeader(_ text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":"), !text.contains("\n"), !text.contains("\r") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let allowed = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789")
            .union(CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        return (name, text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}

/// How one show's requests are made: its User-Agent, and its credentials to the origins they name.
public struct RequestProfile: Sendable, Equatable {
    /// The User-Agent of every request.
    public var userAgent: String
    /// Credentials, each sent only to its own origin.
    public var credentials: [ShowCredentials]
    /// Logins by host (a `.netrc` file), for hosts no credential covers.
    public var netrc: Netrc?
    /// The subscription's own origin: the only one a `.netrc` `default` login goes to.
    public var home: Origin?

    /// A profile; the default sends podarchive's own User-Agent and no credentials.
    public init(
        userAgent: String = PodarchiveVersion.userAgent, credentials: [ShowCredentials] = [], netrc: Netrc? = nil
    ) {
        self.userAgent = userAgent
        self.credentials = credentials.filter { !$0.isEmpty }
        self.netrc = netrc
    }

    /// A request for `url` (its userinfo dropped: credentials travel only in headers) carrying the User-Agent and
    /// the credentials for its origin.
    public func request(for url: URL) -> URLRequest {
        var request = URLRequest(url: Self.withoutUserinfo(url))
        authorize(&request, firstURL: request.url)
        return request
    }

    /// Makes `request` carry the credentials of its own origin and no others: what a redirect calls, since
    /// URLSession copies every header of the request it redirects. `firstURL` is where the chain of redirects
    /// began: a `.netrc` login goes only to that request's own host, never after a redirect to another.
    public func authorize(_ request: inout URLRequest, firstURL: URL?) {
        if let url = request.url, url.user != nil || url.password != nil {
            request.url = Self.withoutUserinfo(url)
        }
        for name in credentialHeaderNames { request.setValue(nil, forHTTPHeaderField: name) }
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        guard let origin = Origin(request.url) else { return }
        let sameHost = Origin(firstURL).map { $0.host == origin.host } ?? false
        for field in fields(for: origin, netrc: sameHost) {
            request.setValue(field.value, forHTTPHeaderField: field.name)
        }
    }

    /// The credential headers a request to `origin` carries; with `netrc`, the `.netrc` login for its host
    /// (a named `machine`, or the `default` entry when `origin` is the subscription's own, `home`).
    func fields(for origin: Origin, netrc useNetrc: Bool = true) -> [(name: String, value: String)] {
        var fields = credentials.filter { $0.origin == origin.description }.flatMap(\.fields)
        guard useNetrc, !fields.contains(where: { $0.name.lowercased() == "authorization" }), let netrc else {
            return fields
        }
        if let login = netrc.machine(forHost: origin.host) ?? (origin == home ? netrc.fallback : nil) {
            fields += ShowCredentials(origin: origin, user: login.user, password: login.password ?? "").fields
        }
        return fields
    }

    /// Whether a `.netrc` `default` login, sent to `home`, is kept from `origin`: no `machine` entry covers its host.
    public func withholdsDefaultLogin(from origin: Origin) -> Bool {
        guard let netrc, netrc.fallback != nil, let home else { return false }
        return origin != home && netrc.machine(forHost: origin.host) == nil
    }

    /// Whether a request to `url`, in a chain of redirects that began at `firstURL`, carries credentials (what
    /// `authorize` gives it): a 401 to it then means they were refused, not missing.
    func sendsCredentials(to url: URL, firstURL: URL?) -> Bool {
        guard let origin = Origin(url) else { return false }
        let sameHost = Origin(firstURL).map { $0.host == origin.host } ?? false
        return !fields(for: origin, netrc: sameHost).isEmpty
    }

    /// Every header name a credential may set, so that a redirect elsewhere drops them all.
    private var credentialHeaderNames: Set<String> {
        var names: Set<String> = ["Authorization", "Cookie"]
        for credential in credentials {
            for field in credential.fields { names.insert(field.name) }
        }
        return names
    }

    private static func withoutUserinfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil else { return url }
        return URL(string: URLSecrets.withoutUserinfo(url.absoluteString)) ?? url
    }
}

/// How one transfer behaves on the wire beyond its first request: what its redirects carry, and how fast it
/// may read.
public struct TransferPolicy: Sendable, Equatable {
    /// The credentials each redirect gets (see `RequestProfile.authorize`); nil leaves redirects as URLSession
    /// makes them.
    public var profile: RequestProfile?
    /// The run's bandwidth cap, shared by every transfer of the run.
    public var throttle: Throttle?

    /// A policy; the default changes nothing.
    public init(profile: RequestProfile? = nil, throttle: Throttle? = nil) {
        self.profile = profile
        self.throttle = throttle
    }
}
