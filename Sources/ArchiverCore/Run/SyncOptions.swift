// What a caller can ask of a sync, and the points where the crash tests stop one.
import Foundation

/// How a sync behaves.
public struct SyncOptions: Sendable, Equatable {
    /// How often a failing download is tried again within this run, and how long to wait between tries.
    public var retry: RetryPolicy
    /// Each episode must be complete within this many seconds, all attempts and waits included.
    public var episodeTimeout: TimeInterval
    /// How long to wait for another process syncing the same feed (0: fail at once with `locked`).
    public var lockWait: TimeInterval
    /// How many episodes download at once.
    public var jobs: Int
    /// Which of the feed's episodes this sync considers (new ones, earlier failures, missing files).
    public var filter: EpisodeFilter
    /// How new files are named (`--name`); files already archived keep their names.
    public var names: NameTemplate
    /// Write a JSON sidecar beside each archived file, and fetch the feed's artwork once (`--metadata`).
    public var metadata: Bool
    /// The largest feed document read (decompressed), in bytes.
    public var maximumFeedSize: Int64
    /// Also try episodes recorded as gone upstream (see `ArchiveIndex.Failure.goneAfter`).
    public var retryGone: Bool
    /// Shared by the shows of one run: caps on downloads in all and on requests of every kind (feeds, pages,
    /// companions, artwork, episodes) to one host, and the disk space downloads in flight have claimed. Nil: only
    /// `jobs` limits this show's downloads, and each checks the disk alone.
    public var budget: DownloadBudget?
    /// The most one download may be: refused as soon as the server announces more, and stopped as soon as more
    /// arrives, decoded (see `DownloadOptions.maximumBytes`). Nil for episodes; see `companionMaximumBytes`.
    public var maximumDownloadBytes: Int64?
    /// The most a transcript, chapters document or artwork (an episode's or the show's) may be; 20 MB.
    public var companionMaximumBytes: Int64 = 20 << 20
    /// Keep the transcripts and chapters published with each episode (and, with `metadata`, its artwork).
    public var companions = true
    /// The media types or codecs preferred among an episode's alternate enclosures, first first (see
    /// `PreferredFile`); empty: the enclosure.
    public var prefer: [String] = []
    /// Settings to save with the show's subscription (each one given replaces the saved one); nil saves none.
    public var saveSettings: ShowSettings?
    /// The show's User-Agent and credentials: every request of the sync is made through it.
    public var profile = RequestProfile()
    /// How what the show supplies is redacted (see `Taint`): made with its access (`ShowAccess.withAccess`), and
    /// put on the task that works on the show.
    public var taint = Taint.none
    /// Credentials to save with the show's subscription (see `ShowCredentials.overlaid`); nil saves none.
    public var saveCredentials: ShowCredentials?
    /// The run's bandwidth cap, shared by every show of the run; nil reads as fast as the network allows.
    public var throttle: Throttle?
    /// The `.netrc` file whose logins go to the hosts they name (read once the show is known).
    public var netrc: NetrcChoice?
    /// Where the user named a show not subscribed yet, when that is not its feed's origin (the web page the feed
    /// was found on): its subscription keeps it as the origin a `.netrc` `default` login goes to
    /// (`Subscription.home`), so a page never sends that login to the host it names. nil: the feed's own.
    public var namedAt: Origin?
    /// The show settings the run gives every show (the command line's over the configuration file's), for a
    /// command that names folders rather than feeds (`verify`): each show's saved settings take their place among
    /// them, and the access settings (User-Agent, `.netrc` file) that come out are used.
    public var runSettings = SettingsLayers([])
    /// New files' names in ASCII only (`--ascii-names`); carried into `names` whichever layer gives the template.
    public var asciiNames = false
    /// What the folder of a show seen for the first time is called (`--folder-name`).
    public var folderNames = FolderTemplate.standard

    /// The folder name (before any counter) of a show seen for the first time: `feed` read from `source`.
    func folderName(for feed: Feed, source: FeedSource) -> String {
        folderNames.name(for: feed, source: source, ascii: asciiNames)
    }
    /// The show's retention settings, from every layer (`keepLast`/`keepDays`, `into`/`delete`):
    /// read whole once the layers are applied (see `RetentionRule.of`), and applied after each of its syncs.
    var retentionSettings = ShowSettings()
    /// The command run after each episode is archived; nil for none. Never saved (see `EpisodeHook`).
    public var hook: EpisodeHook?
    /// Keeps the show apart from those it shares a title or episodes with (`Subscription.separate`): a new feed
    /// gets a folder of its own and takes over no other subscription; saved with its subscription.
    public var separate = false

