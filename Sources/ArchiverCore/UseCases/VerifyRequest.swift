// `podarchive verify` as one call: the archive checked (and repaired), or its episodes asked for upstream, with the
// run's transfer settings and its access settings in layers (each show's saved ones take their place among them).
// The outcome carries the report, or the error, and the status decided here (`CommandOutcome`).
import Foundation

/// A check of the archive.
public struct VerifyRequest: Sendable {
    /// One show's folder, or an archive root holding many.
    public var directory: URL
    /// Download again every missing, resized or changed file.
    public var repair = false
    /// Retries, deadlines, the lock wait, requests at once and the bandwidth cap.
    public var transfer = TransferSettings()
    /// The access settings given and the configuration file's.
    public var settings: CommandSettings

    /// A check of `directory`.
    public init(directory: URL, settings: CommandSettings) {
        self.directory = directory
        self.settings = settings
    }

    /// The run's options: the transfer settings, the bandwidth cap, and the settings in layers.
    var options: SyncOptions {
        var options = transfer.options
        options.throttle = transfer.throttle
        return settings.runOptions(options)
    }
}

extension ArchiveCommands {
    /// `podarchive verify`: rechecks (and with `repair`, repairs) the archive; `episodesFailed` while problems
    /// remain, `archiveFailed` for a repair that had to leave entries alone.
    public func verify(_ request: VerifyRequest, onEvent: @escaping @Sendable (VerifyEvent) -> Void) async
        -> CommandOutcome<VerifyReport>
    {
        await .of(
            {
                try await archiver.verify(
                    request.directory, repair: request.repair, options: request.options, onEvent: onEvent)
            },
            status: { $0.status(repairing: request.repair) })
    }

    /// `podarchive verify --upstream`: which episodes exist only in this archive now, each request within a
    /// minute at most; `success` whatever the answers (link rot upstream is no fault of the archive).
    public func checkUpstream(_ request: VerifyRequest, onCheck: @escaping @Sendable (UpstreamCheck) -> Void) async
        -> CommandOutcome<UpstreamReport>
    {
        await .of(
            {
                try await archiver.checkUpstream(
                    request.directory, jobs: request.transfer.jobs,
                    limits: FeedLimits(timeout: min(request.transfer.timeout, 60)), access: request.options,
                    onCheck: onCheck)
            }, status: { _ in .success })
    }
}
