// Every option's value after parsing, typed, with its default (the arguments' own, read here, so each default is
// written once). Each option's declaration binds its value to one of these fields; the commands' arguments are
// read from them, and help shows each default from here.
import ArchiverCore
import Foundation

/// A value with the text it was read from (saved as the user wrote it).
struct Written<Value: Sendable>: Sendable {
    let text: String
    let value: Value
}

/// The options of one command line, as read (an option not given keeps its default).
struct OptionValues: Sendable {
    /// sync --opml FILE, feeds --opml.
    var opmlFile: String?
    var opmlOutput = false
    var includeSecrets = false
    var move = false
    /// add --separate.
    var separate = false
    var feedList: String?
    var archiveDirectory: String?
    var name: Written<NameTemplate>?
    var metadata = false
    var noMetadata = false
    var companions = false
    var noCompanions = false
    var limit: Int?
    var since: Written<Date>?
    var match: String?
    var all = false
    var dryRun = false
    var quiet = false
    var verbose = false
    var json = false
    var upstream = false
    var archived = false
    var firstPage = false
    var repair = false
    var retryGone = false
    var maximumFeedSize = FeedLimits.defaultMaximumBytes
    var jobs = TransferSettings().jobs
    var feedJobs = SyncArguments(feeds: [], archiveDirectory: nil).feedJobs
    var shard: Shard?
    var retries = TransferSettings().retries
    var timeout = TransferSettings().timeout
    var wait = TransferSettings().wait
    var headers: [String] = []
    var netrcFile: String?
    var userAgent: String?
    var prefer: String?
    var limitRate: Int64?
    var baseURL: String?
    var out: String?
    /// site --no-out: forget the saved --out.
    var noOut = false
    /// export --warc FILE, --show SHOW.
    var warc: String?
    var shows: [String] = []
    var site = false
    /// forget --undo, --keep-files.
    var undo = false
    var keepFiles = false
    /// sync --exec CMD, --exec-timeout SECONDS (never saved).
    var exec: String?
    var execTimeout = EpisodeHook.defaultTimeout
    var noSite = false
    var help = false

    /// The defaults.
    static let standard = OptionValues()

    /// `--retries`, `--timeout`, `--wait`, `--jobs`, `--limit-rate`.
    var transfer: TransferSettings {
        TransferSettings(retries: retries, timeout: timeout, wait: wait, jobs: jobs, limitRate: limitRate)
    }

    /// `--exec` with `--exec-timeout`, when a command was given.
    var hook: EpisodeHook? {
        exec.map { EpisodeHook(command: $0, timeout: execTimeout) }
    }

    /// `--limit`, `--since`, `--match`.
    var filter: EpisodeFilter {
        var filter = EpisodeFilter()
        filter.limit = limit
        filter.since = since?.value
        filter.match = match
        return filter
    }

    /// `--user-agent` and `--netrc-file`, as the show settings they are saved as.
    var access: ShowSettings { ShowSettings(userAgent: userAgent, netrcFile: netrcFile) }

    /// The show settings given, kept as written (`--all` given turns the saved filter off).
    var settings: ShowSettings {
        var settings = access
        settings.name = name?.text
        settings.metadata = metadata ? true : noMetadata ? false : nil
        settings.limit = limit
        settings.since = since?.text
        settings.match = match
        settings.prefer = prefer
        if all { settings = settings.overlaid(by: .everyEpisode) }
        settings.companions = companions ? true : noCompanions ? false : nil
        return settings
    }

    /// `--quiet` or `--verbose` (they exclude each other).
    var verbosity: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }

    /// `--site` (true) or `--no-site` (false).
    var siteChoice: Bool? { site ? true : noSite ? false : nil }
}
