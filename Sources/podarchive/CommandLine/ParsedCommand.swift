// What the parser produces: each command with its arguments, as plain values the commands run from.
import ArchiverCore
import Foundation

/// Sizes as people write them: `1024`, `500K`, `2M`, `1G` (powers of 1024; `KB`/`MB`/`GB`/`KiB` too).
enum ByteSize {
    static func parse(_ text: String) -> Int64? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits.removeLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = Int64(1) << (10 * power)
            digits.removeLast()
        }
        guard let value = Int64(digits), value >= 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}

/// What the user asked for.
enum Command: Equatable, Sendable {
    case sync(SyncArguments)
    case list(ListArguments)
    case verify(VerifyArguments)
    case add(AddArguments)
    case remove(RemoveArguments)
    case forget(ForgetArguments)
    case feeds(FeedsArguments)
    case site(SiteArguments)
    case export(ExportArguments)
    case credentials(CredentialsArguments)
    case search(SearchArguments)
    case config(ConfigArguments)
    case help(topic: String?)
    case completions(shell: String)
    case version

    /// Whether it reads the options' defaults (the environment's and the configuration file's): every command
    /// that takes options does.
    var readsDefaults: Bool {
        switch self {
        case .help, .completions, .version: return false
        default: return true
        }
    }
}

/// Options shared by the commands that download; the defaults are the archiver's own (`SyncOptions`), so each is
/// written once, there, and help shows it from here.
struct TransferSettings: Equatable, Sendable {
    var retries = SyncOptions().retry.retries
    var timeout = SyncOptions().episodeTimeout
    var wait = SyncOptions().lockWait
    var jobs = SyncOptions().jobs
    /// Bytes a second the whole run may read (`--limit-rate`); nil for no cap.
    var limitRate: Int64? = nil
}

struct SyncArguments: Equatable, Sendable {
    /// Feeds named on the command line.
    var feeds: [String]
    /// An OPML subscription list, and a plain list (one feed a line), read for more feeds.
    var opml: String? = nil
    var feedList: String? = nil
    var archiveDirectory: String?
    var transfer = TransferSettings()
    /// Print a machine-readable summary instead of lines for people.
    var json = false
    /// How much to say on standard output.
    var verbosity = Verbosity.normal
    /// Which episodes to consider.
    var filter = EpisodeFilter()
    /// Only say what would be downloaded.
    var dryRun = false
    /// How new files are named (`--name`).
    var names = NameTemplate.standard
    /// Write sidecars and the feed's artwork (`--metadata`).
    var metadata = false
    /// Also try episodes recorded as gone upstream (`--retry-gone`).
    var retryGone = false
    /// The largest feed document read (`--max-feed-size`).
    var maximumFeedSize = FeedLimits.defaultMaximumBytes
    /// The show settings given on the command line (saved with the feeds named; over the saved ones for all).
    var given = ShowSettings()
    /// How many shows sync at once (`--feed-jobs`).
    var feedJobs = 8
    /// Only the shows of shard `index` of `count` (`--shard K/N`).
    var shard: Shard? = nil
    /// Headers for the feeds named (`--header`), sent to their own origin and saved with them.
    var headers: [String] = []
    /// `--site` (true) or `--no-site` (false): refresh the web pages after each sync, saved for the archive.
    var site: Bool? = nil
    /// `--exec`, `--exec-timeout`: the command run after each archived episode (never saved).
    var hook: EpisodeHook? = nil
    /// The show settings the configuration file gives: under those saved with each show, never saved.
    var configured = ShowSettings()
}

/// `podarchive config [<show>] [options]`: the settings a run would use and where each comes from.
struct ConfigArguments: Equatable, Sendable {
    /// A show whose saved settings are layered in (its folder name or feed URL).
    var show: String?
    var archiveDirectory: String?
    var json = false
    /// The options given on the command line, by name, with their text ("true" for a switch).
    var given: [String: String] = [:]
    /// The show settings given, and those the configuration file gives.
    var settings = ShowSettings()
    var configured = ShowSettings()
}

/// `podarchive credentials [--move]`: where each show's secrets are kept, and moving them out of the archive.
struct CredentialsArguments: Equatable, Sendable {
    var archiveDirectory: String?
    var move = false
}

