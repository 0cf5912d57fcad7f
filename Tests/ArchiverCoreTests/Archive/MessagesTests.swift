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
}
