// `podarchive feeds` as one call: the shows an archive follows, each with what it holds, and with
// `--include-secrets` each feed's URL with its login, for an OPML a podcast app can read.
import Foundation

/// What `feeds` found.
public struct FeedsReport: Sendable {
    /// The subscriptions, the damaged records and the records found to be one show.
    public var subscriptions: SubscriptionSet
    /// Each show's status, in subscription order.
    public var shows: [ShowStatus]
    /// When asked for: each show's feed URL with its login (by subscription ID), for the OPML.
    public var whole: [String: String] = [:]
    /// Shows whose secrets could not be read (their URLs stay redacted), by folder name.
    public var unreadable: [String] = []

    /// `episodesFailed` when a subscription record is damaged, else `success`.
    public var status: RunStatus { subscriptions.status }
}

extension ArchiveCommands {
    /// `podarchive feeds`: the shows `root` follows and what each holds (no network); with `includeSecrets`, each
    /// feed's URL with its login.
    public func feeds(in root: URL, includeSecrets: Bool = false) -> CommandOutcome<FeedsReport> {
        let subscriptions = archiver.subscriptions(in: root)
        var report = FeedsReport(
            subscriptions: subscriptions, shows: subscriptions.shows.map { archiver.status(of: $0, in: root) })
        if includeSecrets {
            for show in subscriptions.shows {
                guard let resolved = try? archiver.resolve(show, in: root) else {
                    report.unreadable.append(show.folder)
                    continue
                }
                report.whole[show.id] = FeedsReport.withLogin(resolved.source.displayName, resolved.credentials)
            }
        }
        return CommandOutcome(report, status: report.status)
    }
}

extension FeedsReport {
    /// `url` with the login of `credentials` as its userinfo, as podcast apps take a private feed.
    static func withLogin(_ url: String, _ credentials: ShowCredentials?) -> String {
        guard let user = credentials?.user, var parts = URLComponents(string: url), parts.user == nil else {
            return url
        }
        parts.user = user
        parts.password = credentials?.password
        return parts.string ?? url
    }
}
