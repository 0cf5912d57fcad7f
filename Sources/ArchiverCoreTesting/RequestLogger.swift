// The shared call log for network requests, so tests can assert the order: feed first, then episodes.
import Foundation

/// The order in which feeds and episodes were requested.
public actor RequestLogger {
    /// One request.
    public enum Request: Hashable, Sendable {
        case feed(String)
        case episode(String)
    }

    /// Every request, in order.
    public private(set) var requests: [Request] = []

    /// An empty log.
    public init() {}

    /// Appends `request`.
    public func log(_ request: Request) {
        requests.append(request)
    }
}