/// `podarchive site [DIR] [--base-url URL]`: the archive's web pages and podcast feeds.
struct SiteArguments: Equatable, Sendable {
    var directory: String?
    var baseURL: String?
    /// `--out DIR`: publish into a folder of its own (saved).
    var out: String?
    /// `--no-out`: forget the saved `--out`.
    var noOut = false
}

/// `podarchive export --warc FILE [DIR] [--show SHOW...]`: the archive as one WARC file.
struct ExportArguments: Equatable, Sendable {
    var warc: String
    var directory: String?
    /// Only these shows (folder names or feed URLs); every show when empty.
    var shows: [String] = []
}

/// `--shard K/N`: this machine's share of the subscriptions.
struct Shard: Equatable, Sendable {
    var index: Int
    var count: Int
}

/// `podarchive add <feed>... [settings]`: subscribe without downloading.
struct AddArguments: Equatable, Sendable {
    var feeds: [String]
    var archiveDirectory: String?
    var settings = ShowSettings()
    var headers: [String] = []
    /// `--timeout`: how long each feed may take to arrive.
    var timeout = TransferSettings().timeout
    /// `--verbose`: also list the other feeds a show's web page links to.
    var verbose = false
    /// The show settings the configuration file gives: used to read the feeds, never saved.
    var configured = ShowSettings()
    /// `--separate`: each feed kept apart from a show it shares a title or episodes with.
    var separate = false
}

/// `podarchive search TERM... [--json] [--limit N]`: shows of the podcast directory.
struct SearchArguments: Equatable, Sendable {
    /// The words searched for, joined by spaces.
    var terms: [String]
    var json = false
    /// At most this many shows (1 to 200).
    var limit = 10
}

/// `podarchive remove <feed URL or folder>...`: unsubscribe, deleting nothing.
/// `podarchive forget <show> <episode>... [--undo | --keep-files]`.
struct ForgetArguments: Equatable, Sendable {
    /// A folder name, title or feed URL.
    var show: String
    /// Titles, GUIDs or file names.
    var episodes: [String]
    var undo = false
    var keepFiles = false
    var archiveDirectory: String?
    /// `--wait`: how long to wait for a sync that holds the show.
    var wait = TransferSettings().wait
}

struct RemoveArguments: Equatable, Sendable {
    var shows: [String]
    var archiveDirectory: String?
}

/// `podarchive feeds [--json | --opml]`: the subscriptions and what each holds.
struct FeedsArguments: Equatable, Sendable {
    var archiveDirectory: String?
    var json = false
    var opml = false
    /// With `opml`: feed URLs whole, their secrets included.
    var includeSecrets = false
}

/// How much `sync` prints: `--quiet` only errors (on standard error), `--verbose` also what it skipped and why.
enum Verbosity: Equatable, Sendable {
    case quiet, normal, verbose
}

struct ListArguments: Equatable, Sendable {
    var feed: String
    var json = false
    var filter = EpisodeFilter()
    var maximumFeedSize = FeedLimits.defaultMaximumBytes
    /// Only the document itself, not the pages it links to (`--first-page`).
    var firstPage = false
    /// What the archive holds of the show instead (`--archived`), and the archive root (`--to`).
    var archived = false
    var archiveDirectory: String? = nil
    /// `--header`, `--user-agent`, `--netrc-file`.
    var headers: [String] = []
    var access = ShowSettings()
    /// `--timeout`: how long the feed, and each page it links to, may take to arrive.
    var timeout = TransferSettings().timeout
    /// The access settings the configuration file gives, under those saved with the show.
    var configured = ShowSettings()
}

struct VerifyArguments: Equatable, Sendable {
    var directory: String?
    var repair = false
    var transfer = TransferSettings()
    /// Ask the episodes' origins instead (`--upstream`), and print JSON (`--json`, with `--upstream`).
    var upstream = false
    var json = false
    /// `--user-agent`, `--netrc-file`.
    var access = ShowSettings()
    /// The access settings the configuration file gives, under those saved with each show.
    var configured = ShowSettings()
}

/// A command line podarchive cannot run: the message, and which command's usage to show.
struct UsageError: Error, Equatable, Sendable {
    var message: String
    var command: String?
}
