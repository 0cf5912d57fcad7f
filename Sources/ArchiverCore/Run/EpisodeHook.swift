// A command to run after each episode is archived. It comes from the command line or the configuration file only:
// it is never saved with a show or in the archive, so whoever can write an archive cannot make the machines that
// sync it run anything.
import Foundation

/// The command run after each episode is archived, and how long it may take.
public struct EpisodeHook: Sendable, Equatable {
    /// The command, run with `/bin/sh -c`; what it needs of the episode is in its environment (`variables`).
    public var command: String
    /// Seconds it may run before it is stopped and counted as failed.
    public var timeout: TimeInterval
    /// How it is run (the live launcher spawns `/bin/sh`; tests give a fake).
    public var launcher: any HookLaunching

    /// The default time limit: five minutes.
    public static let defaultTimeout: TimeInterval = 300
    /// Runs a hook may fail (or time out) for one episode before it is given up.
    public static let maximumRuns = 3

    /// A hook running `command`, stopped after `timeout` seconds.
    public init(
        command: String, timeout: TimeInterval = defaultTimeout, launcher: any HookLaunching = ShellHookLauncher()
    ) {
        self.command = command
        self.timeout = timeout
        self.launcher = launcher
    }

    /// Two hooks are the same when they run the same command with the same limit (however they are launched).
    public static func == (lhs: EpisodeHook, rhs: EpisodeHook) -> Bool {
        lhs.command == rhs.command && lhs.timeout == rhs.timeout
    }
}

/// A hook that failed for one episode on this run.
public struct HookProblem: Equatable, Sendable {
    /// The episode's title (else its file's name).
    public var episode: String
    /// The episode's file, inside the show's folder.
    public var file: String
    /// Why it failed ("exited with status 3").
    public var reason: String
    /// The runs it has failed on so far, this one included.
    public var runs: Int
    /// Whether this was its last try: it is not run again for this episode.
    public var gaveUp: Bool
    /// What the hook printed (its standard output and error), shown with the failure; empty when it printed nothing.
    public var output: String

    /// A hook's failure for `episode` (its title), kept as `file`, having printed `output`.
    public init(episode: String, file: String, reason: String, runs: Int, gaveUp: Bool, output: String = "") {
        self.episode = episode
        self.file = file
        self.reason = reason
        self.runs = runs
        self.gaveUp = gaveUp
        self.output = output
    }
}
