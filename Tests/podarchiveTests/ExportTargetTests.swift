import Foundation
import TestSupport
import XCTest

// `export` writes only where it is told, and never into the archive's own state: a target inside the root's
// `.podarchive` or any show folder (through a link too, for a file that does not exist yet) is refused, and
// `--show` names a show of the archive, never a folder outside it (issue 37, point 4).
@testable import ArchiverCore
@testable import podarchive

final class ExportTargetTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { root.appendingPathComponent("CLI Show") }
    private let manager = FileManager.default

    /// An archive of one show with one episode.
    private func makeArchive() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 3000)))
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        output.clear()
    }

    /// Every file under `folder` with its bytes, to compare before and after.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try SecretSearch.allFiles(under: folder) {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    func test_aTargetInsideTheArchivesStateFolder_isRefused_andTheStateIsUntouched() async throws {
        try await makeArchive()
        let state = root.appendingPathComponent(".podarchive")
        let records = try manager.contentsOfDirectory(atPath: state.appendingPathComponent("feeds").path)
        let record = try XCTUnwrap(records.first { $0.hasSuffix(".json") })
        let before = try snapshot(root)
        let targets = [
            state.appendingPathComponent("archive.json"), state.appendingPathComponent("feeds/\(record)"),
            state.appendingPathComponent("new.warc"),
        ]

        for target in targets {
            errors.clear()
            let status = await run("export", "--warc", target.path, root.path)

            XCTAssertEqual(status, .usage, target.path)
            XCTAssertEqual(
                errors.lines,
                [
                    "podarchive: the export \(target.path) would be written inside the archive's state folder "
                        + "\(state.path): name a file outside it"
                ])
        }
        XCTAssertEqual(try snapshot(root), before, "nothing of the archive changed")
        let next = await run("sync", "--to", root.path)
        XCTAssertEqual(next, .success, errors.text)
    }

    func test_aTargetInAShowFolder_throughALinkOrNot_evenOfAShowNotExported_isRefused() async throws {
        try await makeArchive()
        let link = folder.url.appendingPathComponent("link-to-show")
        try manager.createSymbolicLink(at: link, withDestinationURL: show)
        let otherShow = folder.url.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: otherShow, withIntermediateDirectories: true)
        let episodeLink = folder.url.appendingPathComponent("episode.warc")
        try manager.createSymbolicLink(at: episodeLink, withDestinationURL: show.appendingPathComponent("One.mp3"))
        let before = try snapshot(root)

        let targets = [
            link.appendingPathComponent("new.warc"), show.appendingPathComponent(".podarchive/index.json"),
            episodeLink,
        ]
        for target in targets {
            errors.clear()
            let status = await run("export", "--warc", target.path, root.path)

            XCTAssertEqual(status, .usage, target.path)
            XCTAssertEqual(
                errors.lines,
                [
                    "podarchive: the export \(target.path) would be written inside the show folder \(show.path): "
                        + "name a file outside it"
                ])
        }
        XCTAssertEqual(try snapshot(root), before, "nothing written into the show folder")
        XCTAssertEqual(
            try manager.destinationOfSymbolicLink(atPath: episodeLink.path), show.appendingPathComponent("One.mp3").path
        )
    }

    func test_show_namesAShowOfTheArchive_neverAFolderOutsideIt() async throws {
        try await makeArchive()
        // A show folder outside the archive root (a copy of a real one, so it reads as a show).
        let outside = folder.url.appendingPathComponent("outside")
        try manager.copyItem(at: show, to: outside)
        // Run from the archive root, so that `../outside` leads out of it.
        let tool = CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_CONFIG_DIR": configurationFolder.path], currentDirectory: root.path),
            output: output, errors: errors, makeArchiver: { Archiver.live() })

        for name in ["../outside", outside.path, root.path, root.appendingPathComponent(".podarchive").path] {
            errors.clear()
            let status = await tool.run([
                "export", "--warc", folder.url.appendingPathComponent("x.warc").path,
                root.path, "--show", name,
            ])

            XCTAssertEqual(status, .usage, name)
            XCTAssertEqual(
                errors.lines,
                [
                    "podarchive: no subscribed show has the feed URL or folder name '\(name)'; the archive's shows are 'CLI Show'"
                ],
                name)
            XCTAssertFalse(manager.fileExists(atPath: folder.url.appendingPathComponent("x.warc").path))
        }
        // Its title, its folder, its feed URL, and a path that is its folder, through a link too.
        let link = folder.url.appendingPathComponent("link-to-show")
        try manager.createSymbolicLink(at: link, withDestinationURL: show)
        for name in ["CLI Show", "./CLI Show", link.path, server.url("/feed.xml").absoluteString] {
            errors.clear()
            let status = await tool.run([
                "export", "--warc", folder.url.appendingPathComponent("x.warc").path,
                root.path, "--show", name,
            ])
            XCTAssertEqual(status, .success, "\(name): \(errors.text)")
        }
    }

    func test_eachEpisodesContentType_isTheOneTheServerSent_recordedAtDownload_andAnOlderEntryFallsBack() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 3000), type: "audio/x-served; charset=binary"))
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        let indexFile = show.appendingPathComponent(".podarchive/index.json")

        let status = await run("export", "--warc", "served.warc", root.path)

        XCTAssertEqual(status, .success, errors.text)
        let index = try JSONDecoder().decode(ArchiveIndex.self, from: Data(contentsOf: indexFile))
        XCTAssertEqual(index.episodes.map(\.contentType), ["audio/x-served; charset=binary"])
        let records = try WARCReader.records(Data(contentsOf: folder.url.appendingPathComponent("served.warc")))
        let episode = try XCTUnwrap(records.first { $0["WARC-Target-URI"]?.hasSuffix("/one.mp3") == true })
        XCTAssertEqual(episode["Content-Type"], "audio/x-served; charset=binary")

        // An entry of an archive from before the type was recorded (0.1.0): the file's extension says.
        var older = try JSONSerialization.jsonObject(with: Data(contentsOf: indexFile)) as! [String: Any]
        var episodes = older["episodes"] as! [[String: Any]]
        episodes[0].removeValue(forKey: "contentType")
        older["episodes"] = episodes
        try JSONSerialization.data(withJSONObject: older).write(to: indexFile)
        let again = await run("export", "--warc", "older.warc", root.path)
        XCTAssertEqual(again, .success, errors.text)
        let olderRecords = try WARCReader.records(Data(contentsOf: folder.url.appendingPathComponent("older.warc")))
        XCTAssertEqual(
            olderRecords.first { $0["WARC-Target-URI"]?.hasSuffix("/one.mp3") == true }?["Content-Type"], "audio/mpeg")
    }
}
