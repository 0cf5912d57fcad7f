// A TextOutput that keeps what was written, for assertions.
import Foundation

@testable import podarchive

final class CapturedOutput: TextOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    func write(_ text: String) {
        lock.withLock { buffer += text }
    }

    var text: String { lock.withLock { buffer } }

    /// Forgets what was written so far.
    func clear() { lock.withLock { buffer = "" } }
    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}
