// `podarchive add <feed>... [settings]`: subscribe without downloading; the settings and credentials given are
// saved with each show, kept in the archive itself (its secrets in the configuration folder).
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct AddCommand: Sendable {
    let context: CommandContext
    let arguments: AddArguments

    /// Subscribes each feed without downloading: exit 3 for a feed that cannot be read (nothing saved for it).
    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        var worst = ExitCode.success
        for text in arguments.feeds {
            if Task.isCancelled { return .interrupted }
            let code: ExitCode
            do {
                let source = try FeedSource(text, currentDirectory: context.environment.currentDirectory)
                var settings = arguments.settings
                settings.netrcFile = settings.netrcFile.map(context.absolute)
                var configured = arguments.configured
                configured.netrcFile = configured.netrcFile.map(context.absolute)
                // The feed is read with the settings given (saved with it; the credentials 0600) over the
                // configuration file's (never saved).
                var options = try SettingsLayers(given: settings, saved: nil, configuration: configured)
                    .applied(to: SyncOptions())
                options.episodeTimeout = arguments.timeout
                options.netrc = options.netrc ?? context.defaultNetrc
                options.give(
                    ShowCredentials.given(login: FeedSource.login(in: text), headers: arguments.headers, for: source))
                let said = CapturedEvents()
                let subscription = try await archiver.subscribe(
                    source, into: root, settings: settings, options: options, onEvent: said.append)
                for case .readdressed(let from, let to) in said.events {
                    context.output.write("the same show as <\(from)>: its subscription now uses <\(to)>\n")
                }
                context.output.write("subscribed \(subscription.feed) into \(subscription.folder)/\n")
                code = .success
            } catch  where Task.isCancelled {
                context.errors.write(
                    "podarchive: interrupted while reading \(URLSecrets.redacted(text)); it is not subscribed\n")
                return .interrupted
            } catch {
                code = context.report(error)
            }
            worst.include(code)
        }
        return worst
    }
}

/// The events of one call, kept to be said after it.
private final class CapturedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [SyncEvent] = []
    var events: [SyncEvent] { lock.withLock { kept } }
    func append(_ event: SyncEvent) { lock.withLock { kept.append(event) } }
}
