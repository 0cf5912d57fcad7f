// "Run N at once, settle in order": the order results are settled in, the bound, a failing operation or settle,
// and cancellation. Every wait in these tests is on a latch something opens, never a sleep.
import Foundation
import XCTest

@testable import ArchiverCore

final class OrderedTasksTests: XCTestCase {
    func test_resultsAreSettledInTheOrderListed_whateverFinishesFirst() async throws {
        // Operation i ends only once the runner has seen operation i + 1 end: they finish last to first.
        let ended = (0..<5).map { _ in Latch() }
        let finished = Recorder<Int>()
        let settled = Recorder<Int>()
        try await OrderedTasks.run(
            count: 5, width: 5,
            operation: { position in
                if position < 4 { await ended[position + 1].wait() }
                return position * 10
            },
            finished: { position, _ in
                finished.append(position)
                ended[position].open()
            },
            settle: { position, output in
                XCTAssertEqual(output, position * 10)
                settled.append(position)
            })
        XCTAssertEqual(finished.items, [4, 3, 2, 1, 0])
        XCTAssertEqual(settled.items, [0, 1, 2, 3, 4])
    }

    func test_atMostWidthRunAtOnce() async throws {
        // Counted as the runner sees them (started, not yet finished) and as the operations do.
        let inFlight = Counter()
        let running = Counter()
        let threeRunning = Latch()
        try await OrderedTasks.run(
            count: 10, width: 3,
            starting: { _ in _ = inFlight.increment() },
            operation: { position in
                if running.increment() == 3 { threeRunning.open() }
                // The first three wait for each other, so the bound is reached; the rest run as slots free up.
                if position < 3 { await threeRunning.wait() }
                running.decrement()
            },
            finished: { _, _ in inFlight.decrement() },
            settle: { _, _ in })
        XCTAssertEqual(inFlight.maximum, 3)
        XCTAssertEqual(running.maximum, 3)
    }

    func test_aFailingSettle_startsNothingMore_butSettlesWhatRuns_thenThrows() async {
        let started = Recorder<Int>()
        let settled = Recorder<Int>()
        let failed = Recorder<Bool>()
        do {
            try await OrderedTasks.run(
                count: 20, width: 2,
                starting: { position in
                    XCTAssertTrue(failed.items.isEmpty, "operation \(position) started after a settle failed")
                    started.append(position)
                },
                operation: { $0 },
                settle: { position, _ in
                    settled.append(position)
                    if position == 1 {
                        failed.append(true)
                        throw Stop(position: 1)
                    }
                })
            XCTFail("the settle's error is thrown")
        } catch {
            XCTAssertEqual(error as? Stop, Stop(position: 1))
        }
        XCTAssertEqual(settled.items, started.items, "every operation started is settled")
        XCTAssertLessThan(started.items.count, 20)
    }

    func test_aFailingOperation_endsTheRunAtOnce_andCancelsTheOthers() async {
        let sawCancellation = Latch()
        do {
            try await OrderedTasks.run(
                count: 2, width: 2,
                operation: { position in
                    guard position == 0 else {
                        await untilCancelled()
                        sawCancellation.open()
                        return
                    }
                    throw Stop(position: 0)
                },
                settle: { position, _ in XCTAssertNotEqual(position, 0, "a failed operation is never settled") })
            XCTFail("the operation's error is thrown")
        } catch {
            XCTAssertEqual(error as? Stop, Stop(position: 0))
        }
        await sawCancellation.wait()
    }

    func test_cancelled_startsNothingMore_settlesWhatRan_andThrows() async {
        let firstStarted = Latch()
        let started = Recorder<Int>()
        let settled = Recorder<Int>()
        let run = Task {
            try await OrderedTasks.run(
                count: 5, width: 1,
                starting: { started.append($0) },
                operation: { position in
                    firstStarted.open()
                    // Waits for what never comes but the cancellation: the way out this wait has.
                    await untilCancelled()
                    return position
                },
                settle: { position, _ in settled.append(position) })
        }
        await firstStarted.wait()
        run.cancel()
        do {
            try await run.value
            XCTFail("a run cut short says so")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(started.items, [0])
        XCTAssertEqual(settled.items, [0])
    }

    func test_nothingToRun_returnsAtOnce() async throws {
        try await OrderedTasks.run(
            count: 0, width: 4, operation: { _ in XCTFail("nothing runs") },
            settle: { _, _ in XCTFail("nothing settles") })
    }
}

private struct Stop: Error, Equatable {
    var position: Int
}

/// Waits until the task is cancelled.
private func untilCancelled() async {
    let latch = Latch()
    await withTaskCancellationHandler {
        await latch.wait()
    } onCancel: {
        latch.open()
    }
}

/// Opened once; every wait for it ends then (at once, when it is already open).
private final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

private final class Recorder<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Item] = []

    var items: [Item] { lock.withLock { recorded } }
    func append(_ item: Item) { lock.withLock { recorded.append(item) } }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    private var highest = 0

    var maximum: Int { lock.withLock { highest } }

    func increment() -> Int {
        lock.withLock {
            value += 1
            highest = max(highest, value)
            return value
        }
    }

    func decrement() { lock.withLock { value -= 1 } }
}
