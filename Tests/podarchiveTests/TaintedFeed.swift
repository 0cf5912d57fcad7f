// A private show whose documents carry secrets everywhere issue 37 found them kept: the feed needs a token in its
// URL, a login or a bearer header; its enclosures carry tokens under every spelling (`authtoken`, `accesstoken`,
// `APITOKEN`, `token1`, Akamai's `hdnts=exp=…~hmac=…`) and under innocent names (`x`, `id`+`k`); its notes hold
// `&amp;token=` (RSS) or a plain `&token=` in `content_text` (JSON); its artwork, transcript, chapters and links
// carry tokens too; and its transcript's body holds the show's own secret. Written as RSS, or as JSON Feed the way
// Go's encoder (`\u0026`, `\u003c`, `\u003e`) and PHP's (`\/`) write it.
import Foundation
import TestSupport

struct TaintedFeed {
    /// How the feed proves who is reading it: a token in its URL, a login in its URL, a bearer header, or a login
    /// in a `.netrc` file given with `--netrc-file`.
    enum Access: String { case token, login, header, netrc }
    /// How the document is written.
    enum Format: String { case rss, goJSON, phpJSON }

    let access: Access
    let format: Format
    /// `http://127.0.0.1:PORT`, without a slash.
    let base: String
    /// Where the `.netrc` file is written, for `.netrc` access (it is the user's file, not podarchive's).
    var netrcFile: URL? = nil

    static let title = "Tainted Show"
    static let user = "member"

    // The show's own secrets: one per kind of access. Each holds `/`, `+` and `=` (and the login `&`), so that its
    // percent-encoded, JSON-escaped and XML-escaped spellings all differ from it, and what follows its `/` is as
    // distinctive as what comes before (a redaction that stops at an escaped `\/` leaves that part).
    static let feedToken = SoughtSecret("the feed's token (?auth=)", "FeedTok4Qz/FeedTail4+Y=")
    static let password = SoughtSecret(
        "the login's password", "PassWd5Rx/PassTail5+Z=&q",
        ownForms: [("base64 in a Basic login", Data("\(user):PassWd5Rx/PassTail5+Z=&q".utf8).base64EncodedString())])
    static let headerToken = SoughtSecret("the header's bearer token", "HdrTok6Jk/HdrTail6u+X=")

    // The document's own values, each under the name it is found with.
    static let authtoken = SoughtSecret("the enclosure's ?authtoken=", "AuthTokA1x/AuthTailA1+c=")
    static let accesstoken = SoughtSecret("the enclosure's ?accesstoken=", "AccTokB2y/AccTailB2d+e=")
    static let apitoken = SoughtSecret("the enclosure's ?APITOKEN=", "ApiTokC3z/ApiTailC3f+g=")
    static let token1 = SoughtSecret("the enclosure's ?token1=", "TokOneD4w/TokTailD4h+i=")
    static let hmac = SoughtSecret("the enclosure's Akamai hdnts hmac", "9f1c3b7a5e2d4c6b8a0f1e3d5c7b9a2e")
    static let innocentX = SoughtSecret("the enclosure's ?x= (an innocent name)", "XValE5vq/XTailE5vj+k=")
    static let homeValue = SoughtSecret("the show's web site's ?ref= (an innocent name)", "HomeValM3n/HomeTailM3+x=")
    static let episodeID = SoughtSecret("the enclosure's ?id= (an innocent name)", "77305194")
    static let innocentK = SoughtSecret("the enclosure's &k= beside ?id= (an innocent name)", "KValF6uw/KTailF6ul+m=")
    static let notesToken = SoughtSecret("the notes' &token= (a URL in a text field)", "DescTokG7t/DescTailG7+o=")
    static let artworkHmac = SoughtSecret("the episode artwork's hdnts hmac", "ArtHmac8s0a1b2c3d4e5")
    static let transcriptToken = SoughtSecret("the transcript URL's ?token1=", "TrnTokI9r/TrnTailI9p+q=")
    static let chaptersValue = SoughtSecret("the chapters URL's ?x= (an innocent name)", "ChpValJ0q/ChpTailJ0r+s=")
    static let coverToken = SoughtSecret("the show artwork's ?APITOKEN=", "CovTokK1p/CovTailK1t+u=")
    static let linkValue = SoughtSecret("the episode link's &k= (an innocent name)", "LnkValL2o/LnkTailL2v+w=")

