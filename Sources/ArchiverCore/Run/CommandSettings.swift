// The show settings a command is given before it knows a show: the command line's and the configuration file's,
// with where relative paths start and the home folder whose `.netrc` is read when none is named. Every command
// that reads a feed turns them, with a show's saved settings, into the options it reads with here, and only here:
// the layers (command line, saved, configuration file, defaults) and the paths in them are resolved one way.
import Foundation

/// What a command is given for the shows it reads: settings in two layers, and where paths in them start.
public struct CommandSettings: Equatable, Sendable {
    /// The command line's settings: over a show's saved ones, and saved with a feed named to `sync` or `add`.
    public var given: ShowSettings
    /// The configuration file's: under a show's saved ones, never saved.
    public var configured: ShowSettings
    /// Where a relative path given (a `.netrc` file) starts.
    public var currentDirectory: String
    /// The home folder, whose `.netrc` is read (as wget does) when no `.netrc` file is named; nil for none.
    public var home: String?

    /// Settings given in `given` over `configured`, for a process started in `currentDirectory`.
    public init(
        given: ShowSettings = ShowSettings(), configured: ShowSettings = ShowSettings(), currentDirectory: String,
        home: String?
    ) {
        self.given = given
        self.configured = configured
        self.currentDirectory = currentDirectory
        self.home = home
    }

    /// `~/.netrc`, read when it exists.
    public var defaultNetrc: NetrcChoice? {
        home.flatMap { $0.isEmpty ? nil : NetrcChoice(path: $0 + "/.netrc", required: false) }
    }

    /// How a request is made before a show is known (a show named read while finding its feed): the command
    /// line's User-Agent, else the configuration file's, else podarchive's; no credentials.
    public func findingPolicy(throttle: Throttle? = nil) -> TransferPolicy {
        TransferPolicy(
            profile: RequestProfile(
                userAgent: given.userAgent ?? configured.userAgent ?? PodarchiveVersion.userAgent),
            throttle: throttle)
    }

    /// The access of a command that reads what the archive holds (`site`, `export`): `~/.netrc`, by which a private
    /// show's files are known.
    public var archiveAccess: SyncOptions {
        var access = SyncOptions()
        access.netrc = defaultNetrc
        return access
    }

    /// The command line's settings, a `.netrc` path in them made absolute: what `sync` and `add` save.
    public var givenResolved: ShowSettings { resolving(given) }

    /// A show's settings in layers: the command line's over `saved` over the configuration file's, their paths
    /// made absolute.
    public func layers(saved: ShowSettings?) -> SettingsLayers {
        SettingsLayers(given: resolving(given), saved: saved, configuration: resolving(configured))
    }

    /// `base` with the settings of a show that saved `saved` applied (`accessOnly`: only those that say how a
    /// request is made), reading `~/.netrc` when no layer names a `.netrc` file.
    /// - Throws: `SettingsError` for a saved value that is no longer valid.
    public func options(_ base: SyncOptions = SyncOptions(), saved: ShowSettings?, accessOnly: Bool = false) throws
        -> SyncOptions
    {
        var options = base
        options.netrc = options.netrc ?? defaultNetrc
        let layers = self.layers(saved: saved)
        return try options.applying(accessOnly ? layers.access : layers)
    }

    /// The options of a command that names folders rather than feeds (`verify`, `site`, `export`): the run's
    /// settings, each show's saved ones taking their place among them as it is read (`SyncOptions.runSettings`).
    public func runOptions(_ base: SyncOptions = SyncOptions()) -> SyncOptions {
        var options = base
        options.netrc = options.netrc ?? defaultNetrc
        options.runSettings = layers(saved: nil)
        return options
    }

    private func resolving(_ settings: ShowSettings) -> ShowSettings {
        var settings = settings
        settings.netrcFile = settings.netrcFile.map { $0.hasPrefix("/") ? $0 : currentDirectory + "/" + $0 }
        return settings
    }
}

/// How a command's transfers go: retries, deadlines, the wait for a locked show, downloads at once and the
/// bandwidth cap (`--retries`, `--timeout`, `--wait`, `--jobs`, `--limit-rate`).
public struct TransferSettings: Equatable, Sendable {
    /// Tries after the first of a failing download.
    public var retries: Int
    /// Seconds each episode may take, all tries included.
    public var timeout: TimeInterval
    /// Seconds to wait for another process syncing the same show.
    public var wait: TimeInterval
    /// Downloads at once, in all.
    public var jobs: Int
    /// Bytes a second the whole run may read; nil for no cap.
    public var limitRate: Int64?

    /// Transfer settings; those not given are a sync's defaults (`SyncOptions`', made once for all four).
    public init(
        retries: Int? = nil, timeout: TimeInterval? = nil, wait: TimeInterval? = nil, jobs: Int? = nil,
        limitRate: Int64? = nil
    ) {
        let defaults = SyncOptions()
        self.retries = retries ?? defaults.retry.retries
        self.timeout = timeout ?? defaults.episodeTimeout
        self.wait = wait ?? defaults.lockWait
        self.jobs = jobs ?? defaults.jobs
        self.limitRate = limitRate
    }

    /// As the options of a sync.
    public var options: SyncOptions {
        SyncOptions(retry: RetryPolicy(retries: retries), episodeTimeout: timeout, lockWait: wait, jobs: jobs)
    }

    /// The run's bandwidth cap, shared by every show of it.
    public var throttle: Throttle? { limitRate.map { Throttle(bytesPerSecond: $0) } }
}
