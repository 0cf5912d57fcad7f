// `podarchive sync` as one call: the shows named are found (pages followed, directory links looked up), the shows
// chosen (the named ones, else every subscription, then the shard), each synced with its settings in layers, up to
// `feedJobs` at once, then the site written again when it is wanted. What happens is told through events; the
// report holds each show's outcome and the run's status, the process's exit status, decided here and only here.
import Foundation

/// Carries out one `SyncRequest` (`Archiver.sync(_:onEvent:)`).
struct SyncRunner: Sendable {
    let engine: any SyncEngine

    /// See `Archiver.sync(_:onEvent:)`.
    func run(_ request: SyncRequest, onEvent: @escaping @Sendable (SyncRunEvent) -> Void) async -> SyncRunReport {
        var request = request
        request.selection.given = request.settings.givenResolved
        // Headers are a show's secrets: they go with the feeds they were given for, never to every subscription.
        if let problem = request.selection.requestProblem {
            onEvent(.problem(problem))
            return SyncRunReport(outcomes: nil, status: problem.status)
        }
        let budget = DownloadBudget(jobs: request.transfer.jobs)
        let throttle = request.transfer.throttle
        let finder = FeedFinder(
            archiver: engine, root: request.root, directory: request.directory,
            limits: request.findingLimits(throttle: throttle), headersGiven: !request.selection.headers.isEmpty,
            currentDirectory: request.selection.currentDirectory)
        // Apple Podcasts links named are looked up first, and web pages followed to their feeds (when reading them
        // finds no feed): the feed is what is synced and saved. One that leads to none is told and left out; when
        // that leaves nothing named, nothing syncs (never every subscription instead).
        let found = await find(request.selection.feeds, with: finder, onEvent: onEvent)
        let unfound = found.unfound.map(\.outcome)
        if !request.selection.feeds.isEmpty, found.feeds.isEmpty, request.selection.lists.isEmpty {
            return SyncRunReport(
                outcomes: unfound, status: .overall(of: unfound.map(\.status), cancelled: Task.isCancelled))
        }
        request.selection.feeds = found.feeds
        request.selection.namedAt = found.namedAt
        let subscriptions = engine.subscriptions(in: request.root)
        let holding = subscriptions.shows.filter(\.holdsSecrets).count
        if holding > 0 { onEvent(.secretsInside(shows: holding)) }
        for merge in subscriptions.merged { onEvent(.merged(merge)) }
        let choice = request.selection.choose(from: subscriptions, in: request.root, catalog: engine)
        for problem in choice.problems { onEvent(.problem(problem)) }
        guard let shows = choice.shows else { return SyncRunReport(outcomes: nil, status: choice.status) }
        onEvent(.chosen(shows))
        let run = ShowRun(
            archiver: engine, request: request, budget: budget, throttle: throttle, finder: finder,
            followable: found.followable, onEvent: onEvent)
        var outcomes: [ShowOutcome] = []
        // Each show's end is told in the shows' order once every show before it has ended. Interrupted, no show
        // starts after the cancellation, and those started are reported.
        try? await OrderedTasks.run(
            count: shows.count, width: max(1, request.feedJobs),
            starting: { onEvent(.started(show: $0)) },
            operation: { index in await run.run(shows[index], at: index) },
            finished: { index, outcome in onEvent(.ended(show: index, outcome)) },
            settle: { _, outcome in outcomes.append(outcome) })
        var statuses = [choice.status] + unfound.map(\.status) + outcomes.map(\.status)
        if !request.dryRun, !Task.isCancelled, let site = refreshSite(request, onEvent: onEvent) {
            statuses.append(site)
        }
        if !request.dryRun, !Task.isCancelled, let library = refreshLibrary(request, onEvent: onEvent) {
            statuses.append(library)
        }
        return SyncRunReport(
            outcomes: unfound + outcomes, status: .overall(of: statuses, cancelled: Task.isCancelled))
    }

    /// The feeds `typed` name, with the page's origin for those found on a page of another (`namedAt`), those
    /// that may be web pages (followed when reading them finds no feed), and those that led to no feed.
    private func find(_ typed: [String], with finder: FeedFinder, onEvent: @Sendable (SyncRunEvent) -> Void) async
        -> (feeds: [String], namedAt: [String: Origin], followable: [String: ResolvedFeed], unfound: [Unfound])
    {
        var found: (feeds: [String], namedAt: [String: Origin], followable: [String: ResolvedFeed], unfound: [Unfound])
        found = ([], [:], [:], [])
        for name in typed {
            switch await finder.feed(for: name, onEvent: onEvent) {
            case .success(let resolved):
                found.feeds.append(resolved.text)
                if let origin = resolved.namedAt { found.namedAt[resolved.text] = origin }
                if resolved.followable,
                    let source = try? FeedSource(resolved.text, currentDirectory: finder.currentDirectory)
                {
                    found.followable[source.displayName] = resolved
                }
            case .failure(let unfound):
                onEvent(.unfound(unfound.outcome))
                found.unfound.append(unfound)
            }
        }
        return found
    }

    /// `--site`/`--no-site` saved for the archive; the site written again when it is on: the status that leaves
    /// the run in, nil when it is off.
    private func refreshSite(_ request: SyncRequest, onEvent: @Sendable (SyncRunEvent) -> Void) -> RunStatus? {
        var settings = engine.siteSettings(in: request.root)
        do {
            if let wanted = request.site, wanted != (settings.enabled ?? false) {
                settings.enabled = wanted
                try engine.saveSiteSettings(settings, in: request.root)
            }
            guard settings.enabled == true else { return nil }
            let access = request.settings.archiveAccess
            let report = try engine.writeSite(
                root: request.root, baseURL: settings.baseURL, out: settings.out.map { URL(fileURLWithPath: $0) },
                access: access)
            onEvent(.site(report, settings))
            return report.status
        } catch {
            onEvent(.siteFailed(error))
            return RunStatus(for: error)
        }
    }
}

extension SyncRunner {
    /// `--library DIR`/`--no-library` saved for the archive; the library refreshed when a folder is saved: the
    /// status that leaves the run in, nil when there is none.
    func refreshLibrary(_ request: SyncRequest, onEvent: @Sendable (SyncRunEvent) -> Void) -> RunStatus? {
        let saved = engine.librarySettings.load(in: request.root)
        var settings = saved
        if let wanted = request.library { settings.folder = wanted.isEmpty ? nil : wanted }
        do {
            // A folder given is saved once a library was written there: one refused (inside the archive) is not
            // kept for every later sync to fail on.
            if settings != saved, settings.folder == nil { try engine.librarySettings.save(settings, in: request.root) }
            guard let folder = settings.folder else { return nil }
            let report = try engine.exportLibrary(
                request.root, shows: nil, into: URL(fileURLWithPath: folder, isDirectory: true),
                options: LibraryOptions(), access: request.settings.archiveAccess, plan: { _ in })
            if settings != saved { try engine.librarySettings.save(settings, in: request.root) }
            onEvent(.library(report))
            return .success
        } catch {
            onEvent(.libraryFailed(error))
            return RunStatus(for: error)
        }
    }
}

extension SiteReport {
    /// The status writing the site ends with: `episodesFailed` when a show was left out of it.
    public var status: RunStatus { skipped.isEmpty ? .success : .episodesFailed }
}
