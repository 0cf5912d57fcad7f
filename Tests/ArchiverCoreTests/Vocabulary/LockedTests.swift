import Foundation
import XCTest

// Locked: the box the shared classes keep their mutable state in.
@testable import ArchiverCore

final class LockedTests: XCTestCase {
    func test_changesFromManyThreadsAtOnce_areNeverLost() {
        let counter = Locked(0)

        DispatchQueue.concurrentPerform(iterations: 1000) { _ in counter.withLock { $0 += 1 } }

        XCTAssertEqual(counter.current, 1000)
    }

    func test_withLock_returnsWhatTheBodyReturns_andSetReplacesTheValue() {
        let names = Locked(["a"])

        let count = names.withLock { names -> Int in
            names.append("b")
            return names.count
        }
        names.set(["c"])

        XCTAssertEqual(count, 2)
        XCTAssertEqual(names.current, ["c"])
    }
}
