// The seam through which a hook's command runs: live, `/bin/sh -c` spawned with posix_spawn in a process group of
// its own; in tests, a fake that answers as scripted. Foundation's `Process` is not used: on Linux it cannot put
// the child in a new process group, and a hook that starts children must be stopped with all of them.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a hook's command ended.
public enum HookExit: Equatable, Sendable {
    /// It exited with this status (0 is success).
    case exited(Int32)
    /// A signal it did not catch ended it.
    case signalled(Int32)
    /// It was still running after the time limit (given in seconds), and was stopped with its process group.
    case timedOut(TimeInterval)
    /// It could not be started at all.
    case notStarted(String)

    /// Whether the hook did its work.
    public var succeeded: Bool { self == .exited(0) }

    /// Why it failed, in words for the user; nil when it succeeded.
    public var reason: String? {
        switch self {
        case .exited(0): return nil
        case .exited(let status): return "exited with status \(status)"
        case .signalled(let signal): return "ended by signal \(signal)"
        case .timedOut(let seconds): return "still running after \(Self.seconds(seconds)); stopped"
        case .notStarted(let reason): return "could not start: \(reason)"
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }
}

/// How a hook's command ended, and what it printed.
public struct HookRun: Equatable, Sendable {
    /// How it ended.
    public var exit: HookExit
    /// What it wrote to its standard output and error, in the order written (its last `HookOutput.limit` bytes).
    public var output: String

