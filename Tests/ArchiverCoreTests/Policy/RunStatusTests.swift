// The exit-status rule: the codes podarchive documents, which outcome wins, and which error ends how.
import Foundation
import XCTest

@testable import ArchiverCore

final class RunStatusTests: XCTestCase {
    func test_codes_areTheDocumentedNumbers() {
        XCTAssertEqual(RunStatus.allCases.map(\.rawValue), [0, 1, 2, 3, 4, 5, 130, 143])
    }

    func test_failuresWorstFirst_isArchiveUsageFeedLockedEpisodes() {
        XCTAssertEqual(RunStatus.failuresWorstFirst, [.archiveFailed, .usage, .feedFailed, .locked, .episodesFailed])
        XCTAssertEqual(RunStatus.failuresWorstFirst.map(\.rawValue), [5, 2, 3, 4, 1])
    }

    func test_worst_ofEachPairOfFailures_isTheOneListedFirst() {
        let order = RunStatus.failuresWorstFirst
        for (rank, better) in order.enumerated() {
            for worse in order[..<rank] {
                XCTAssertEqual(RunStatus.worst(of: [better, worse]), worse, "\(better) with \(worse)")
                XCTAssertEqual(RunStatus.worst(of: [worse, better]), worse, "\(worse) with \(better)")
            }
            XCTAssertEqual(RunStatus.worst(of: [.success, better]), better)
        }
        XCTAssertEqual(RunStatus.worst(of: []), .success)
    }

    func test_include_keepsTheWorse_andOfTwoEquallyBadTheFirst() {
        var status = RunStatus.success
        status.include(.locked)
        status.include(.episodesFailed)
        XCTAssertEqual(status, .locked)
        status.include(.archiveFailed)
        XCTAssertEqual(status, .archiveFailed)
        XCTAssertEqual(RunStatus.terminated.worsened(by: .interrupted), .terminated)
    }

    func test_overall_isInterrupted_whenAPartWasOrTheRunWasStopped_elseTheWorst() {
        XCTAssertEqual(RunStatus.overall(of: [.archiveFailed, .interrupted], cancelled: false), .interrupted)
        XCTAssertEqual(RunStatus.overall(of: [.success], cancelled: true), .interrupted)
        XCTAssertEqual(RunStatus.overall(of: [], cancelled: true), .interrupted)
        XCTAssertEqual(RunStatus.overall(of: [.episodesFailed, .usage, .locked], cancelled: false), .usage)
        XCTAssertEqual(RunStatus.overall(of: [], cancelled: false), .success)
    }

    func test_statusForError_followsWhoMustActOnIt() {
        let cases: [(Error, RunStatus)] = [
            (FeedError.invalidSource("x"), .usage),
            (FeedError.unsupportedScheme("ftp://h/f"), .usage),
            (NetrcError(path: "/n", reason: "missing"), .usage),
            (FeedError.httpStatus(url: "https://h/f", status: 500), .feedFailed),
            (FeedError.lacksSecret(url: "https://h/f"), .feedFailed),
            (CredentialError.missing(show: "S", feed: "https://h/f", path: "/c"), .feedFailed),
            (
                CredentialError.insecure(UntrustedFile(kind: .credentials, file: "/c", problem: "p", fix: "f")),
                .archiveFailed
            ),
            (ArchiveError.locked(folder: "/a/S", holder: 7), .locked),
            (ArchiveError.noArchive(path: "/a"), .usage),
            (ArchiveError.unknownShow("S", known: []), .usage),
            (ArchiveError.interrupted(resuming: 1, startingAgain: 0), .interrupted),
            (ArchiveError.storage(path: "/a", reason: "disk full"), .archiveFailed),
            (CocoaError(.fileWriteNoPermission), .archiveFailed),
        ]
        for (error, status) in cases {
            XCTAssertEqual(RunStatus(for: error), status, "\(error)")
        }
    }
}
