// Two feeds of one show on a loopback server, for the tests that keep both: a public feed and a members (ad-free)
// one with the same title and episode GUIDs, the members feed with a bonus episode, each enclosure's bytes saying
// which feed served them.
import Foundation
import TestSupport

/// The two feeds of "Twin Show" served by `server`.
struct TwinShow {
    let server: TestHTTPServer

    /// The episodes of `variant` ("public" or "members").
    static func episodes(_ variant: String) -> [String] {
        variant == "members" ? ["One", "Two", "Bonus"] : ["One", "Two"]
    }

    /// The bytes `variant` serves for `episode`.
    static func bytes(_ variant: String, _ episode: String) -> Data { Data("\(variant) audio of \(episode)".utf8) }

    /// Serves `/<variant>.xml` and its episodes; with `token`, each answers 403 to a request without
    /// `?token=<token>`, and with `bearer`, to one without `Authorization: Bearer <bearer>`.
    func serve(_ variant: String, token: String? = nil, bearer: String? = nil) {
        let query = token.map { "?token=\($0)" } ?? ""
        var xml = "<rss version=\"2.0\"><channel><title>Twin Show</title>"
        for episode in Self.episodes(variant) {
            xml +=
                "<item><title>\(episode)</title><guid>\(episode.lowercased())</guid>"
                + "<enclosure url=\"/\(variant)/\(episode).mp3\(query)\" type=\"audio/mpeg\"/></item>"
        }
        let document = xml + "</channel></rss>"
        func guarded(_ response: TestResponse) -> @Sendable (RecordedRequest, Int) -> TestResponse {
            { request, _ in
                let authorized = bearer == nil || request.headers["authorization"] == "Bearer \(bearer ?? "")"
                return request.path.hasSuffix(query) && authorized ? response : .status(403, "forbidden")
            }
        }
        server.route("/\(variant).xml", handler: guarded(.ok(document, type: "application/rss+xml")))
        for episode in Self.episodes(variant) {
            server.route("/\(variant)/\(episode).mp3", handler: guarded(.ok(Self.bytes(variant, episode))))
        }
    }

    /// The feed URL of `variant`, with `token` when given ("REDACTED": as output shows it).
    func url(_ variant: String, token: String? = nil) -> String {
        server.url("/\(variant).xml").absoluteString + (token.map { "?token=\($0)" } ?? "")
    }

    /// The episode files in `folder` of the archive at `root`, by name.
    static func files(in folder: String, of root: URL) -> [String: Data] {
        let url = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.filter { $0.hasSuffix(".mp3") }.map {
                ($0, (try? Data(contentsOf: url.appendingPathComponent($0))) ?? Data())
            })
    }
}
