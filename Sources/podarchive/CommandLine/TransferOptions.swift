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
        "--max-feed-size", "SIZE", .bytes("a size such as 512M or 2G (at least 1K)"), summary: "largest feed read",
        help: "the largest feed document read, once decompressed (default {default}; K, M, G); a larger one "
            + "stops the fetch as soon as it passes the size (exit 3)", config: true,
        default: FeedLimits.defaultMaximumBytes, showDefault: ByteSize.text,
        manual: #"""
            The largest feed document read, once decompressed (default
            .BR {default} ;
            a number of bytes, or with K, M or G).
            A larger one stops the fetch as soon as it passes the size: exit 3, nothing archived, nothing touched.
            """#)
    static let jobs: Option<Int> = .value(
        "--jobs", short: "j", "N", .number(in: 1...64),
        summary: "episodes downloading at once",
        help: "download N episodes at once in all, across shows (default {default}); at most 4 requests of any "
            + "kind (feeds included) go to one host at once; output stays in feed order", config: true,
        default: TransferSettings().jobs, showDefault: { "\($0)" },
        manual: #"""
            Download
            .I n
            episodes at once (default {default}, at most 64); at most 4 requests of any kind (feeds and their pages
            included) go to one host at once.
            Names, the index and the output still follow the feed's order.
            """#)
    static let feedJobs: Option<Int> = .value(
        "--feed-jobs", "N", .number(in: 1...64), summary: "shows syncing at once",
        help: "sync N shows at once (default {default}), their feeds at most 4 at once to one host; each show's "
            + "lines are printed together, in subscription order", config: true, default: defaultFeedJobs,
        showDefault: { "\($0)" },
        manual: #"""
            With
            .BR sync :
            sync
            .I n
            shows at once (default {default}); at most 4 requests (feeds, pages, companions, artwork and downloads together)
            go to one host at a time, with one show or many.
            """#)
    static let shard: Option<Shard> = .value(
        "--shard", "K/N", .shard, summary: "sync only shard K of N shows",
        help: "sync only the shows in shard K of N (K from 0, as $JOB_COMPLETION_INDEX): N machines sharing "
            + "one archive each take theirs, by a stable hash of the feed URL, with no coordinator",
        manual: #"""
            With
            .BR sync :
            sync only the shows in shard
            .I k
            of
            .I n
            .RI ( k
            from 0, as
            .B $JOB_COMPLETION_INDEX
            counts), chosen by a stable hash of the feed URL: n machines sharing one archive root (flock works on NFSv4
            and CephFS) each take their share with no coordinator.
            """#)
    static let retries: Option<Int> = .value(
        "--retries", "N", .number(in: 0...100),
        summary: "tries after failures that may pass",
        help: "feeds, their pages and episodes are tried again after a connection failure, timeout, body cut "
            + "short, 5xx, 408 or 429, waiting 1 s, 2 s, 4 s... with jitter and honouring Retry-After, within "
            + "--timeout (default {default})", config: true, default: TransferSettings().retries,
        showDefault: { "\($0)" },
        manual: #"""
            Feeds, their pages, episodes and their companions are tried again after a connection failure, an idle
            timeout (60 seconds without a byte), a body cut short, HTTP 5xx, 408 or 429, waiting 1, 2, 4...
            seconds with jitter, or as long as Retry\-After asks, all within
            .BR \-\-timeout
            (default {default}).
            Other 4xx answers are not retried.
            """#)
    static let timeout: Option<TimeInterval> = .value(
        "--timeout", "SECONDS", .seconds(positive: true),
        summary: "seconds each episode or feed may take",
        help: "each episode, and each feed, must be complete within this time, all tries included (default "
            + "{default}); what arrived of an episode is kept and resumed on the next run",
        helpFor: [
            "add": "each feed must be complete within this time (default {default}, as for sync); a feed that "
                + "is not is not subscribed (exit 3)",
            "list": "the feed, and each page it links to, must be complete within this time (default "
                + "{default}, as for sync; exit 3)",
            "verify": "each file downloaded again must be complete within this time, all tries included "
                + "(default {default}, as for sync); with --upstream, each episode's answer within this time "
                + "or 60 s, whichever is less (no answer: unknown)",
        ], config: true, default: TransferSettings().timeout, showDefault: seconds,
        manual: #"""
            Each episode, and each feed, must be complete within this time, all tries and waits included (default {default},
            for every command that takes it).
            What arrived of an episode is kept, hidden, and resumed on the next run.
            .B add
            and
            .B list
            give each feed (and each page it links to) this long, then exit 3;
            .B verify \-\-upstream
            gives each episode's answer this long or 60 seconds, whichever is less, and counts an episode without an
            answer as unknown.
            """#)
    static let wait: Option<TimeInterval> = .value(
        "--wait", "SECONDS", .seconds(positive: false),
        summary: "seconds to wait for another sync",
        help: "if another podarchive is syncing the same feed, wait this long for it (default {default}: exit 4 "
            + "at once)", config: true, default: TransferSettings().wait, showDefault: seconds,
        manual: #"""
            If another podarchive is syncing the same feed, wait this long for it (default {default}), then exit 4.
            """#)
    /// `3600`, not `3600.0`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
