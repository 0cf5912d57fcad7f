// The commands that run shows, each as one call on the facade: a request in, events as they happen, a report out
// whose status is the process's exit status, decided in the use case and nowhere else.
import Foundation

extension ArchiveCommands {
    /// `podarchive sync`: the shows named are found (pages followed, Apple Podcasts links looked up), the shows
    /// chosen (those named, else every subscription, then the shard), each synced with its settings in layers, up
    /// to `feedJobs` at once, then the site written again when it is wanted. Events of shows syncing side by side
    /// come from several tasks at once.
    ///
    /// One show failing never stops the others; the status is the worst outcome, `interrupted` when the task is
    /// cancelled (no show starts after that, and those started end as a sync does when cancelled).
    public func sync(_ request: SyncRequest, onEvent: @escaping @Sendable (SyncRunEvent) -> Void) async
        -> SyncRunReport
    {
        var report = await SyncRunner(engine: archiver).run(request, onEvent: onEvent)
        // Told once the whole run has ended, whatever it came to (a dry run tells nothing).
        if !request.dryRun {
            report.notices = await RunNotifier(engine: archiver, notice: request.notice).tell(
                report, root: request.root)
        }
        return report
    }

    /// `podarchive add`: subscribes `request.root` to each show named, in order, without downloading; each one's
    /// end is told as `.ended` (subscribed, or failed: a feed that cannot be read is not subscribed, the others
    /// are), a name that leads to no feed as `.unfound`. Cancelled, it stops before the next show.
    public func add(_ request: AddRequest, onEvent: @escaping @Sendable (SyncRunEvent) -> Void) async -> SyncRunReport {
        await AddRunner(engine: archiver).run(request, onEvent: onEvent)
    }

    /// `podarchive credentials`: moves the secrets kept inside `request.root` to the configuration folder when
    /// asked (which needs one: `CredentialError.noFolder` otherwise), then says where each show's are.
    public func credentials(_ request: CredentialsRequest) async -> CommandOutcome<CredentialsReport> {
        await CredentialsRunner(engine: archiver).run(request)
    }

    /// `podarchive search`: the shows the podcast directory finds for `request.term`, within its timeout.
    public func search(_ request: SearchRequest) async -> CommandOutcome<SearchReport> {
        await SearchRunner(engine: archiver).run(request)
    }
}