    /// Sync options; the defaults are the command line's.
    public init(
        retry: RetryPolicy = RetryPolicy(), episodeTimeout: TimeInterval = 3600, lockWait: TimeInterval = 0,
        jobs: Int = 4, filter: EpisodeFilter = EpisodeFilter(), names: NameTemplate = .standard,
        metadata: Bool = false, maximumFeedSize: Int64 = FeedLimits.defaultMaximumBytes, retryGone: Bool = false
    ) {
        self.retry = retry
        self.episodeTimeout = episodeTimeout
        self.lockWait = lockWait
        self.jobs = jobs
        self.filter = filter
        self.names = names
        self.metadata = metadata
        self.maximumFeedSize = maximumFeedSize
        self.retryGone = retryGone
    }

    /// Uses `credentials`, given for this run (a login in the feed URL, headers), for the run's requests and
    /// saves them with the show; nil changes nothing.
    public mutating func give(_ credentials: ShowCredentials?) {
        guard let credentials else { return }
        saveCredentials = credentials
        profile.credentials = [credentials]
    }

    /// These options with `settings` applied over them.
    /// - Throws: `SettingsError` naming the first setting that is not valid (a hand-edited record).
    public func applying(_ settings: ShowSettings) throws -> SyncOptions {
        /// `value` checked by `rule`, or the error naming the setting.
        func checked<Value>(_ key: ShowSettings.Key, _ value: Value, _ rule: (Value) throws(SettingProblem) -> Value)
            throws -> Value
        {
            do { return try rule(value) } catch { throw SettingsError(key: key, value: "\(value)", problem: error) }
        }
        var options = self
        if let name = settings.name {
            do {
                options.names = try ShowSettings.checkName(name)
            } catch {
                throw SettingsError(key: .name, value: name, problem: error)
            }
        }
        if case .flag(let ascii)? = settings[.asciiNames] { options.asciiNames = ascii }
        options.names.ascii = options.asciiNames
        if case .text(let text)? = settings[.folderName] {
            do {
                options.folderNames = try ShowSettings.checkFolderName(text)
            } catch {
                throw SettingsError(key: .folderName, value: text, problem: error)
            }
        }
        if let metadata = settings.metadata { options.metadata = metadata }
        if let agent = settings.userAgent {
            options.profile.userAgent = try checked(.userAgent, agent, ShowSettings.checkUserAgent)
        }
        if let path = settings.netrcFile {
            options.netrc = NetrcChoice(
                path: try checked(.netrcFile, path, ShowSettings.checkNetrcFile), required: true)
        }
        if let companions = settings.companions { options.companions = companions }
        if let prefer = settings.prefer {
            options.prefer =
                prefer.isEmpty
                ? [] : try checked(.prefer, prefer, ShowSettings.checkPrefer).split(separator: ",").map(String.init)
        }
        options.filter = try options.filter.applying(settings)
        // Key by key, as the layers merge: read whole when the sync applies it (a higher layer may give the rest).
        for key in ShowSettings.Key.retention where settings[key] != nil {
            options.retentionSettings[key] = settings[key]
            // One way of choosing, one place: a layer's `--keep-days` replaces a lower one's `--keep-last`.
            if key == .keepLast, settings[.keepDays] == nil { options.retentionSettings[.keepDays] = nil }
            if key == .keepDays, settings[.keepLast] == nil { options.retentionSettings[.keepLast] = nil }
            if key == .into, settings[.delete] == nil { options.retentionSettings[.delete] = nil }
            if key == .delete, settings[.into] == nil { options.retentionSettings[.into] = nil }
        }
        return options
    }

    /// The most documents one walk of a feed's pages fetches (see `FeedLimits.maximumPages`).
    public var maximumPages = 1_000

    /// What a feed fetch may take: the size cap, the same total time and retries an episode gets, a slot of its
    /// host in the run's budget, and how many pages one walk reads.
    public var feedLimits: FeedLimits {
        var limits = FeedLimits(maximumBytes: maximumFeedSize, timeout: episodeTimeout, policy: policy, budget: budget)
        limits.maximumPages = maximumPages
        limits.retry = retry
        return limits
    }

    /// What a sync with these options wants of the feed, as far as a `304` is concerned (see `FeedWants`).
    var wants: FeedWants { FeedWants(metadata: metadata, criteria: filter.criteria, companions: companions) }

    /// How the sync's transfers behave: the show's profile, on redirects too, and the run's cap.
    public var policy: TransferPolicy { TransferPolicy(profile: profile, throttle: throttle) }

    /// These options for fetching a companion or artwork: held to `companionMaximumBytes` (or a smaller cap).
    var forCompanions: SyncOptions {
        var options = self
        options.maximumDownloadBytes = min(maximumDownloadBytes ?? .max, companionMaximumBytes)
        return options
    }
}

extension SyncOptions {
    /// These options with every layer of `layers` applied over them, the lowest first: each layer's values are
    /// checked, even one a higher layer replaces. (Here, not on `SettingsLayers`: the options carry the layers.)
    /// - Throws: `SettingsError` naming the first setting that is not valid (a hand-edited record).
    public func applying(_ layers: SettingsLayers) throws -> SyncOptions {
        try layers.layers.reversed().reduce(self) { try $0.applying($1.settings) }
    }
}
