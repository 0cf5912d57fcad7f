// How each command's report ends the process, decided here beside `RunStatus(for:)` (what an error ends with) and
// `SyncReport.status(damaged:)`, so no command decides an exit status of its own: the executable parses, says and
// exits with the status a report carries.
import Foundation

extension RunStatus {
    /// The status an operation that threw `error` ends with; `interrupted` when it was cut short by the run being
    /// stopped (`cancelled`), whatever it threw on the way out.
    public static func of(_ error: Error, cancelled: Bool) -> RunStatus {
        cancelled ? .interrupted : RunStatus(for: error)
    }
}

extension VerifyReport {
    /// `verify`: `episodesFailed` while problems remain; a repair that had to leave entries alone (two claim one
    /// file) leaves the archive unrepaired, `archiveFailed`.
    public func status(repairing: Bool) -> RunStatus {
        if repairing, !clashes.isEmpty { return .archiveFailed }
        return remaining == 0 ? .success : .episodesFailed
    }
}

extension SubscriptionSet {
    /// `feeds`: a subscription record that cannot be read leaves the archive's list damaged, `archiveFailed`.
    public var status: RunStatus { damaged.isEmpty ? .success : .archiveFailed }
}

extension PageWalk {
    /// `list`: a page that could not be read leaves episodes unlisted, `episodesFailed`.
    public var status: RunStatus { problem == nil ? .success : .episodesFailed }
}
