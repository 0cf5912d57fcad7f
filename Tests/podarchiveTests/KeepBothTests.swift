import Foundation
import TestSupport
import XCTest

// Keeping both feeds of a show, end to end on loopback, as a user follows the line that says another URL took a
// subscription over: a members (ad-free) feed with the public feed's title and GUIDs takes over the public feed's
// subscription, then the command the line names, run exactly as printed (the archive named by $PODARCHIVE_DIR, a
// private feed's token redacted), keeps each feed in a folder of its own holding only its own bytes, and no later
// run re-points either. And two shows of one title read apart wherever output names them.
@testable import ArchiverCore
@testable import podarchive

final class KeepBothTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private var environment: [String: String] { ["PODARCHIVE_DIR": root] }
    private let publicToken = "PUBLICSECRET7"
    private let membersToken = "MEMBERSSECRET9"

    private var twins: TwinShow { TwinShow(server: server) }
    private func serve(_ variant: String, token: String? = nil) { twins.serve(variant, token: token) }
    private func bytes(_ variant: String, _ episode: String) -> Data { TwinShow.bytes(variant, episode) }
    private func url(_ variant: String, token: String? = nil) -> String { twins.url(variant, token: token) }
    private func contents(_ folder: String) -> [String: Data] {
        TwinShow.files(in: folder, of: URL(fileURLWithPath: root))
    }

    private func feeds() async throws -> [[String: Any]] {
        output.clear()
        let code = await run(["feeds", "--json"], variables: environment)
        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
    }

    /// The command the takeover line names, as its words: what a user copies from it.
    private func keepBothCommand(in lines: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String]
    {
        let said = try XCTUnwrap(
            lines.split(separator: "\n").first { $0.contains("is no longer fetched") }, lines, file: file, line: line)
        let command = try XCTUnwrap(
            said.range(of: "podarchive ").map { said[$0.upperBound...] }, file: file, line: line)
        return command.dropLast().split(separator: " ").map(String.init)
    }

    private func requests(_ path: String) -> Int { server.requests.filter { $0.path.hasPrefix(path) }.count }

    func test_aPrivateMembersFeedTookOverThePublicOne_theLinesCommandAsPrinted_keepsEachInAFolderOfItsOwn()
        async throws
    {
        serve("public", token: publicToken)
        serve("members", token: membersToken)
        let first = await run(["sync", url("public", token: publicToken)], variables: environment)
        output.clear()
        let tookOver = await run(["sync", url("members", token: membersToken)], variables: environment)
        let takeoverLines = output.text
        let command = try keepBothCommand(in: takeoverLines)
        let feedsBefore = try await feeds()

        output.clear()
        let kept = await run(command, variables: environment)
        let keptLines = output.text
        let synced = await run(["sync"], variables: environment)
        let again = await run(["sync", url("members", token: membersToken)], variables: environment)
        let shows = try await feeds()

        XCTAssertEqual(
            [first, tookOver, kept, synced, again], [.success, .success, .success, .success, .success],
            errors.text)
        let (publicShown, membersShown) = (url("public", token: "REDACTED"), url("members", token: "REDACTED"))
        XCTAssertEqual(command, ["add", membersShown, "--separate"], takeoverLines)
        XCTAssertEqual(feedsBefore.map { $0["earlierFeed"] as? String }, [publicShown], "feeds says it too")
        XCTAssertEqual(
            keptLines,
            "both kept, each in a folder of its own: <\(publicShown)> in Twin Show/, where its files are, and "
                + "<\(membersShown)> in Twin Show (2)/, kept apart (its next sync fetches its episodes there)\n"
                + "subscribed \(membersShown) into Twin Show (2)/\n")
        XCTAssertEqual(
            Set(shows.map { [$0["feed"] as? String, $0["folder"] as? String] }),
            [[publicShown, "Twin Show"], [membersShown, "Twin Show (2)"]])
        XCTAssertEqual(
            shows.filter { $0["separate"] as? Bool == true }.map { $0["folder"] as? String }, ["Twin Show (2)"])
        XCTAssertEqual(shows.map { $0["earlierFeed"] is NSNull }, [true, true])
        // Each folder its own feed's bytes; the bonus the members feed brought while it held the public folder stays
        // there, and is fetched again into its own.
        XCTAssertEqual(
            contents("Twin Show"),
            [
                "One.mp3": bytes("public", "One"), "Two.mp3": bytes("public", "Two"),
                "Bonus.mp3": bytes("members", "Bonus"),
            ])
        XCTAssertEqual(
            contents("Twin Show (2)"),
            [
                "One.mp3": bytes("members", "One"), "Two.mp3": bytes("members", "Two"),
                "Bonus.mp3": bytes("members", "Bonus"),
            ])
        XCTAssertEqual(requests("/public/"), 2, "the public episodes once")
        XCTAssertEqual(requests("/members/One.mp3"), 1)
        XCTAssertEqual(requests("/members/Bonus.mp3"), 2)
        XCTAssertEqual(server.requests.filter { $0.path.contains("REDACTED") }, [], "no redacted URL is fetched")
        XCTAssertFalse(output.text.contains(publicToken) || errors.text.contains(membersToken))
        XCTAssertEqual(
            try SecretSearch.files(under: URL(fileURLWithPath: root), holding: [publicToken, membersToken]), [])
    }

    func test_namingTheURLThatWasTakenOver_keepsBothTheSameWay() async throws {
        serve("public")
        serve("members")
        _ = await run(["sync", url("public")], variables: environment)
        _ = await run(["sync", url("members")], variables: environment)

        output.clear()
        let kept = await run(["add", url("public"), "--separate"], variables: environment)
        let keptLines = output.text
        let synced = await run(["sync"], variables: environment)
        let shows = try await feeds()

        XCTAssertEqual([kept, synced], [.success, .success], errors.text)
        XCTAssertTrue(keptLines.hasSuffix("subscribed \(url("public")) into Twin Show/\n"), keptLines)
        XCTAssertEqual(
            Set(shows.map { [$0["feed"] as? String, $0["folder"] as? String] }),
            [[url("public"), "Twin Show"], [url("members"), "Twin Show (2)"]])
        XCTAssertEqual(
            shows.filter { $0["separate"] as? Bool == true }.map { $0["folder"] as? String }, ["Twin Show (2)"])
        XCTAssertEqual(contents("Twin Show")["One.mp3"], bytes("public", "One"))
        XCTAssertEqual(contents("Twin Show (2)")["One.mp3"], bytes("members", "One"))
        XCTAssertEqual(requests("/public/"), 2, "nothing of the public feed fetched twice")
    }

    func test_afterThePublicFeedTookItBack_theLinesCommandKeepsTheFolderWithThePublicFeed() async throws {
        serve("public", token: publicToken)
        serve("members", token: membersToken)
        _ = await run(["sync", url("public", token: publicToken)], variables: environment)
        _ = await run(["sync", url("members", token: membersToken)], variables: environment)
        output.clear()
        let back = await run(["sync", url("public", token: publicToken)], variables: environment)
        let command = try keepBothCommand(in: output.text)

        let kept = await run(command, variables: environment)
        let synced = await run(["sync"], variables: environment)
        let shows = try await feeds()

        XCTAssertEqual([back, kept, synced], [.success, .success, .success], errors.text)
        let (publicShown, membersShown) = (url("public", token: "REDACTED"), url("members", token: "REDACTED"))
        XCTAssertEqual(command, ["add", publicShown, "--separate"])
        XCTAssertEqual(
            Set(shows.map { [$0["feed"] as? String, $0["folder"] as? String] }),
            [[publicShown, "Twin Show"], [membersShown, "Twin Show (2)"]])
        XCTAssertEqual(contents("Twin Show")["One.mp3"], bytes("public", "One"))
        XCTAssertEqual(contents("Twin Show (2)")["One.mp3"], bytes("members", "One"))
    }

    func test_theTakenOverURLsTokenLost_isAskedForByName_andGivenAgainKeepsBoth() async throws {
        serve("public", token: publicToken)
        serve("members", token: membersToken)
        _ = await run(["sync", url("public", token: publicToken)], variables: environment)
        _ = await run(["sync", url("members", token: membersToken)], variables: environment)
        // The configuration folder lost what it kept of the public feed (copied from elsewhere, say).
        let credentials = configurationFolder.appendingPathComponent("credentials")
        let names = try FileManager.default.contentsOfDirectory(atPath: credentials.path)
        XCTAssertEqual(names.count, 1, "\(names)")
        let credentialsFile = credentials.appendingPathComponent(try XCTUnwrap(names.first))
        var kept = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: credentialsFile)) as? [String: Any])
        kept["earlierFeed"] = nil
        try JSONSerialization.data(withJSONObject: kept).write(to: credentialsFile)
        let recordsBefore = try await feeds()

        errors.clear()
        let refused = await run(["add", url("members", token: "REDACTED"), "--separate"], variables: environment)
        let refusal = errors.text
        let recordsAfter = try await feeds()
        let given = await run(["add", url("public", token: publicToken), "--separate"], variables: environment)
        let synced = await run(["sync"], variables: environment)
        let shows = try await feeds()

        XCTAssertEqual(refused, .feedFailed, refusal)
        XCTAssertTrue(refusal.contains("<\(url("public", token: "REDACTED"))>"), refusal)
        XCTAssertEqual(
            refusal,
            "podarchive: the token of <\(url("public", token: "REDACTED"))>, which Twin Show/ was fetched from before "
                + "another URL of the show took it over, is not in \(credentialsFile.path): give that URL again with its "
                + "token to keep both ('podarchive add URL --separate')\n")
        XCTAssertFalse(refusal.contains(publicToken))
        XCTAssertEqual(recordsAfter.map { $0["feed"] as? String }, recordsBefore.map { $0["feed"] as? String })
        XCTAssertEqual([given, synced], [.success, .success], errors.text)
        XCTAssertEqual(
            Set(shows.map { [$0["feed"] as? String, $0["folder"] as? String] }),
            [[url("public", token: "REDACTED"), "Twin Show"], [url("members", token: "REDACTED"), "Twin Show (2)"]])
        XCTAssertEqual(contents("Twin Show (2)")["One.mp3"], bytes("members", "One"))
    }

    func test_twoShowsOfOneTitle_readApart_inSummariesAndFeeds() async throws {
        serve("public")
        serve("members")
        _ = await run(["add", url("public")], variables: environment)
        _ = await run(["add", url("members"), "--separate"], variables: environment)

        output.clear()
        let synced = await run(["sync"], variables: environment)
        let summaries = output.text.split(separator: "\n").filter { $0.contains(" archived, ") }
        output.clear()
        _ = await run(["feeds"], variables: environment)
        let headings = output.text.split(separator: "\n").filter { !$0.hasPrefix(" ") }

        XCTAssertEqual(synced, .success, errors.text)
        XCTAssertEqual(
            Set(summaries),
            [
                "Twin Show: 2 archived, 0 already archived",
                "Twin Show (in Twin Show (2)/): 3 archived, 0 already archived",
            ])
        XCTAssertEqual(
            Set(headings.map { $0.split(separator: ":").first.map(String.init) }),
            ["Twin Show", "Twin Show (in Twin Show (2)/)"])
    }
}
