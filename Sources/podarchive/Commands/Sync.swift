// `podarchive sync`: every feed named or listed, one after another; the exit code is the worst outcome.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandLineTool {
    func sync(_ arguments: SyncArguments) async -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = makeArchiver()
        // A feed named on the command line that is no feed at all is a usage error before anything runs.
        var feeds: [FeedSource] = []
        for text in arguments.feeds {
            do {
                feeds.append(try FeedSource(text, currentDirectory: environment.currentDirectory))
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return .usage
            }
        }
        // In a list, a bad line is reported and skipped (exit 2 at the end) so the other feeds still sync; its
        // relative paths start at the list's own folder, wherever the run starts (cron, systemd).
        var worst = ExitCode.success
        for (path, opml) in [(arguments.opml, true), (arguments.feedList, false)] {
            guard let path else { continue }
            let file = absolute(path)
            let listed: [String]
            do {
                listed = try archiver.subscriptions(atPath: file, opml: opml)
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return .usage
            }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            for text in listed {
                do {
                    feeds.append(try FeedSource(text, currentDirectory: folder))
                } catch {
                    errors.write(
                        "podarchive: feed list \(file): \(SyncFormatter.oneLine(error.localizedDescription))\n")
                    worst = .usage
                }
            }
        }
        // The same feed given twice (twice on the command line, or there and in a list) is synced once.
        var seen = Set<String>()
        feeds = feeds.filter { seen.insert($0.displayName).inserted }
        guard !feeds.isEmpty else {
            errors.write("podarchive: the feed lists name no feeds\n")
            return .usage
        }
        var entries: [String] = []
        // One feed failing never stops the others; the exit code tells the worst that happened.
        for feed in feeds {
            // Interrupted: the feed that was running said so; the rest are not started (and `Interruption` turns
            // the code into the signal's).
            if Task.isCancelled { return .interrupted }
            let (code, entry) = await sync(feed, arguments, into: root, with: archiver)
            entries.append(entry)
            if Self.severity(code) > Self.severity(worst) { worst = code }
        }
        if arguments.json { output.write(SyncFormatter.json(entries: entries)) }
        return worst
    }

    /// Which exit code wins when feeds end differently: an unusable archive, then a failed feed, then a locked
    /// one, then failed episodes.
    static func severity(_ code: ExitCode) -> Int {
        switch code {
        case .success: return 0
        case .episodesFailed: return 1
        case .locked: return 2
        case .feedFailed: return 3
        case .usage: return 4
        case .archiveFailed: return 5
        case .interrupted, .terminated: return 6
        }
    }

    /// Syncs one feed; returns its exit code and its entry for `--json`.
    func sync(
        _ source: FeedSource, _ arguments: SyncArguments, into root: URL, with archiver: Archiver
    ) async -> (ExitCode, String) {
        let started = now()
        let console = SyncConsole(
            output: output, errors: errors, terminal: terminal, verbosity: arguments.verbosity, json: arguments.json,
            root: root, now: now)
        do {
            var options = Self.options(arguments.transfer)
            options.filter = arguments.filter
            options.names = arguments.names
            options.metadata = arguments.metadata
            options.retryGone = arguments.retryGone
            options.maximumFeedSize = arguments.maximumFeedSize
            if arguments.dryRun {
                let plan = try await archiver.plan(source, into: root, options: options)
                if arguments.json { return (.success, SyncFormatter.dryRunJSON(plan, feed: source.displayName)) }
                output.write(SyncFormatter.dryRun(plan))
                return (.success, "")
            }
            let report = try await archiver.sync(source, into: root, options: options, onEvent: console.handle)
            let code: ExitCode = report.failed.isEmpty ? .success : .episodesFailed
            console.finish(summary: SyncFormatter.summary(report))
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: report, root: root, code: code,
                    seconds: now().timeIntervalSince(started))
            )
        } catch {
            console.abandon()
            let code = report(error)
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: nil, root: root, code: code,
                    seconds: now().timeIntervalSince(started),
                    error: SyncFormatter.oneLine(error.localizedDescription))
            )
        }
    }

    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : environment.currentDirectory + "/" + path
    }
}
