import Foundation
import TestSupport
import XCTest

// SHA-256 against the NIST FIPS 180-4 vectors and against `sha256sum`, in both implementations.
@testable import ArchiverCore

final class SHA256Tests: XCTestCase {
    private let implementations: [SHA256.Implementation] = [.automatic, .portable]

    private func hex(_ bytes: [UInt8], _ implementation: SHA256.Implementation) -> String {
        var hasher = SHA256(implementation: implementation)
        hasher.update(bytes)
        return hasher.hexDigest()
    }

    func test_nistVectors() {
        let vectors: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ]
        for implementation in implementations {
            for (message, digest) in vectors {
                XCTAssertEqual(hex(Array(message.utf8), implementation), digest, "\(implementation) \(message)")
            }
        }
    }

    func test_millionAs_fedInOddSizedPieces() {
        for implementation in implementations {
            var hasher = SHA256(implementation: implementation)
            let piece = [UInt8](repeating: 0x61, count: 997)
            var fed = 0
            while fed < 1_000_000 {
                let count = min(piece.count, 1_000_000 - fed)
                hasher.update(Array(piece[0..<count]))
                fed += count
            }
            XCTAssertEqual(
                hasher.hexDigest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                "\(implementation)")
        }
    }

    func test_everyLengthAroundTheBlockBoundaries_matchesOneShotAndSplitUpdates() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 300] {
            let message = Array(bytes[0..<length])
            let expected = hex(message, .portable)
            XCTAssertEqual(hex(message, .automatic), expected, "length \(length)")
            for split in [0, 1, length / 2, length] where split <= length {
                var hasher = SHA256()
                hasher.update(Array(message[0..<split]))
                hasher.update(Array(message[split...]))
                XCTAssertEqual(hasher.hexDigest(), expected, "length \(length) split \(split)")
            }
        }
    }

    func test_matchesSha256sumOnAMegabyteOfData() throws {
        let folder = try TemporaryFolder("sha")
        defer { folder.remove() }
        let bytes = (0..<1_048_579).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let file = folder.url.appendingPathComponent("data.bin")
        try Data(bytes).write(to: file)

        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["sha256sum", file.path], environment: ["PATH": "/usr/bin:/bin"])

        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = String(result.stdout.prefix(64))
        for implementation in implementations {
            XCTAssertEqual(hex(bytes, implementation), expected, "\(implementation)")
        }
    }

    func test_finalize_doesNotChangeTheHasher() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.hexDigest()
        hasher.update(Array("c".utf8))
        XCTAssertEqual(hasher.hexDigest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
