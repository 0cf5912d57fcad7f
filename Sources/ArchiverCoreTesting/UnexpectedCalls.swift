// Calls a double was not scripted for. The doubles cannot fail a test themselves (this library is built without
// XCTest, so it can ship): they record each such call, report it through the hook a test gives (`XCTFail`), and
// throw, so the code under test sees a failure too.
import Foundation

/// A thread-safe record of unscripted calls, with the hook that reports each.
final class UnexpectedCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private let report: @Sendable (String) -> Void

    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    var calls: [String] { lock.withLock { recorded } }

    func record(_ call: String) {
        lock.withLock { recorded.append(call) }
        report(call)
    }
}
