// A deadline for tests that are not about deadlines.
import Foundation

/// Never passes on its own: the work under test ends first (and cancels it), or the test's watchdog fires.
let noDeadline: @Sendable (TimeInterval) async throws -> Void = { _ in
    try await Task.sleep(nanoseconds: UInt64.max / 2)
}
