// Seam: stream a URL's body to a file on disk, never holding it in memory, resuming where asked.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one transfer should treat the destination file and the response.
public struct DownloadOptions: Sendable {
    /// Bytes already in the destination from an earlier attempt. The caller sends `Range`/`If-Range`; the
    /// body is appended only to a `206` whose `Content-Range` starts exactly here, any other 2xx replaces the file.
    public var resumeOffset: Int64
    /// Sees the response headers before any byte is written (`appending` tells whether the body continues the
    /// file). A returned error stops the transfer and is thrown.
    public var admit: (@Sendable (_ response: HTTPURLResponse, _ appending: Bool) -> Error?)?
    /// Reports the file's size as bytes arrive.
    public var progress: (@Sendable (_ bytesInFile: Int64) -> Void)?
    /// The validator an earlier answer for this file carried (an ETag, else a Last-Modified date; sent in `If-Range`
    /// when resuming) and the whole file's size it announced. A `206` is appended only when it carries the same
    /// validator and announces the same size (a server that ignores `If-Range` would otherwise splice two versions
    /// into one file), and any answer with the same validator must bring a file of that size (see
    /// `contradiction(of:size:)`).
    public var resumeValidator: String?
    /// The whole file's size announced with `resumeValidator`.
    public var resumeTotal: Int64?
    /// What redirects carry, and the run's bandwidth cap.
    public var policy: TransferPolicy
    /// Called once when the transfer is over, whatever its outcome, before the file is synced: the network can
    /// serve the next download while the disk finishes this one.
    public var transferEnded: (@Sendable () -> Void)?
    /// The most the file may hold (earlier bytes of a resume included), counted as the body is written: after any
    /// Content-Encoding is undone, whether or not a Content-Length was sent. A body that would pass it is stopped
    /// there, before the byte past it is written, and `DownloadError.tooLarge` is thrown. Nil: no cap.
    public var maximumBytes: Int64?
    /// A second algorithm to hash the whole file with, in the same pass as SHA-256 (a publisher's Subresource
    /// Integrity value names it); its digest is `DownloadResult.integrityDigest`. Nil: SHA-256 only.
    public var integrityAlgorithm: SubresourceIntegrity.Algorithm?

    /// Options for one transfer; the defaults start from byte 0, admit everything and report nothing.
    public init(
        resumeOffset: Int64 = 0, admit: (@Sendable (HTTPURLResponse, Bool) -> Error?)? = nil,
        progress: (@Sendable (Int64) -> Void)? = nil, resumeValidator: String? = nil, resumeTotal: Int64? = nil,
        policy: TransferPolicy = TransferPolicy(), transferEnded: (@Sendable () -> Void)? = nil,
        maximumBytes: Int64? = nil
    ) {
        self.maximumBytes = maximumBytes
        self.policy = policy
        self.transferEnded = transferEnded
        self.resumeOffset = resumeOffset
        self.admit = admit
        self.progress = progress
        self.resumeValidator = resumeValidator
        self.resumeTotal = resumeTotal
    }

    /// Why a `206` cannot continue the partial file, or nil when it can (see `resumeValidator`).
    public func refusal(of response: HTTPURLResponse) -> String? {
        let header = response.value(forHTTPHeaderField: "Content-Range")
        guard resumeOffset > 0, let range = ContentRange(header), range.start == resumeOffset else {
            return "a 206 for \(header ?? "no Content-Range") does not continue at byte \(resumeOffset)"
        }
        if let validator = resumeValidator {
            let sent = Self.validator(like: validator, of: response)
            guard sent == validator else {
                return "a 206 for \(sent ?? "no validator") instead of \(validator): the file changed"
            }
        }
        if let expected = resumeTotal, range.total != expected {
            return "a 206 for a file of \(range.total.map(String.init) ?? "unknown") bytes, not \(expected)"
        }
        return nil
    }

    /// Why `response`, which makes a file of `size` bytes, contradicts what was announced before for the same
    /// version of it (`resumeValidator`, `resumeTotal`), or nil when it does not: a server that answers a resume
    /// with `200` and only the rest of the file, under the same ETag, would otherwise have the rest kept as the
    /// whole.
    public func contradiction(of response: HTTPURLResponse, size: Int64) -> String? {
        // A strong ETag names one version's bytes; a weak one, or a Last-Modified date (a second's granularity;
        // servers that insert ads serve several sizes under one date), does not.
        guard let validator = resumeValidator, validator.hasPrefix("\""), let total = resumeTotal, size != total,
            response.value(forHTTPHeaderField: "ETag") == validator
        else { return nil }
        return "the server announced \(total) bytes for this version of it (\(validator)) before, and \(size) now"
    }