    static let documentValues = [
        authtoken, accesstoken, apitoken, token1, hmac, innocentX, homeValue, episodeID, innocentK, notesToken,
        artworkHmac, transcriptToken, chaptersValue, coverToken, linkValue,
    ]

    /// The secret the show's access uses.
    var showSecret: SoughtSecret {
        switch access {
        case .token: Self.feedToken
        case .login, .netrc: Self.password
        case .header: Self.headerToken
        }
    }

    /// Everything that must be written nowhere: the show's secret and every value its documents' URLs carry.
    var secrets: [SoughtSecret] { [showSecret] + Self.documentValues }

    var feedPath: String { format == .rss ? "/feed.xml" : "/feed.json" }

    /// The feed's URL as the user gives it.
    var feedURL: String {
        switch access {
        case .token: base + feedPath + "?auth=" + Self.feedToken.percentEncoded
        case .login:
            base.replacingOccurrences(of: "http://", with: "http://\(Self.user):\(Self.password.percentEncoded)@")
                + feedPath
        case .header, .netrc: base + feedPath
        }
    }

    /// The options the access needs beside the URL.
    var accessArguments: [String] {
        switch access {
        case .header: ["--header", "Authorization: Bearer \(Self.headerToken.value)"]
        case .netrc: ["--netrc-file", netrcFile?.path ?? "netrc"]
        case .token, .login: []
        }
    }

    /// Writes the `.netrc` file `.netrc` access reads (0600, as a user keeps it).
    func writeNetrc() throws {
        guard access == .netrc, let netrcFile else { return }
        try Data("machine 127.0.0.1 login \(Self.user) password \(Self.password.value)\n".utf8).write(to: netrcFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: netrcFile.path)
    }

