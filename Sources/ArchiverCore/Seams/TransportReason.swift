// Transport failures in a few plain words, for a nightly report.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Short, human reasons for transport failures ("connection refused" rather than an NSError dump, and never a
/// libcurl or OpenSSL message, which means nothing to someone reading a nightly report).
enum TransportReason {
    /// `error`, for a body of which `received` of the `announced` bytes (its `Content-Length`) had arrived: one
    /// whose connection closed before them says where (libcurl's "transfer closed with N bytes remaining" reaches
    /// podarchive as an unknown error, -1).
    static func describe(_ error: Error, received: Int64, of announced: Int64?) -> String {
        cut(error, received: received, of: announced) ?? describe(error)
    }

    /// The words for a connection that closed after `received` of the `announced` bytes, when `error` is one that
    /// ended it early; else nil.
    static func cut(_ error: Error, received: Int64, of announced: Int64?) -> String? {
        let nsError = error as NSError
        let code =
            (error as? URLError)?.code
            ?? (nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil)
        guard let announced, received < announced, let code, [.unknown, .networkConnectionLost].contains(code) else {
            return nil
        }
        return "the connection closed after \(received) of \(announced) bytes"
    }

    static func describe(_ error: Error) -> String {
        if error is CancellationError { return "cancelled" }  // not "Swift.CancellationError error 1"
        guard let urlError = error as? URLError else {
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain, let code = URLError.Code(rawValue: nsError.code) as URLError.Code?
            else { return error.localizedDescription }
            return describe(URLError(code))
        }
        switch urlError.code {
        case .timedOut: return "timed out (no data for too long)"
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .notConnectedToInternet: return "no network"
        case .unsupportedURL: return "the server's answer could not be read as HTTP"
        case .badServerResponse, .cannotParseResponse: return "the server's answer is not valid HTTP"
        case .httpTooManyRedirects: return "too many redirects"
        case .redirectToNonExistentLocation: return "redirected to a location that does not exist"
        case .cancelled: return "cancelled"
        case .userAuthenticationRequired: return "the server wants credentials"
        case .secureConnectionFailed: return "TLS handshake failed (the server closed it, or speaks no TLS there)"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            return "TLS: the server's certificate is not trusted"
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            return "TLS: the server's certificate has expired or is not valid yet"
        case .clientCertificateRejected, .clientCertificateRequired: return "TLS: the server wants a client certificate"
        case .dataLengthExceedsMaximum: return "the answer is too large"
        case .zeroByteResource: return "the server sent nothing"
        default: return "network error \(urlError.code.rawValue)"
        }
    }
}
