// What a nightly report says when the system fails: the system's short words, never Foundation's or libcurl's.
import Foundation
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class MessagesTests: XCTestCase {
    func test_fileErrors_fromFoundation_readAsTheSystemsWords() {
        XCTAssertEqual(ArchiveError.describe(CocoaError(.fileWriteVolumeReadOnly)), "Read-only file system")
        XCTAssertEqual(ArchiveError.describe(CocoaError(.fileWriteOutOfSpace)), "No space left on device")
        XCTAssertEqual(ArchiveError.describe(CocoaError(.fileWriteNoPermission)), "Permission denied")
    }

    func test_transportErrors_neverLeakLibcurlOrOpenSSLText() {
        let tls = URLError(
            .secureConnectionFailed, userInfo: [NSLocalizedDescriptionKey: "OpenSSL SSL_connect: SSL_ERROR_SYSCALL"])

        XCTAssertEqual(
            TransportReason.describe(tls), "TLS handshake failed (the server closed it, or speaks no TLS there)")
        XCTAssertEqual(
            TransportReason.describe(URLError(.serverCertificateUntrusted)),
            "TLS: the server's certificate is not trusted")
        XCTAssertEqual(
            TransportReason.describe(NSError(domain: NSURLErrorDomain, code: URLError.cannotConnectToHost.rawValue)),
            "connection refused")
        XCTAssertEqual(TransportReason.describe(URLError(.backgroundSessionWasDisconnected)), "network error -997")
        XCTAssertEqual(
            TransportReason.describe(CancellationError()), "cancelled", "not Swift.CancellationError error 1")
    }

    func test_interruptedLine_saysWhichPartialsResumeAndWhichStartAgain_inTheRightNumber() {
        let again = "ETag or Last-Modified, took no ranges, or sent them compressed)"
        let lines = [
            (0, 0, "interrupted: no partial download to keep"),
            (3, 0, "interrupted: 3 partial downloads kept, the next run resumes them"),
            (
                0, 2,
                "interrupted: 2 partial downloads cannot be resumed, the next run starts them again (their "
                    + "servers named no version of them, " + again
            ),
            (
                1, 2,
                "interrupted: 3 partial downloads kept, the next run resumes 1 of them and starts 2 again (their "
                    + "servers named no version of them, " + again
            ),
        ]
        for (resuming, startingAgain, line) in lines {
            XCTAssertEqual(
                ArchiveError.interrupted(resuming: resuming, startingAgain: startingAgain).localizedDescription, line)
        }
    }
}
