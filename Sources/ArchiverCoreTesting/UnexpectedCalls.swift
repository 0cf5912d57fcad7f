// Calls a double was not scripted for. The doubles cannot fail a test themselves (this library is built without
// XCTest, so it can ship): they record each such call, report it through the hook a test gives (`XCTFail`), and
// throw, so the code under test sees a failure too.
import ArchiverCore
import Foundation

/// A thread-safe record of unscripted calls, with the hook that reports each.
final class UnexpectedCalls: Sendable {
    private let recorded: Locked<[String]> = Locked([])
    private let report: @Sendable (String) -> Void

    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    var calls: [String] { recorded.current }

    func record(_ call: String) {
        recorded.withLock { recorded in recorded.append(call) }
        report(call)
    }
}