    /// A run that ended as `exit` and printed `output`.
    public init(exit: HookExit, output: String = "") {
        self.exit = exit
        self.output = output
    }
}

/// Runs one hook's command.
public protocol HookLaunching: Sendable {
    /// Runs `command` with `/bin/sh -c`, the variables of `environment` added to the process's own, and waits at
    /// most `timeout` seconds for it (then stops it and its children).
    func run(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookExit
    /// As `run`, keeping what the command printed instead of letting it through: a launcher that captures nothing
    /// (a double) answers with no output.
    func capturing(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookRun
}

extension HookLaunching {
    /// A launcher that cannot capture: its run, with nothing printed.
    public func capturing(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookRun {
        HookRun(exit: await run(command, environment: environment, timeout: timeout))
    }
}

/// The live launcher: `/bin/sh -c command` in a new process group, its standard input `/dev/null`, its standard
/// output and error one pipe that podarchive reads (`HookOutput`), so what a hook prints is shown only when it fails
/// or with `-v`, and never mixes into a JSON report on standard output. Past the time limit the group gets SIGTERM,
/// and SIGKILL `grace` seconds later if anything of it is still running.
public struct ShellHookLauncher: HookLaunching {
    /// How long a stopped hook gets between SIGTERM and SIGKILL.
    public var grace: TimeInterval

    /// A launcher that waits `grace` seconds between SIGTERM and SIGKILL.
    public init(grace: TimeInterval = 5) {
        self.grace = grace
    }

    /// Where a run is, for a cancellation (Ctrl-C) that may come before or after the spawn.
    private enum Stage {
        case starting
        case running(pid_t)
        case cancelled
    }

    /// Spawns the command and waits for it, at most `timeout` seconds and then `grace` more once stopped.
    /// Cancelled (the run interrupted), the hook's group gets SIGTERM: in a group of its own, it does not get the
    /// terminal's Ctrl-C, and must not be left running.
    public func run(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookExit {
        await capturing(command, environment: environment, timeout: timeout).exit
    }

    /// Spawns the command with its output captured, and waits for it as `run` does.
    public func capturing(_ command: String, environment: [String: String], timeout: TimeInterval) async -> HookRun {
        let grace = grace
        let stage = Locked(Stage.starting)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(
                        returning: Self.runBlocking(command, environment, timeout: timeout, grace: grace, stage: stage))
                }
            }
        } onCancel: {
            let pid: pid_t? = stage.withLock { now in
                if case .running(let pid) = now { return pid }
                now = .cancelled
                return nil
            }
            if let pid { kill(-pid, SIGTERM) }
        }
    }

    private static func runBlocking(
        _ command: String, _ added: [String: String], timeout: TimeInterval, grace: TimeInterval,
        stage: Locked<Stage>
    ) -> HookRun {
        var environment = SessionTemplate.environmentAtStart
        for (name, value) in added { environment[name] = value }
        guard let output = HookOutput() else {
            return HookRun(exit: .notStarted("no pipe for its output: \(String(cString: strerror(errno)))"))
        }
        let pid: pid_t
        switch spawn(command, environment: environment, output: output.writeEnd) {
        case .success(let started): pid = started
        case .failure(let problem):
            output.abandon()
            return HookRun(exit: .notStarted(problem.reason))
        }
        // The hook holds the pipe's write end now; the reader sees its end when the hook (and what it left running)
        // closes it, or stops once the hook has ended and nothing more comes (`HookOutput.finish`).
        output.startReading()
        let exit = wait(for: pid, timeout: timeout, grace: grace, stage: stage)
        return HookRun(exit: exit, output: output.finish())
    }

    private static func wait(
        for pid: pid_t, timeout: TimeInterval, grace: TimeInterval, stage: Locked<Stage>
    ) -> HookExit {
        let cancelled = stage.withLock { now in
            if case .cancelled = now { return true }
            now = .running(pid)
            return false
        }
        if cancelled { kill(-pid, SIGTERM) }
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int32>(0)
        // waitpid blocks: it gets a thread of its own, and the semaphore gives the wait a way out.
        Thread.detachNewThread {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status.withLock { $0 = raw }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(-pid, SIGTERM)
            if done.wait(timeout: .now() + grace) == .timedOut {
                kill(-pid, SIGKILL)
                done.wait()
            } else {
                // The shell went, but a child of it that ignores SIGTERM would stay: the group goes all at once.
                kill(-pid, SIGKILL)
            }
            return .timedOut(timeout)
        }
        let raw = status.withLock { $0 }
        // The wait status, decoded as <sys/wait.h>'s macros do (Swift does not import them).
        if raw & 0x7f == 0 { return .exited((raw >> 8) & 0xff) }
        return .signalled(raw & 0x7f)
    }

    private struct SpawnProblem: Error {
        var reason: String
    }

    #if canImport(Glibc)
        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
        /// import: found at run time, nil on an older glibc (the hook then inherits what is not close-on-exec).
        private static let closeFrom:
            (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
                guard
                    let symbol = dlsym(
                        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
                else { return nil }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
            }()
    #endif

    private static func spawn(
        _ command: String, environment: [String: String], output: Int32
    ) -> Result<pid_t, SpawnProblem> {
        #if canImport(Glibc)
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
        #else
            var attributes: posix_spawnattr_t?
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        // A group of its own: a hook past its time is stopped with every child it started.
        posix_spawnattr_setpgroup(&attributes, 0)
        // Signals as a fresh process has them: podarchive ignores SIGINT and SIGTERM to handle them itself (and
        // a thread of it may block them), and both the ignoring and the mask would pass to the hook, which would
        // then outlive SIGTERM.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // Nothing else of podarchive's: libcurl's sockets and libdispatch's pipes are not close-on-exec, and a hook
        // (or what it leaves running) holding them would keep connections, and the run's files, open after it.
        #if canImport(Glibc)
            _ = Self.closeFrom.map { $0(&actions, 3) }
        #elseif canImport(Darwin)
            posix_spawnattr_setflags(
                &attributes,
                Int16(
                    POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT
                ))
        #endif
        // A value can hold no NUL byte: what a feed put there is dropped, never the variable.
        let pairs = environment.map { "\($0.key)=\($0.value)".replacingOccurrences(of: "\0", with: "") }
        let arguments = ["/bin/sh", "-c", command.replacingOccurrences(of: "\0", with: "")]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = pairs.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, &envp)
        guard result == 0 else { return .failure(SpawnProblem(reason: String(cString: strerror(result)))) }
        return .success(pid)
    }
}
