import Foundation
import XCTest

// Credentials in pieces: where a URL hides a login or a token, how a .netrc file reads, which requests carry
// what, and the bandwidth cap's arithmetic. The end-to-end proofs are in podarchiveTests/PrivateFeedTests.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class CredentialsTests: XCTestCase {
    // MARK: - URLs

    func test_userinfo_isSplitOffAndDecoded() throws {
        let text = "https://alice:p%40ss%3Aword@feeds.example/show.xml?x=1"
        let login = try XCTUnwrap(URLSecrets.userinfo(of: text))
        XCTAssertEqual(login.user, "alice")
        XCTAssertEqual(login.password, "p@ss:word")
        XCTAssertEqual(URLSecrets.withoutUserinfo(text), "https://feeds.example/show.xml?x=1")
        XCTAssertNil(URLSecrets.userinfo(of: "https://feeds.example/a@b.mp3"), "an @ in the path is no login")
        XCTAssertEqual(URLSecrets.withoutUserinfo("https://feeds.example/a@b.mp3"), "https://feeds.example/a@b.mp3")
        XCTAssertEqual(URLSecrets.userinfo(of: "http://token@h/")?.user, "token")
        XCTAssertNil(URLSecrets.userinfo(of: "http://token@h/")?.password)
    }

    /// The one redaction rule, as a table: every URL podarchive shows or keeps goes through it.
    func test_redacted_table_hidesLoginsAndEverySecretParameter_keepsTheRest() {
        let table: [(String, String)] = [
            (
                "https://u:pw@h.example/feed?auth=abc&page=2&API_KEY=k#top",
                "https://h.example/feed?auth=REDACTED&page=2&API_KEY=REDACTED#top"
            ),
            // Any position, any number of them.
            ("http://h/e.mp3?a=1&token=t&b=2&sig=s", "http://h/e.mp3?a=1&token=REDACTED&b=2&sig=REDACTED"),
            // However the & is escaped (OPML and HTML attributes).
            ("http://h/f?a=1&amp;token=t&amp;key=k", "http://h/f?a=1&amp;token=REDACTED&amp;key=REDACTED"),
            ("http://h/f?a=1&#38;token=t&#x26;session=s", "http://h/f?a=1&#38;token=REDACTED&#x26;session=REDACTED"),
            (
                "http://h/f?a=1&AMP;token=t&#X26;key=k&Amp;b=2",
                "http://h/f?a=1&AMP;token=REDACTED&#X26;key=REDACTED&Amp;b=2"
            ),
            ("http://h/f?a=1&am;token=t", "http://h/f?a=1&am;token=REDACTED"),
            ("http://h/f?a=1;token=t", "http://h/f?a=1;token=REDACTED"),
            // Matrix parameters in the path, and fragment parameters.
            ("http://h/app;jsessionid=ABC123/e.mp3", "http://h/app;jsessionid=REDACTED/e.mp3"),
            ("http://h/a;v=2;sessionid=x/b;c=3", "http://h/a;v=2;sessionid=REDACTED/b;c=3"),
            ("http://h/cb#access_token=xyz&state=1", "http://h/cb#access_token=REDACTED&state=1"),
            ("http://h/e.mp3#token=x", "http://h/e.mp3#token=REDACTED"),
            // Signed cloud URLs.
            (
                "https://b.s3.amazonaws.com/e.mp3?X-Amz-Algorithm=AWS4&X-Amz-Credential=AK%2F1&X-Amz-Signature=ff",
                "https://b.s3.amazonaws.com/e.mp3?X-Amz-Algorithm=REDACTED&X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED"
            ),
            (
                "https://storage.googleapis.com/b/e.mp3?X-Goog-Signature=ab",
                "https://storage.googleapis.com/b/e.mp3?X-Goog-Signature=REDACTED"
            ),
            // Names that look secret in any spelling; names that merely contain the letters do not.
            (
                "http://h/e?jwt=a&pass=b&password=c&secret=d&code=e&apikey=f",
                "http://h/e?jwt=REDACTED&pass=REDACTED&password=REDACTED&secret=REDACTED&code=REDACTED&apikey=REDACTED"
            ),
            (
                "http://h/e?token-hash=a&tokenTime=b&client_secret=c&Signature=d",
                "http://h/e?token-hash=REDACTED&tokenTime=REDACTED&client_secret=REDACTED&Signature=REDACTED"
            ),
            (
                "http://h/e.mp3?keyword=x&monkey=y&passage=z&page=2",
                "http://h/e.mp3?keyword=x&monkey=y&passage=z&page=2"
            ),
            ("http://h/e.mp3?%74oken=x", "http://h/e.mp3?%74oken=REDACTED"),
            // Nothing to hide: unchanged, an empty value included.
            ("https://h.example/feed.xml", "https://h.example/feed.xml"),
            ("http://h/e.mp3?token=", "http://h/e.mp3?token="),
            ("https://h.example/a@b.mp3", "https://h.example/a@b.mp3"),
        ]
        for (url, shown) in table {
            XCTAssertEqual(URLSecrets.redacted(url), shown, url)
            XCTAssertEqual(URLSecrets.hasSecret(url), url != shown, url)
            XCTAssertEqual(URLSecrets.redacted(shown), shown, "redacting twice changes nothing: \(shown)")
        }
    }

    func test_carriesRedaction_tellsAnAddressAsShownFromOneToFetch() {
        XCTAssertTrue(URLSecrets.carriesRedaction("http://h/f?token=REDACTED"))
        XCTAssertTrue(URLSecrets.carriesRedaction("http://h/f?a=1&amp;key=REDACTED"))
        XCTAssertFalse(URLSecrets.carriesRedaction("http://h/f?token=abc"))
        XCTAssertTrue(URLSecrets.carriesRedaction("http://h/épisode?a==REDACTED"), "after another '=', past é")
        XCTAssertFalse(URLSecrets.carriesRedaction("http://h/f?token=REDACTE"), "cut short")
        XCTAssertFalse(URLSecrets.carriesRedaction("http://h/f?token=redacted"), "another case is a value")
        XCTAssertFalse(URLSecrets.carriesRedaction("http://h/REDACTED?="), "not a parameter's value")
        XCTAssertFalse(URLSecrets.carriesRedaction(""))
    }

    func test_redactingURLs_inAMessage_findsEveryURL() {
        let message = #"failed <https://bob:hunter2@h/e.mp3?token=t0k> then "http://h/f?sig=zz", ok http://plain/x"#
        let shown = TextSecrets.redactingURLs(in: message)
        XCTAssertEqual(
            shown, #"failed <https://h/e.mp3?token=REDACTED> then "http://h/f?sig=REDACTED", ok http://plain/x"#)
        XCTAssertFalse(shown.contains("hunter2"))
        let plain = "nothing to hide at https://h/e.mp3 here"
        XCTAssertEqual(TextSecrets.redactingURLs(in: plain), plain)
        let opml =
            #"<outline xmlUrl="http://h/f?a=1&amp;token=S3"/> and http://h/x;jsessionid=J2 and http://h/y#jwt=J3"#
        let redacted = TextSecrets.redactingURLs(in: opml)
        for secret in ["S3", "J2", "J3"] { XCTAssertFalse(redacted.contains(secret), redacted) }
    }

    func test_redactingURLs_inADocument_findsRelativeURLsSecretsToo() {
        // A feed as the history keeps it: relative URLs have no scheme to find them by.
        let feed = """
            <itunes:image href="/cover.png?token=T1"/><enclosure url="ep.mp3?a=1&amp;key=K2&amp;b=2"/>
            {"url": "e.mp3?X-Amz-Signature=A3#jwt=J4"} <link>/page;jsessionid=S5</link> ?q=plain&page=2
            """
        let kept = String(decoding: TextSecrets.redactingURLs(in: Data(feed.utf8)), as: UTF8.self)
        XCTAssertEqual(
            kept,
            """
            <itunes:image href="/cover.png?token=REDACTED"/><enclosure url="ep.mp3?a=1&amp;key=REDACTED&amp;b=2"/>
            {"url": "e.mp3?X-Amz-Signature=REDACTED#jwt=REDACTED"} <link>/page;jsessionid=REDACTED</link> \
            ?q=plain&page=2
            """)
        let plain = Data(#"<rss><item><enclosure url="e.mp3?v=2"/></item></rss>"#.utf8)
        XCTAssertEqual(TextSecrets.redactingURLs(in: plain), plain, "a document with no secret is kept byte for byte")
    }

    // MARK: - .netrc

    func test_netrc_readsMachinesDefaultQuotesAndSkipsMacros() {
        let netrc = Netrc(
            parsing: """
                machine feeds.example login alice password "s3 cret"
                macdef init
                machine evil.example login x password y

                machine CDN.example
                  login bob
                  password pw2
                machine feeds.example login second password ignored
                default login anon password none
                """)
        XCTAssertEqual(netrc.login(forHost: "feeds.example"), Netrc.Login(user: "alice", password: "s3 cret"))
        XCTAssertEqual(netrc.login(forHost: "cdn.example"), Netrc.Login(user: "bob", password: "pw2"))
        XCTAssertEqual(netrc.login(forHost: "evil.example")?.user, "anon", "a macro's text is no entry")
        XCTAssertEqual(netrc.login(forHost: "other.example")?.user, "anon")
        XCTAssertNil(Netrc(parsing: "machine a login u").login(forHost: "b"))
    }

    // MARK: - Which requests carry what

    private let feedOrigin = Origin("https://feeds.example/show.xml")!

    func test_request_carriesTheLoginAndHeaders_onlyToTheirOrigin() {
        let profile = RequestProfile(
            userAgent: "Agent/1",
            credentials: [
                ShowCredentials(
                    origin: feedOrigin, user: "alice", password: "s3cret",
                    headers: ["Authorization: Bearer tok", "Referer: https://feeds.example/"])
            ])
        let same = profile.request(for: URL(string: "https://feeds.example:443/e.mp3")!)
        XCTAssertEqual(same.value(forHTTPHeaderField: "Authorization"), "Bearer tok", "a header given wins")
        XCTAssertEqual(same.value(forHTTPHeaderField: "Referer"), "https://feeds.example/")
        XCTAssertEqual(same.value(forHTTPHeaderField: "User-Agent"), "Agent/1")
        for other in ["http://feeds.example/e.mp3", "https://feeds.example:8443/e.mp3", "https://cdn.example/e.mp3"] {
            let request = profile.request(for: URL(string: other)!)
            XCTAssertNil(request.value(forHTTPHeaderField: "Authorization"), other)
            XCTAssertNil(request.value(forHTTPHeaderField: "Referer"), other)
            XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "Agent/1", other)
        }
    }

    func test_basicLogin_isEncoded_andAURLsOwnLoginNeverTravelsInTheURL() throws {
        let profile = RequestProfile(credentials: [
            ShowCredentials(origin: feedOrigin, user: "alice", password: "s3cret")
        ])
        let request = profile.request(for: URL(string: "https://x:y@feeds.example/show.xml")!)
        XCTAssertEqual(request.url?.absoluteString, "https://feeds.example/show.xml")
        XCTAssertEqual(
            request.value(forHTTPHeaderField: "Authorization"),
            "Basic " + Data("alice:s3cret".utf8).base64EncodedString())
    }

    func test_redirect_dropsCredentialsLeavingTheOrigin_andFindsThemComingBack() {
        let profile = RequestProfile(
            credentials: [ShowCredentials(origin: feedOrigin, user: "alice", password: "pw", headers: ["X-Token: t"])],
            netrc: Netrc(parsing: "machine cdn.example login bob password pw2"))
        let first = URL(string: "https://feeds.example/e.mp3")!
        var request = profile.request(for: first)
        request.setValue("bytes=10-", forHTTPHeaderField: "Range")
        request.url = URL(string: "https://other.example/e.mp3")  // what URLSession makes of a redirect
        profile.authorize(&request, firstURL: first)
        XCTAssertNil(request.value(forHTTPHeaderField: "Authorization"))
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Token"))
        XCTAssertEqual(request.value(forHTTPHeaderField: "Range"), "bytes=10-", "other headers stay")
        request.url = URL(string: "https://cdn.example/e.mp3")
        profile.authorize(&request, firstURL: first)
        XCTAssertNil(
            request.value(forHTTPHeaderField: "Authorization"), "a netrc login never follows a redirect to its host")
        request.url = URL(string: "https://feeds.example/e2.mp3")
        profile.authorize(&request, firstURL: first)
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Token"), "t")
        let direct = profile.request(for: URL(string: "https://cdn.example/e.mp3")!)
        XCTAssertEqual(
            direct.value(forHTTPHeaderField: "Authorization"), "Basic " + Data("bob:pw2".utf8).base64EncodedString(),
            "a netrc login goes to the host it names")
    }

    func test_netrcDefault_goesToTheSubscriptionsOwnOriginOnly() {
        var profile = RequestProfile(netrc: Netrc(parsing: "default login anon password open"))
        profile.home = feedOrigin
        let anon = "Basic " + Data("anon:open".utf8).base64EncodedString()
        XCTAssertEqual(
            profile.request(for: URL(string: "https://feeds.example/feed.xml")!)
                .value(forHTTPHeaderField: "Authorization"), anon)
        for elsewhere in ["https://cdn.example/e.mp3", "http://feeds.example/e.mp3", "https://feeds.example:8443/e"] {
            XCTAssertNil(
                profile.request(for: URL(string: elsewhere)!).value(forHTTPHeaderField: "Authorization"), elsewhere)
        }
    }

    func test_headers_thatAreNoHeaders_areRefused() {
        XCTAssertNil(ShowCredentials.parseHeader("no colon"))
        XCTAssertNil(ShowCredentials.parseHeader(": empty name"))
        XCTAssertNil(ShowCredentials.parseHeader("Bad Name: x"))
        XCTAssertNil(ShowCredentials.parseHeader("X-A: b\r\nX-Injected: c"))
        XCTAssertEqual(ShowCredentials.parseHeader("Cookie:  a=b; c=d ")?.value, "a=b; c=d")
    }

    func test_savedCredentials_newerLoginOrHeadersReplaceTheirPartOnly() {
        let saved = ShowCredentials(origin: feedOrigin, user: "alice", password: "old", headers: ["A: 1"])
        let newer = ShowCredentials(origin: feedOrigin, user: "alice", password: "new")
        XCTAssertEqual(saved.overlaid(by: newer).password, "new")
        XCTAssertEqual(saved.overlaid(by: newer).headers, ["A: 1"])
        let moved = ShowCredentials(origin: Origin("https://new.example/")!, headers: ["B: 2"])
        XCTAssertEqual(saved.overlaid(by: moved), moved)
    }

    func test_feedLogins_areLiftedOutOfEnclosureURLs() throws {
        let feed = try FeedParser.parse(
            Data(
                """
                <rss><channel><title>T</title>
                <item><guid>1</guid><enclosure url="https://carol:pw3@media.example/1.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """.utf8), url: URL(string: "https://feeds.example/show.xml"))
        XCTAssertEqual(feed.episodes.first?.url, "https://media.example/1.mp3")
        XCTAssertEqual(
            feed.logins, [ShowCredentials(origin: Origin("https://media.example/")!, user: "carol", password: "pw3")])
    }

    // MARK: - Bandwidth

    func test_throttle_pausesForWhatTheRateAllows_acrossCallers_withoutSavingUpIdleTime() {
        let clock = ManualSeconds()
        let throttle = Throttle(bytesPerSecond: 1000, clock: clock.read, pause: clock.advance)
        throttle.wait(for: 500)
        XCTAssertEqual(clock.now, 0.5, accuracy: 1e-9)
        throttle.wait(for: 1500)
        XCTAssertEqual(clock.now, 2.0, accuracy: 1e-9)
        XCTAssertLessThanOrEqual(clock.longestPause, 0.1 + 1e-9, "waits in slices, so a cancelled transfer stops")
        clock.advance(10)  // idle
        throttle.wait(for: 1000)
        XCTAssertEqual(clock.now, 13.0, accuracy: 1e-9, "ten idle seconds buy no burst")
        var checks = 0
        throttle.wait(for: 5000) {
            checks += 1
            return checks > 3
        }
        XCTAssertEqual(clock.now, 13.3, accuracy: 1e-9, "stops waiting once told the transfer is over")
    }
}

/// A clock that moves only when paused on.
private final class ManualSeconds: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0.0
    private var longest = 0.0
    var now: Double { lock.withLock { value } }
    var longestPause: Double { lock.withLock { longest } }
    var read: @Sendable () -> Double { { [self] in now } }
    var advance: @Sendable (Double) -> Void {
        { [self] seconds in
            lock.withLock {
                value += seconds
                longest = max(longest, seconds)
            }
        }
    }
    func advance(_ seconds: Double) { lock.withLock { value += seconds } }
}
