// "No path into the archive's state is built outside the layout types", checked in the sources so that it stays
// true: `ShowState` and `ArchiveRoot` (Vocabulary) build every path of a show's and a root's state from the names in
// `ArchiveLayout`; everything else asks them. And the file maps of the README and docs/ name only what the layout
// names (the man page's FILES is checked against it by `DocumentationTests`).
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

final class StatePathRulesTests: XCTestCase {
    /// The files that build paths of the state: the layout types.
    private static let layoutFiles: Set<String> = [
        "Sources/ArchiverCore/Vocabulary/ArchiveLayout.swift", "Sources/ArchiverCore/Vocabulary/ShowState.swift",
        "Sources/ArchiverCore/Vocabulary/ArchiveRoot.swift", "Sources/ArchiverCore/Vocabulary/RecordFile.swift",
    ]

    /// Ways of building a path into a state folder by hand.
    private static let rules: [(name: String, pattern: String)] = [
        ("a name of the layout appended to a path", #"appendingPathComponent\(\s*ArchiveLayout\."#),
        ("a path into a state folder made by hand", #"[sS]tateFolder\)?\.appendingPathComponent\("#),
        ("the layout's path functions called outside it", #"ArchiveLayout\.stateFolder\(of:"#),
        ("the state folder's name spelled out in a path", #"(\)|")/?\.podarchive\b"#),
    ]

    /// The places that still build one, each with why; the list shrinks, never grows. None is in the executable.
    private static let exceptions: [(file: String, containing: String)] = [
        // The site's pages, written at the root or into `site --out`: output, not state.
        ("Sources/ArchiverCore/Site/SiteWriter.swift", "site.appendingPathComponent(ArchiveLayout.sitePage)"),
        ("Sources/ArchiverCore/Site/SiteWriter.swift", "site.appendingPathComponent(ArchiveLayout.siteOPML)"),
        ("Sources/ArchiverCore/Site/SiteWriter.swift", "site.appendingPathComponent(ArchiveLayout.siteSearchIndex)"),
        // The configuration folder and the credentials in it, outside the archive.
        ("Sources/ArchiverCore/Subscriptions/ConfigurationFolder.swift", "ArchiveLayout.configurationFolder"),
        ("Sources/ArchiverCore/Subscriptions/ConfigurationFolder.swift", "ArchiveLayout.credentialsFolder"),
        ("Sources/ArchiverCore/Subscriptions/CredentialStore.swift", "ArchiveLayout.credentialsFile"),
        // ArchiveError is below the records that throw it (a cycle of types otherwise): the layout's own function.
        ("Sources/ArchiverCore/Seams/StorageErrors.swift", "ArchiveLayout.stateFolder(of: directory)"),
    ]

    func test_noPathIntoTheStateIsBuiltOutsideTheLayoutTypes() throws {
        let found = try Self.sourceLines().filter { file, line in
            !Self.layoutFiles.contains(file)
                && Self.rules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil }
                && !Self.exceptions.contains { $0.file == file && line.contains($0.containing) }
        }
        XCTAssertEqual(
            found.map { "\($0.file): \($0.line.trimmingCharacters(in: .whitespaces))" }, [],
            "build the path through ShowState or ArchiveRoot (Sources/ArchiverCore/Vocabulary)")
    }

    func test_exceptions_eachStillMatchesALine() throws {
        let lines = try Self.sourceLines()
        for exception in Self.exceptions {
            XCTAssertTrue(
                lines.contains { $0.file == exception.file && $0.line.contains(exception.containing) },
                "\(exception.file) no longer builds \(exception.containing): take it off the list")
        }
    }

    /// The rules catch what they are for (a rule that matches nothing would pass whatever the sources hold).
    func test_rules_catchEachWayOfBuildingAPathByHand() {
        let handMade = [
            #"let url = folder.appendingPathComponent(ArchiveLayout.hooksFile)"#,
            #"let url = show.stateFolder.appendingPathComponent(name)"#,
            #"let url = ArchiveLayout.stateFolder(of: folder).appendingPathComponent(name)"#,
            #"let url = root.path + "/.podarchive/feeds""#,
            #"let path = "\(root.path)/.podarchive/lock""#,
        ]
        for line in handMade {
            XCTAssertTrue(
                Self.rules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil }, line)
        }
        XCTAssertFalse(
            Self.rules.contains {
                "let url = show.state.index".range(of: $0.pattern, options: .regularExpression) != nil
            })
    }

    /// Every `.podarchive/<name>` the README and docs/ mention is a name the layout gives in a state folder.
    func test_documentationFileMaps_nameOnlyWhatTheLayoutNames() throws {
        let root = Fixtures.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var named: [String: Set<String>] = [:]
        for page in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let parts = text.components(separatedBy: ArchiveLayout.stateFolderName + "/").dropFirst()
            for part in parts {
                let name = String(part.prefix { $0.isLetter || $0.isNumber || "._-".contains($0) })
                if !name.isEmpty { named[page, default: []].insert(name) }
            }
        }
        XCTAssertFalse(named.isEmpty, "the docs name files of the state folder")
        for (page, names) in named.sorted(by: { $0.key < $1.key }) {
            let unknown = names.filter {
                !ArchiveLayout.stateNames.contains($0) && !ArchiveLayout.isDownloadBody($0)
                    && !ArchiveLayout.isDownloadRecordFile($0) && !ArchiveLayout.isSetAside($0)
            }
            XCTAssertEqual(unknown, [], "\(page) names files ArchiveLayout does not")
        }
    }

    /// (file relative to the repository, line) of every line of code (comments left out) of the core and the
    /// executable.
    private static func sourceLines() throws -> [(file: String, line: String)] {
        let root = Fixtures.repositoryRoot
        var lines: [(file: String, line: String)] = []
        for folder in ["Sources/ArchiverCore", "Sources/podarchive"] {
            let base = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: base.path)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                // A call broken after its parenthesis is read as one line.
                let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                    .replacingOccurrences(of: #"\(\s*\n\s*"#, with: "(", options: .regularExpression)
                for line in text.split(separator: "\n", omittingEmptySubsequences: true)
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    lines.append((folder + "/" + path, String(line)))
                }
            }
        }
        XCTAssertGreaterThan(lines.count, 10_000, "the sources were found")
        return lines
    }
}
