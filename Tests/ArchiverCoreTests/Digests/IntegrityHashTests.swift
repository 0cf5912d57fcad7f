// SHA-1, SHA-384 and SHA-512 against FIPS 180-4's vectors and Python's hashlib (computed once, written here),
// fed whole and in uneven pieces, across every padding boundary; SRI values and base32 as the specs write them.
import XCTest

@testable import ArchiverCore

final class IntegrityHashTests: XCTestCase {
    private let messages: [(name: String, bytes: [UInt8], sha1: String, sha384: String, sha512: String)] = [
        (
            "empty", [], "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
        (
            "abc", Array("abc".utf8), "a9993e364706816aba3e25717850c26c9cd0d89d",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (
            "two blocks",
            Array(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
                    .utf8), "a49b2446a02c645bf419f995b67091253a04a259",
            "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ),
        (
            "55 bytes", [UInt8](repeating: 0x61, count: 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a",
            "5d91ac7e74e62b5c728904b40f10784d66b7af9cb6302123e48c92f0432ceb8d2a92c02de77dcb29ed75c4b42bde46f4",
            "b0220c772cbf6c1822e2cb38a437d0e1d58772417a4bbb21c961364f8b6143e05aa6316dca8d1d7b19e16448419076395f6086cb55101fbd6d5497b148e1745f"
        ),
        (
            "56 bytes", [UInt8](repeating: 0x61, count: 56), "c2db330f6083854c99d4b5bfb6e8f29f201be699",
            "8a8d9649ea04e993a6ca7135af7e3392cc5fca84f8531cac7aa3feed4eb98f55dcbe0f3284b61c6f35f98b02cc644b4c",
            "962b64aae357d2a4fee3ded8b539bdc9d325081822b0bfc55583133aab44f18bafe11d72a7ae16c79ce2ba620ae2242d5144809161945f1367f41b3972e26e04"
        ),
        (
            "111 bytes", [UInt8](repeating: 0x61, count: 111), "ac877859d427d9192054eea8feb3b8a403ef83a5",
            "3c37955051cb5c3026f94d551d5b5e2ac38d572ae4e07172085fed81f8466b8f90dc23a8ffcdea0b8d8e58e8fdacc80a",
            "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2"
        ),
        (
            "112 bytes", [UInt8](repeating: 0x61, count: 112), "689993727ba37386bb032495e9dbdfb4dd1ba744",
            "187d4e07cb306103c69967bf544d0dfbe9042577599c73c330abc0cb64c61236d5ed565ee19119d8c31779a38f791fcd",
            "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca"
        ),
    ]

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testEachDigestMatchesTheReferenceWholeAndInPieces() {
        for message in messages {
            for piece in [1, 3, 64, 127, 1000] {
                var sha1 = SHA1()
                var sha384 = SHA512(.sha384)
                var sha512 = SHA512(.sha512)
                var start = 0
                repeat {
                    let chunk = Array(message.bytes[start..<min(message.bytes.count, start + piece)])
                    sha1.update(chunk)
                    sha384.update(chunk)
                    sha512.update(chunk)
                    start += piece
                } while start < message.bytes.count
                XCTAssertEqual(hex(sha1.finalize()), message.sha1, "\(message.name), pieces of \(piece)")
                XCTAssertEqual(hex(sha384.finalize()), message.sha384, "\(message.name), pieces of \(piece)")
                XCTAssertEqual(hex(sha512.finalize()), message.sha512, "\(message.name), pieces of \(piece)")
            }
        }
    }

    func testAMillionBytes() {
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        var sha512 = SHA512()
        sha512.update(million)
        XCTAssertEqual(
            hex(sha512.finalize()),
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
        )
        var sha1 = SHA1()
        sha1.update(million)
        XCTAssertEqual(hex(sha1.finalize()), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testBase32AsRFC4648AndWARCWriteIt() {
        XCTAssertEqual(Base32.encode(Array("f".utf8)), "MY======")
        XCTAssertEqual(Base32.encode(Array("foobar".utf8)), "MZXW6YTBOI======")
        var sha1 = SHA1()
        sha1.update(Array("abc".utf8))
        XCTAssertEqual(Base32.encode(sha1.finalize()), "VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5")
    }

    func testSRIValuesTakeTheStrongestAlgorithmGiven() throws {
        var sha384 = SHA512(.sha384)
        sha384.update(Array("episode".utf8))
        let digest = sha384.finalize()
        let written = "sha384-xZarXJoJ8eQgyyH9kelWwlJlYlxppM0P8C2PQQYQvX/igrsCjw0I3zn8NbQcD3N5"
        let value = try XCTUnwrap(SubresourceIntegrity("sha256-bogus \(written)?ct=audio/mpeg  md5-xyz"))
        XCTAssertEqual(value.algorithm, .sha384)
        XCTAssertTrue(value.matches(digest))
        XCTAssertEqual(value.expected, written)
        XCTAssertEqual(SubresourceIntegrity.format(.sha384, digest), written)
        // Without padding, and in the URL-safe alphabet, as some feeds write it.
        let unpadded = try XCTUnwrap(
            SubresourceIntegrity(String(written.dropLast(0)).replacingOccurrences(of: "/", with: "_")))
        XCTAssertTrue(unpadded.matches(digest))
        XCTAssertFalse(
            try XCTUnwrap(SubresourceIntegrity("sha512-" + String(repeating: "A", count: 86) + "==")).matches(digest))
    }

    func testValuesThatNameNothingUsableAreNone() {
        XCTAssertNil(SubresourceIntegrity(""))
        XCTAssertNil(SubresourceIntegrity("md5-rL0Y20zC+Fzt72VPzMSk2A=="))
        XCTAssertNil(SubresourceIntegrity("sha256-tooShort"))
        XCTAssertNil(SubresourceIntegrity("sha384 nodash"))
        XCTAssertNil(SubresourceIntegrity(String(repeating: "sha256-x ", count: 10_000)))
    }
}
