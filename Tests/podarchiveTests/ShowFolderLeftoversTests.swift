import Foundation
import TestSupport
import XCTest

// What 0.1.0 (and a write that could not be staged in the state folder) left beside a show's episodes: temporary
// files of a killed `site` or sidecar write, under the names 0.1.0 gave them. The next sync, holding the show's
// lock, removes them from the listing of the folder it makes anyway; nothing else there is touched.
@testable import ArchiverCore
@testable import podarchive

final class ShowFolderLeftoversTests: CommandLineTestCase {
    private var show: URL { folder.url.appendingPathComponent("archive/Probe") }

    private func serve() {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Probe</title>
                <item><title>One</title><guid>1</guid><enclosure url="/1.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/1.mp3", .ok(Data("audio one".utf8)))
    }

    func test_leftoversOf010BesideTheEpisodes_areRemovedByTheNextSync_andNothingElse() async throws {
        serve()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--metadata")
        XCTAssertEqual(synced, .success, errors.text)
        // A PID no process has (above the kernel's largest), and the names 0.1.0 gave its temporary files.
        let dead: Int32 = 4_000_000
        let leftovers = [".index.html.tmp-\(dead)", ".feed.xml.tmp-\(dead)", ".One.info.json.tmp-\(dead)"]
        // One a live process (this one) is writing, and a file that only looks hidden.
        let kept = [".index.html.tmp-\(getpid())", ".hidden notes.txt"]
        for name in leftovers + kept { try Data("x".utf8).write(to: show.appendingPathComponent(name)) }

        let again = await run("sync", "--to", "archive", "--metadata")

        XCTAssertEqual(again, .success, errors.text)
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: show.path))
        XCTAssertEqual(present.intersection(leftovers), [], "a killed process's temporary files are removed")
        XCTAssertEqual(present.intersection(kept), Set(kept), "a live process's, and other files, stay")
        XCTAssertTrue(present.contains("One.mp3"))
    }
}
