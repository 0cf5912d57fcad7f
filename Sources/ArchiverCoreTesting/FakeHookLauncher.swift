// A hook launcher that runs nothing: it records each command with its environment and answers as scripted.
import ArchiverCore
import Foundation

/// Records every hook run and answers each with the next scripted exit (then `.exited(0)`).
public final class FakeHookLauncher: HookLaunching, @unchecked Sendable {
    /// One hook run: the command's text and the variables it was given.
    public struct Call: Equatable, Sendable {
        public var command: String
        public var environment: [String: String]
        public var timeout: TimeInterval
    }

    private let lock = NSLock()
    private var script: [HookExit]
    private var recorded: [Call] = []

    /// A launcher answering with `script`, in order, then success.
    public init(_ script: [HookExit] = []) {
        self.script = script
    }

    /// Every run so far, in order.
    public var calls: [Call] { lock.withLock { recorded } }

    /// The titles the runs so far were for.
    public var titles: [String] { calls.map { $0.environment["PODARCHIVE_TITLE"] ?? "" } }

    /// Answers the next runs with `exits`.
    public func answer(_ exits: [HookExit]) { lock.withLock { script = exits } }

    public func run(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookExit {
        lock.withLock {
            recorded.append(Call(command: command, environment: environment, timeout: timeout))
            return script.isEmpty ? .exited(0) : script.removeFirst()
        }
    }
}
