// Seam: stream a URL's body to a file on disk, never holding it in memory.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a finished transfer produced.
public struct DownloadResult: Sendable, Equatable {
    /// The final response (after redirects). Its status has not been judged yet.
    public var response: URLResponse
    /// Bytes written to the destination.
    public var bytesWritten: Int64
    /// The first bytes of the body (up to 512), to recognise an HTML page served in place of audio.
    public var leadingBytes: Data

    public init(response: URLResponse, bytesWritten: Int64, leadingBytes: Data) {
        self.response = response
        self.bytesWritten = bytesWritten
        self.leadingBytes = leadingBytes
    }
}

/// Why a transfer stopped before its body was complete.
public enum DownloadError: Error, Equatable, Sendable {
    /// A redirect pointed to a scheme other than http(s); the transfer was stopped there.
    case refusedRedirect(location: String)
    /// The connection failed or was cut (the text is the system's reason).
    case transport(String)
    /// The destination file could not be created or written.
    case file(path: String, reason: String)
}

/// Streams a request's body into a file. The live conformance is `URLSessionDownloader`.
public protocol FileDownloading: Sendable {
    /// Downloads `request` into `destination`, creating or truncating it. Non-2xx responses are returned, with
    /// their body not written, for the caller to judge.
    func download(_ request: URLRequest, to destination: URL) async throws -> DownloadResult
}
