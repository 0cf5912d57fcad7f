// `podarchive remove SHOW...` as one call: each show unsubscribed, its files kept; one that cannot be does not
// stop the others.
import Foundation

/// What `remove` did, show by show.
public struct RemoveReport: Sendable {
    /// Each show named, in order: its subscription as it was, or why it could not be removed.
    public var removed: [Result<Subscription, any Error>] = []

    /// The worst status of the shows' (`RunStatus(for:)` of each error), `success` when every one was removed.
    public var status: RunStatus {
        removed.reduce(RunStatus.success) { worst, result in
            guard case .failure(let error) = result else { return worst }
            var worse = worst
            worse.include(RunStatus.of(error, cancelled: false))
            return worse
        }
    }
}

extension ArchiveCommands {
    /// `podarchive remove`: unsubscribes `root` from each show `shows` names (a folder name or a feed URL); every
    /// file stays.
    public func remove(_ shows: [String], in root: URL) -> CommandOutcome<RemoveReport> {
        let report = RemoveReport(removed: shows.map { text in Result { try archiver.unsubscribe(text, in: root) } })
        return CommandOutcome(report, status: report.status)
    }
}
