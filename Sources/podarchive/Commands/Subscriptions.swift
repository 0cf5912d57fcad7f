// `podarchive add`, `remove` and `feeds`: the shows an archive follows, kept in the archive itself.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CommandLineTool {
    /// Subscribes each feed without downloading: exit 3 for a feed that cannot be read (nothing saved for it).
    func add(_ arguments: AddArguments) async -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = configuredArchiver()
        var worst = ExitCode.success
        for text in arguments.feeds {
            if Task.isCancelled { return .interrupted }
            let code: ExitCode
            do {
                let source = try FeedSource(text, currentDirectory: environment.currentDirectory)
                var settings = arguments.settings
                settings.netrcFile = settings.netrcFile.map(absolute)
                // The feed is read with the access given, which is saved with it (the credentials 0600).
                var options = try SyncOptions().applying(settings)
                options.episodeTimeout = arguments.timeout
                options.netrc = options.netrc ?? defaultNetrc
                options.give(
                    Self.credentials(login: FeedSource.login(in: text), headers: arguments.headers, for: source))
                let said = CapturedEvents()
                let subscription = try await archiver.subscribe(
                    source, into: root, settings: settings, options: options, onEvent: said.append)
                for case .readdressed(let from, let to) in said.events {
                    output.write("the same show as <\(from)>: its subscription now uses <\(to)>\n")
                }
                output.write("subscribed \(subscription.feed) into \(subscription.folder)/\n")
                code = .success
            } catch  where Task.isCancelled {
                errors.write(
                    "podarchive: interrupted while reading \(URLSecrets.redacted(text)); it is not subscribed\n")
                return .interrupted
            } catch {
                code = report(error)
            }
            if Self.severity(code) > Self.severity(worst) { worst = code }
        }
        return worst
    }

    /// Unsubscribes each show named by feed URL or folder name; no file is deleted. Exit 2 for an unknown show.
    func remove(_ arguments: RemoveArguments) -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = configuredArchiver()
        var worst = ExitCode.success
        for text in arguments.shows {
            do {
                let removed = try archiver.unsubscribe(text, in: root)
                output.write("unsubscribed \(removed.feed); \(removed.folder)/ keeps every file\n")
            } catch {
                let code = report(error)
                if Self.severity(code) > Self.severity(worst) { worst = code }
            }
        }
        return worst
    }

    /// Every subscription with what its show holds: lines, `--json` or `--opml`.
    func feeds(_ arguments: FeedsArguments) -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = configuredArchiver()
        let subscriptions = archiver.subscriptions(in: root)
        for damaged in subscriptions.damaged {
            errors.write("podarchive: subscription record \(damaged.path) is damaged (\(damaged.reason))\n")
        }
        for merge in subscriptions.merged {
            errors.write(
                "podarchive: <\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> were one show, in "
                    + "\(merge.kept.folder)/: one subscription kept\n")
        }
        let shows = subscriptions.shows.map { archiver.status(of: $0, in: root) }
        if arguments.opml {
            var whole: [String: String] = [:]
            if arguments.includeSecrets {
                // Said on standard error, so the OPML on standard output stays a file of its own.
                errors.write(
                    "podarchive: the OPML holds each feed's login and token: keep it private (headers are not in it)\n")
                for show in subscriptions.shows {
                    guard let resolved = try? archiver.resolve(show, in: root) else {
                        errors.write("podarchive: \(show.folder): its secrets cannot be read; its URL is redacted\n")
                        continue
                    }
                    whole[show.id] = FeedsFormatter.withLogin(resolved.source.displayName, resolved.credentials)
                }
            }
            output.writeWithSecrets(FeedsFormatter.opml(shows, whole: whole))
        } else if arguments.json {
            output.write(FeedsFormatter.json(shows, root: root))
        } else {
            output.write(FeedsFormatter.table(shows, root: root))
        }
        return subscriptions.damaged.isEmpty ? .success : .archiveFailed
    }
}

/// The events of one call, kept to be said after it.
private final class CapturedEvents: Sendable {
    private let kept: Locked<[SyncEvent]> = Locked([])
    var events: [SyncEvent] { kept.current }
    func append(_ event: SyncEvent) { kept.withLock { kept in kept.append(event) } }
}
