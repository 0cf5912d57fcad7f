// A hook launcher that runs nothing: it records each command with its environment and answers as scripted.
import ArchiverCore
import Foundation

/// Records every hook run and answers each with the next scripted exit (then `.exited(0)`).
public final class FakeHookLauncher: HookLaunching {
    /// One hook run: the command's text and the variables it was given.
    public struct Call: Equatable, Sendable {
        /// The command's text.
        public var command: String
        /// The variables it was given (`PODARCHIVE_*`).
        public var environment: [String: String]
        /// Its time limit in seconds.
        public var timeout: TimeInterval
    }

    private struct State {
        var script: [HookExit]
        var recorded: [Call] = []
    }

    private let state: Locked<State>

    /// A launcher answering with `script`, in order, then success.
    public init(_ script: [HookExit] = []) {
        state = Locked(State(script: script))
    }

    /// Every run so far, in order.
    public var calls: [Call] { state.withLock { $0.recorded } }

    /// The titles the runs so far were for.
    public var titles: [String] { calls.map { $0.environment["PODARCHIVE_TITLE"] ?? "" } }

    /// Answers the next runs with `exits`.
    public func answer(_ exits: [HookExit]) { state.withLock { $0.script = exits } }

    /// Records the run and answers with the next scripted exit.
    public func run(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookExit {
        state.withLock {
            $0.recorded.append(Call(command: command, environment: environment, timeout: timeout))
            return $0.script.isEmpty ? .exited(0) : $0.script.removeFirst()
        }
    }
}