    // MARK: - What is served

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 200))
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 2, count: 200))
    static let chapters = Data(#"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Start"}]}"#.utf8)

    /// The transcript as served: the publisher's own file, whose body holds the show's secret.
    var transcript: Data {
        Data("WEBVTT\n\n00:00.000 --> 00:01.000\nMembers, your key is \(showSecret.value)\n".utf8)
    }

    /// The seven episodes: title, enclosure path with its query (as a URL holds it, before XML or JSON escaping),
    /// and the audio served.
    var episodes: [(title: String, path: String, audio: Data)] {
        let akamai = "exp=1767225600~acl=/*~hmac=" + Self.hmac.value
        return [
            ("One", "/one.mp3?authtoken=" + Self.authtoken.value),
            ("Two", "/two.mp3?accesstoken=" + Self.accesstoken.percentEncoded),
            ("Three", "/three.mp3?APITOKEN=" + Self.apitoken.value),
            ("Four", "/four.mp3?token1=" + Self.token1.percentEncoded),
            ("Five", "/five.mp3?hdnts=" + akamai),
            ("Six", "/six.mp3?x=" + Self.innocentX.value),
            ("Seven", "/seven.mp3?id=" + Self.episodeID.value + "&k=" + Self.innocentK.percentEncoded),
        ].enumerated().map { number, episode in
            (episode.0, episode.1, Data(repeating: UInt8(number + 1), count: 1500 + number))
        }
    }

    /// Every file the publisher serves beside the feed, by path, as served.
    var files: [String: Data] {
        var files = Dictionary(uniqueKeysWithValues: episodes.map { (String($0.path.prefix { $0 != "?" }), $0.audio) })
        files["/cover.png"] = Self.png
        files["/one.jpg"] = Self.jpeg
        files["/one.vtt"] = transcript
        files["/one.chapters.json"] = Self.chapters
        return files
    }

    /// Serves the feed (to a request that proves the access only, else 401) and its files on `server`.
    func serve(on server: TestHTTPServer) {
        let (body, type) = document()
        let access = access
        let password = Self.password.value
        server.route(feedPath) { request, _ in
            let authorization = request.headers["authorization"]
            let allowed: Bool
            switch access {
            case .token:
                let query = URLComponents(string: "http://host" + request.path)?.queryItems ?? []
                allowed = query.contains { $0.name == "auth" && $0.value == Self.feedToken.value }
            case .login, .netrc:
                allowed = authorization == "Basic " + Data("\(Self.user):\(password)".utf8).base64EncodedString()
            case .header:
                allowed = authorization == "Bearer " + Self.headerToken.value
            }
            return allowed ? .ok(body, type: type) : .status(401, "members only")
        }
        let types = ["mp3": "audio/mpeg", "png": "image/png", "jpg": "image/jpeg", "vtt": "text/vtt"]
        for (path, data) in files {
            let type = types[URL(fileURLWithPath: path).pathExtension] ?? "application/json"
            server.route(path, .ok(data, type: type))
        }
    }

    // MARK: - The document

    /// The notes of episodes One and Two: a URL whose `token` is given after an `&`.
    private var notes: String { "Notes. Listen at \(base)/listen?a=1&token=\(Self.notesToken.value) today." }

    /// The show's description, as private feeds write it: the member's own feed URL, and a page whose path holds the
    /// token when there is one.
    private var showDescription: String {
        "Your personal feed is \(feedURL) (keep it private)."
            + (access == .token ? " Manage it at \(base)/account/\(Self.feedToken.percentEncoded)/settings." : "")
    }

    private var episodeImage: String { "\(base)/one.jpg?hdnts=exp=1767225600~acl=/*~hmac=\(Self.artworkHmac.value)" }
    private var coverImage: String { "\(base)/cover.png?APITOKEN=\(Self.coverToken.percentEncoded)" }
    private var episodeLink: String { "\(base)/episode?id=1&k=\(Self.linkValue.value)" }

    func document() -> (body: String, type: String) {
        format == .rss ? (rss(), "application/rss+xml") : (json(), "application/feed+json")
    }

    private func rss() -> String {
        func xml(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var items = ""
        for (number, episode) in episodes.enumerated() {
            let enclosure = base + episode.path
            // Two's GUID is its enclosure URL, as many hosts write it.
            let guid =
                number == 1 ? "<guid isPermaLink=\"true\">\(xml(enclosure))</guid>" : "<guid>ep-\(number + 1)</guid>"
            items +=
                "<item><title>\(episode.title)</title>\(guid)<pubDate>Mon, 0\(number + 1) Dec 2025 08:00:00 GMT"
                + "</pubDate><enclosure url=\"\(xml(enclosure))\" length=\"\(episode.audio.count)\" type=\"audio/mpeg\"/>"
            // Two's notes too: the site finds an episode whose GUID is kept as a keyed hash by its sidecar.
            if number < 2 { items += "<description>\(xml(notes))</description>" }
            if number == 0 {
                items +=
                    "<link>\(xml(episodeLink))</link>"
                    + "<itunes:image href=\"\(xml(episodeImage))\"/>"
                    + "<podcast:transcript url=\"\(xml(base + "/one.vtt?token1=" + Self.transcriptToken.percentEncoded))\" "
                    + "type=\"text/vtt\"/><podcast:chapters url=\"\(xml(base + "/one.chapters.json?x=" + Self.chaptersValue.value))\" "
                    + "type=\"application/json+chapters\"/>"
            }
            items += "</item>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>\(Self.title)</title>
            <link>\(xml(base + "/home?ref=" + Self.homeValue.value))</link>
            <description>\(xml(showDescription))</description>
            <itunes:image href="\(xml(coverImage))"/>
            \(items)</channel></rss>
            """
    }

    private func json() -> String {
        var items: [[String: Any]] = []
        for (number, episode) in episodes.enumerated() {
            let enclosure = base + episode.path
            var item: [String: Any] = [
                "id": number == 1 ? enclosure : "ep-\(number + 1)", "title": episode.title,
                "date_published": "2025-12-0\(number + 1)T08:00:00Z",
                "attachments": [["url": enclosure, "mime_type": "audio/mpeg", "size_in_bytes": episode.audio.count]],
            ]
            if number < 2 {
                item["content_text"] = notes
                item["content_html"] =
                    "<p>Listen <a href=\"\(base)/listen?a=1&amp;token=\(Self.notesToken.value)\">here</a></p>"
            }
            if number == 0 {
                item["url"] = episodeLink
                item["image"] = episodeImage
            }
            items.append(item)
        }
        let object: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": Self.title,
            "home_page_url": base + "/home?ref=" + Self.homeValue.value, "feed_url": feedURL,
            "description": showDescription, "icon": coverImage, "items": items,
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        let plain = String(decoding: data, as: UTF8.self)
        // Every `&`, `<`, `>` and `/` of the document is inside a string, so each encoder's escaping is a plain
        // replacement.
        switch format {
        case .goJSON:
            return plain.replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(of: "<", with: "\\u003c")
                .replacingOccurrences(of: ">", with: "\\u003e")
        case .phpJSON: return plain.replacingOccurrences(of: "/", with: "\\/")
        case .rss: preconditionFailure("not JSON")
        }
    }
}
