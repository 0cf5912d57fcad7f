// The options that say how much runs at once, how long a transfer may take and how big a feed may be.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum TransferOptions {
    /// Every option of this file, in the order help and the man page list them.
    /// Shows syncing at once unless --feed-jobs says.
    static let defaultFeedJobs = 8

    static let declared: [OptionDescriptor] = [
        maximumFeedSize.descriptor, jobs.descriptor, feedJobs.descriptor, shard.descriptor, retries.descriptor,
        timeout.descriptor, wait.descriptor,
    ]

    static let maximumFeedSize: Option<Int64> = .value(
        "--max-feed-size", "SIZE", .bytes("a size such as 512M or 2G (at least 1K)"),
        help: #"""
            the largest feed document read (once decompressed; default {default}; a number of bytes, or with K, M or G);
            a larger one stops the fetch as soon as it passes the size (exit 3, nothing archived, nothing touched)
            """#, config: true,
        default: FeedLimits.defaultMaximumBytes, showDefault: ByteSize.text)
    static let jobs: Option<Int> = .value(
        "--jobs", short: "j", "N", .number(in: 1...64),
        help: #"""
            download <N> episodes at once in all, across shows (default {default}, at most 64); at most 4 requests of
            any kind (feeds and their pages included) go to one host at once; names, the index and the output stay in
            feed order
            """#, config: true,
        default: TransferSettings().jobs, showDefault: { "\($0)" })
    static let feedJobs: Option<Int> = .value(
        "--feed-jobs", "N", .number(in: 1...64),
        help: #"""
            sync <N> shows at once (default {default}); at most 4 requests (feeds, pages, companions, artwork and
            downloads together) go to one host at a time, with one show or many; each show's lines are printed together,
            in subscription order
            """#, config: true, default: defaultFeedJobs,
        showDefault: { "\($0)" })
    static let shard: Option<Shard> = .value(
        "--shard", "K/N", .shard,
        help: #"""
            sync only shard <K>/<N> of the shows (<K> from 0, as `$JOB_COMPLETION_INDEX` counts): <N> machines sharing
            one archive each take theirs, by a stable hash of the feed URL, with no coordinator

            flock works on NFSv4 and CephFS, so the machines may share the archive root there.
            """#)
    static let retries: Option<Int> = .value(
        "--retries", "N", .number(in: 0...100),
        help: #"""
            tries after failures that may pass: feeds, their pages, episodes and their companions are tried again after
            a connection failure, an idle timeout (60 s without a byte), a body cut short, 5xx, 408 or 429, waiting 1 s,
            2 s, 4 s... with jitter, or as long as Retry-After asks, within `--timeout` (default {default})

            Other 4xx answers are not retried.
            """#, config: true, default: TransferSettings().retries,
        showDefault: { "\($0)" })
    static let timeout: Option<TimeInterval> = .value(
        "--timeout", "SECONDS", .seconds(positive: true),
        help: #"""
            seconds each episode or feed may take: each must be complete within this time, all tries and waits included
            (default {default}); what arrived of an episode is kept and resumed on the next run

            The same default holds for every command that takes it. `add` and `list` give each feed (and each page it
            links to) this long, then exit 3; `verify --upstream` gives each episode's answer this long or 60 seconds,
            whichever is less, and counts an episode without an answer as unknown.
            """#,
        helpFor: [
            "add": "each feed must be complete within this time (default {default}, as for sync); a feed that "
                + "is not is not subscribed (exit 3)",
            "list": "the feed, and each page it links to, must be complete within this time (default "
                + "{default}, as for sync; exit 3)",
            "verify": "each file downloaded again must be complete within this time, all tries included "
                + "(default {default}, as for sync); with --upstream, each episode's answer within this time "
                + "or 60 s, whichever is less (no answer: unknown)",
        ], config: true, default: TransferSettings().timeout, showDefault: seconds)
    static let wait: Option<TimeInterval> = .value(
        "--wait", "SECONDS", .seconds(positive: false),
        help: #"""
            seconds to wait for another sync: if another podarchive is syncing the same feed, wait this long for it,
            then exit 4 (default {default}: at once)
            """#, config: true, default: TransferSettings().wait, showDefault: seconds)
    /// `3600`, not `3600.0`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
