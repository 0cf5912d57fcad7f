// The shared call log for network requests, so tests can assert the order: feed first, then episodes.
import Foundation

actor RequestLogger {
    enum Request: Equatable {
        case feed(String)
        case episode(String)
    }

    private(set) var requests: [Request] = []

    func log(_ request: Request) {
        requests.append(request)
    }
}
