import ArchiverCoreTesting
import Foundation
import XCTest

// The trust rule on the in-memory file system: a file and its own folder must be the user's or root's and written
// by no one else, unless on a read-only mount; each refusal names the item, what is wrong and the fix.
@testable import ArchiverCore

final class TrustedFilesTests: XCTestCase {
    private let files = FakeFileSystem()
    private var rule: TrustedFiles { TrustedFiles(attributes: files, user: 501) }

    override func setUp() {
        super.setUp()
        files.put("/c/credentials/a.json", Data("{}".utf8))
    }

    private func set(_ path: String, _ attributes: [FileAttributeKey: Any]) throws {
        try files.setAttributes(attributes, ofItemAtPath: path)
    }

    private func refusal(_ path: String = "/c/credentials/a.json") -> UntrustedFile? {
        do {
            try rule.check(path, kind: .credentials)
            return nil
        } catch {
            return error
        }
    }

    func test_check_theUsersOwnFileInTheUsersOwnFolder_passes() throws {
        try set("/c/credentials/a.json", [.ownerAccountID: 501, .posixPermissions: 0o600])
        try set("/c/credentials", [.ownerAccountID: 501, .posixPermissions: 0o700])
        XCTAssertNil(refusal())
    }

    func test_check_rootsFileInRootsFolder_passes() throws {
        try set("/c/credentials/a.json", [.ownerAccountID: 0, .posixPermissions: 0o644])
        try set("/c/credentials", [.ownerAccountID: 0, .posixPermissions: 0o755])
        XCTAssertNil(refusal())
    }

    func test_check_nothingThere_passes_whateverItsFolder() throws {
        try set("/c/credentials", [.ownerAccountID: 1000, .posixPermissions: 0o777])
        XCTAssertNil(refusal("/c/credentials/none.json"))
    }

    func test_check_anotherUsersFile_isRefused_namingTheOwnerAndTheChown() throws {
        try set("/c/credentials/a.json", [.ownerAccountID: 1000, .posixPermissions: 0o600])
        let refused = try XCTUnwrap(refusal())
        XCTAssertEqual(
            refused.localizedDescription,
            "credentials file /c/credentials/a.json refused: it belongs to uid 1000, not to you (uid 501) or root; "
                + "nothing in it is used (fix: chown 501 /c/credentials/a.json)")
    }

    func test_check_aFileOthersMayWrite_isRefused_withTheChmod() throws {
        try set("/c/credentials/a.json", [.posixPermissions: 0o666])
        let refused = try XCTUnwrap(refusal())
        XCTAssertEqual(refused.problem, "it can be written by its group and others (mode 0666)")
        XCTAssertEqual(refused.fix, "chmod go-w /c/credentials/a.json")
    }

    func test_check_aFolderOthersMayWrite_isRefused_namingTheFolder() throws {
        try set("/c/credentials", [.posixPermissions: 0o1777])
        let refused = try XCTUnwrap(refusal())
        XCTAssertEqual(refused.problem, "its folder /c/credentials can be written by its group and others (mode 1777)")
        XCTAssertEqual(refused.fix, "chmod go-w /c/credentials")
    }

    func test_check_anotherUsersFolder_isRefused() throws {
        try set("/c/credentials", [.ownerAccountID: 1000, .posixPermissions: 0o755])
        XCTAssertEqual(
            refusal()?.problem, "its folder /c/credentials belongs to uid 1000, not to you (uid 501) or root")
    }

    func test_check_foldersAboveItsOwn_areNotJudged() throws {
        try set("/c", [.ownerAccountID: 1000, .posixPermissions: 0o777])
        XCTAssertNil(refusal())
    }

    func test_check_aSecretsLayoutOnAReadOnlyMount_passes_andTheSameWritableIsRefused() throws {
        try set("/c/credentials", [.ownerAccountID: 0, .posixPermissions: 0o1777, .onReadOnlyMount: true])
        try set("/c/credentials/a.json", [.ownerAccountID: 0, .posixPermissions: 0o666, .onReadOnlyMount: true])
        XCTAssertNil(refusal())

        try set("/c/credentials", [.onReadOnlyMount: false])
        XCTAssertEqual(refusal()?.fix, "chmod go-w /c/credentials")
    }

    func test_check_anotherUsersFileOnAReadOnlyMount_isStillRefused() throws {
        try set("/c/credentials/a.json", [.ownerAccountID: 1000, .onReadOnlyMount: true])
        XCTAssertEqual(refusal()?.fix, "chown 501 /c/credentials/a.json")
    }

    func test_check_bothWrong_namesBothFixes_andQuotesAPathAShellWouldSplit() throws {
        files.put("/c/my config/config", Data())
        try set("/c/my config/config", [.ownerAccountID: 7, .posixPermissions: 0o620])
        do {
            try rule.check("/c/my config/config", kind: .configuration)
            XCTFail("refused")
        } catch {
            XCTAssertEqual(
                error.localizedDescription,
                "configuration file /c/my config/config refused: it belongs to uid 7, not to you (uid 501) or root "
                    + "and can be written by its group (mode 0620); nothing in it is used (fix: chown 501 "
                    + "'/c/my config/config' && chmod go-w '/c/my config/config')")
        }
    }
}