    /// The response's validator of the kind `validator` is: its ETag for an ETag, else its Last-Modified.
    private static func validator(like validator: String, of response: HTTPURLResponse) -> String? {
        let isETag = validator.hasPrefix("\"") || validator.hasPrefix("W/")
        return response.value(forHTTPHeaderField: isETag ? "ETag" : "Last-Modified")
    }

}

/// What a finished transfer produced.
public struct DownloadResult: Sendable, Equatable {
    /// The final response (after redirects). Its status has not been judged yet.
    public var response: URLResponse
    /// Body bytes written by this transfer.
    public var bytesWritten: Int64
    /// The size of the destination file now (earlier bytes included when the transfer resumed).
    public var fileSize: Int64
    /// SHA-256 of the whole file, computed while the bytes streamed (hex).
    public var sha256: String
    /// The first bytes of the file (up to 512), to recognise an HTML page served in place of audio.
    public var leadingBytes: Data
    /// The whole file's digest with `DownloadOptions.integrityAlgorithm`, when one was asked for.
    public var integrityDigest: [UInt8]?

    /// A result as a downloader produced it.
    public init(
        response: URLResponse, bytesWritten: Int64, fileSize: Int64? = nil, sha256: String = "",
        leadingBytes: Data
    ) {
        self.response = response
        self.bytesWritten = bytesWritten
        self.fileSize = fileSize ?? bytesWritten
        self.sha256 = sha256
        self.leadingBytes = leadingBytes
    }
}

/// Why a transfer stopped before its body was complete.
public enum DownloadError: Error, Equatable, Sendable {
    /// A redirect pointed to a scheme other than http(s); the transfer was stopped there.
    case refusedRedirect(location: String)
    /// The connection failed or was cut (the text is the system's reason).
    case transport(String)
    /// The destination file could not be created or written (`code` is the errno).
    case file(path: String, reason: String, code: Int32 = 0)
    /// A `206` answered a range other than the one asked for.
    case unexpectedRange(String)
    /// The file would pass `limit` bytes (`DownloadOptions.maximumBytes`): announced as `announced` bytes, or nil
    /// when the body itself passed it while it arrived.
    case tooLarge(limit: Int64, announced: Int64? = nil)
    /// A body sent as it is ended short of (or past) its `Content-Length`: the file's size it was to reach, and
    /// the size it has (earlier bytes of a resume included). What arrived stays for a resume.
    case lengthMismatch(expected: Int64, received: Int64)
    /// The body is not complete by its framing (a compressed stream cut short, damaged, or going on past its end):
    /// the words.
    case incomplete(String)
    /// An answer under the strong ETag a download was recorded with brought another size than was announced with it
    /// (see `DownloadOptions.contradiction`): the words. Nothing of it is kept; the record of what was announced
    /// stays, so that the next answer is held to it too.
    case contradicted(String)
    /// The body was sent in a `Content-Encoding` podarchive does not decode (named as the server did): refused
    /// before any byte was written.
    case unsupportedEncoding(String)
}

extension DownloadError {
    /// A framing failure as the download's (any other error as a transport failure).
    init(_ error: Error) {
        switch error {
        case let download as DownloadError: self = download
        case FramingFailure.unsupportedEncoding(let encoding): self = .unsupportedEncoding(encoding)
        case FramingFailure.length(let expected, let received):
            self = .lengthMismatch(expected: expected, received: received)
        case FramingFailure.encodedPart: self = .unexpectedRange((error as? FramingFailure)?.reason ?? "")
        case let framing as FramingFailure: self = .incomplete(framing.reason)
        default: self = .transport(TransportReason.describe(error))
        }
    }
}

/// Streams a request's body into a file. The live conformance is `URLSessionDownloader`.
public protocol FileDownloading: Sendable {
    /// Downloads `request` into `destination` (created if missing). Non-2xx responses are returned, with their
    /// body not written and the file left as it was, for the caller to judge.
    func download(_ request: URLRequest, to destination: URL, options: DownloadOptions) async throws -> DownloadResult
}

extension FileDownloading {
    /// Downloads into `destination`, replacing whatever it held.
    public func download(_ request: URLRequest, to destination: URL) async throws -> DownloadResult {
        try await download(request, to: destination, options: DownloadOptions())
    }
}

/// Reads `Content-Range: bytes START-END/TOTAL`.
struct ContentRange: Equatable, Sendable {
    /// The first byte the body holds.
    public var start: Int64
    /// The whole file's size; nil for `*`.
    public var total: Int64?

    /// Parses the header; nil when it is absent or not a byte range.
    public init?(_ header: String?) {
        guard let header, header.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else {
            return nil
        }
        self.start = start
        self.total = parts.count == 2 ? Int64(parts[1]) : nil
    }
}
