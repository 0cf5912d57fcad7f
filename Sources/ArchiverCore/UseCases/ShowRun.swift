// One show of a sync run: the options it syncs with (the run's transfer settings, then its settings in layers),
// the sync or the dry run, the page it may turn out to be followed to its feed, and the status it ends with.
import Foundation

/// Syncs the shows of one run, each on its own.
struct ShowRun: Sendable {
    let archiver: any SyncEngine
    let request: SyncRequest
    /// Download slots, each host's request slots and disk claims, shared by every show of the run.
    let budget: DownloadBudget
    /// The run's bandwidth cap.
    let throttle: Throttle?
    /// Follows the shows named that turn out to be web pages.
    let finder: FeedFinder
    /// What each show named that may be a web page resolved to, by its source's display name.
    let followable: [String: ResolvedFeed]
    let onEvent: @Sendable (SyncRunEvent) -> Void

    /// The options `target` syncs with.
    func options(for target: SyncTarget) throws -> SyncOptions {
        var options = request.transfer.options
        options.retryGone = request.retryGone
        options.maximumFeedSize = request.maximumFeedSize
        options.budget = budget
        options.saveSettings = target.save.flatMap { $0.isEmpty ? nil : $0 }
        options.throttle = throttle
        options.give(target.credentials)
        options.namedAt = target.namedAt
        options.hook = request.hook
        return try request.settings.options(options, saved: target.saved)
    }

    /// Syncs the show at position `index`; a show named whose address reads as no feed is followed, once, to the
    /// feed its web page links to.
    func run(_ target: SyncTarget, at index: Int, following: Bool = true) async -> ShowOutcome {
        let source = target.source
        let started = archiver.now()
        let layers = request.settings.layers(saved: target.saved)
        func outcome(_ result: ShowOutcome.Result, _ status: RunStatus) -> ShowOutcome {
            ShowOutcome(
                feed: source.displayName, source: source, settings: layers, result: result, status: status,
                seconds: archiver.now().timeIntervalSince(started))
        }
        do {
            let options = try self.options(for: target)
            if request.dryRun {
                return outcome(
                    .planned(try await archiver.plan(source, into: request.root, options: options)), .success)
            }
            let report = try await archiver.sync(
                source, into: request.root, options: options, known: target.subscription,
                onEvent: { [onEvent] event in onEvent(.show(index, event)) })
            // A damaged journal record this sync folded hides episodes as a failed episode does: tried again next run.
            let damaged = archiver.journalFolds.damages.contains {
                $0.journal.path.hasPrefix(report.folder.path + "/")
            }
            return outcome(.synced(report), report.status(damaged: damaged))
        } catch {
            if following, (error as? FeedError)?.isNotAFeed == true, !Task.isCancelled,
                let resolved = followable[source.displayName]
            {
                switch await finder.follow(resolved, show: index, onEvent: onEvent) {
                case .failure(let unfound):
                    return unfound.outcome
                case .success(let found?):
                    if let retargeted = retarget(target, to: found) {
                        // Followed once: a page whose feed is a page again is not followed on.
                        return await run(retargeted, at: index, following: false)
                    }
                case .success(nil):
                    break
                }
            }
            return outcome(.failed(error), RunStatus(for: error))
        }
    }

    /// The show of the feed `found` on `target`'s page.
    private func retarget(_ target: SyncTarget, to found: ResolvedFeed) -> SyncTarget? {
        guard let source = try? FeedSource(found.text, currentDirectory: "/") else { return nil }
        let known = (try? archiver.subscription(for: source, in: request.root))??.record
        return SyncTarget(
            source: source, saved: known?.settings, save: target.save,
            credentials: found.givenCredentials(to: source, headers: request.selection.headers),
            id: known?.id ?? Subscription.id(forNewFeed: source), namedAt: found.namedAt)
    }
}
