// One show of a sync run: its options (the run's transfer settings, then its settings in layers), the sync or
// dry run itself, its lines, and its exit code and `--json` entry.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every show of one run shares: download slots, each host's request slots and disk claims, and the bandwidth
/// cap.
struct RunLimits: Sendable {
    var budget: DownloadBudget
    var throttle: Throttle?
}

/// Syncs the shows of one `sync` run, one at a time (see `runAll` for several at once).
struct ShowSync: Sendable {
    let context: CommandContext
    let arguments: SyncArguments
    let root: URL
    let archiver: Archiver
    let limits: RunLimits?
    /// The shows named that may be web pages (followed when reading them finds no feed).
    var following: PageFollowing? = nil

    /// The options one show syncs with: the run's transfer settings, then its settings in layers (those given on
    /// the command line over those saved with it, over the configuration file's).
    func options(for target: SyncTarget) throws -> SyncOptions {
        var options = CommandContext.options(arguments.transfer)
        options.retryGone = arguments.retryGone
        options.maximumFeedSize = arguments.maximumFeedSize
        options.budget = limits?.budget
        options.saveSettings = target.save.flatMap { $0.isEmpty ? nil : $0 }
        options.netrc = context.defaultNetrc
        options.throttle = limits?.throttle
        options.give(target.credentials)
        options.namedAt = target.namedAt
        options.hook = arguments.hook
        return try options.applying(layers(target))
    }

    /// The settings of `target` in layers; a `.netrc` path the configuration file gives starts at the current
    /// directory, as one given on the command line does.
    func layers(_ target: SyncTarget) -> SettingsLayers {
        var configured = arguments.configured
        configured.netrcFile = configured.netrcFile.map(context.absolute)
        return target.layers(given: arguments.given, configuration: configured)
    }

    /// Syncs one feed; returns its exit code and its entry for `--json`.
    func run(_ target: SyncTarget) async -> (ExitCode, String) {
        let source = target.source
        let output = context.output
        let started = context.now()
        let console = SyncConsole(
            output: output, errors: context.errors, terminal: context.terminal, verbosity: arguments.verbosity,
            json: arguments.json, root: root, now: context.now)
        do {
            let options = try self.options(for: target)
            if arguments.dryRun {
                let plan = try await archiver.plan(source, into: root, options: options)
                if arguments.json { return (.success, SyncFormatter.dryRunJSON(plan, feed: source.displayName)) }
                output.write(SyncFormatter.dryRun(plan))
                return (.success, "")
            }
            let report = try await archiver.sync(
                source, into: root, options: options, known: target.subscription, onEvent: console.handle)
            // A page that could not be read hides episodes as a failed episode does: tried again next run. So does a
            // damaged journal record this sync folded (said when the run ends, see `FoldsSaid`).
            let folded = archiver.journalFolds.damages.contains {
                $0.journal.path.hasPrefix(report.folder.path + "/")
            }
            let code: ExitCode =
                report.failed.isEmpty && report.pageProblem == nil && report.hookProblems.isEmpty && !folded
                ? .success : .episodesFailed
            console.finish(
                summary: SyncFormatter.summary(report)
                    + SyncFormatter.leftOut(
                        report.leftOut, settings: layers(target), feed: source))
            // The entry is written only with --json: a run over 500 shows makes none otherwise.
            guard arguments.json else { return (code, "") }
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: report, root: root, code: code,
                    seconds: context.now().timeIntervalSince(started))
            )
        } catch {
            console.abandon()
            if let feedError = error as? FeedError, feedError.isNotAFeed, !Task.isCancelled, let following,
                let retarget = await following.retarget(target, catalog: archiver, root: root)
            {
                switch retarget {
                case .success(let found):
                    // Followed once: a page whose feed is a page again is not followed on (it fails as it is).
                    var once = self
                    once.following = nil
                    return await once.run(found)
                case .failure(let failure):
                    return (
                        failure.code,
                        SyncFormatter.jsonEntry(
                            feed: source.displayName, report: nil, root: root, code: failure.code,
                            seconds: context.now().timeIntervalSince(started), error: failure.error)
                    )
                }
            }
            let code: ExitCode
            if let settings = error as? SettingsError {
                context.errors.write("podarchive: \(source.displayName): \(SyncFormatter.settingLine(settings))\n")
                code = .archiveFailed
            } else {
                code = context.report(error)
            }
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: nil, root: root, code: code,
                    seconds: context.now().timeIntervalSince(started),
                    error: SyncFormatter.oneLine(error.localizedDescription))
            )
        }
    }
}
