// Telling a run's end (`SyncRequest.Notice`): the summary posted to a URL within its own time limit, and a command
// run once with the JSON summary on its standard input. Neither ever changes the run's status: what failed is said
// in one line each (`SyncRunReport.notices`), the URL shown redacted.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a run's notifications.
struct RunNotifier: Sendable {
    let engine: any SyncEngine
    let notice: SyncRequest.Notice

    /// What telling `report`'s run came to: a line for each failure, and what the command printed.
    func tell(_ report: SyncRunReport, root: URL) async -> SyncRunReport.Notices {
        var told = SyncRunReport.Notices()
        guard notice.url != nil || notice.command != nil else { return told }
        let summary = RunSummary(report, root: root)
        if let url = notice.url, notice.wants(summary) {
            if let problem = await post(summary, to: url) { told.problems.append(problem) }
        }
        if let command = notice.command {
            let ran = await run(command, summary: summary)
            told.commandOutput = ran.output
            if !ran.exit.succeeded { told.commandFailure = Self.ended(ran.exit) }
        }
        return told
    }

    /// Posts the summary; why it did not arrive, or nil.
    private func post(_ summary: RunSummary, to url: URL) async -> SyncRunReport.Notices.Problem? {
        var request = URLRequest(url: url, timeoutInterval: notice.timeout)
        request.httpMethod = "POST"
        switch notice.format {
        case .json:
            request.httpBody = Data(summary.json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .text:
            request.httpBody = Data(summary.text.utf8)
            request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue(summary.title, forHTTPHeaderField: "Title")
            request.setValue(summary.status == .success ? "default" : "high", forHTTPHeaderField: "Priority")
        }
        let shown = URLSecrets.redacted(url.absoluteString)
        do {
            let status = try await engine.post(request, within: notice.timeout)
            guard (200..<300).contains(status) else { return .init(url: shown, reason: "HTTP \(status)") }
            return nil
        } catch is Deadline.Exceeded {
            return .init(url: shown, reason: "no answer within \(Deadline.describe(notice.timeout))", timedOut: true)
        } catch {
            return .init(url: shown, reason: Self.reason(error))
        }
    }

    /// Runs the command with the JSON summary on its standard input (given through the environment, as the
    /// launcher's standard input is `/dev/null`).
    private func run(_ hook: EpisodeHook, summary: RunSummary) async -> HookRun {
        await hook.launcher.capturing(
            "printf '%s' \"$PODARCHIVE_SUMMARY\" | {\n\(hook.command)\n}",
            environment: ["PODARCHIVE_SUMMARY": summary.json], timeout: hook.timeout)
    }

    private static func ended(_ exit: HookExit) -> String {
        switch exit {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "was ended by signal \(signal)"
        case .timedOut(let seconds): "ran past its \(Deadline.describe(seconds)) and was stopped"
        case .notStarted(let why): "could not start: \(why)"
        }
    }

    private static func reason(_ error: Error) -> String {
        if let error = error as? URLError {
            switch error.code {
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost: return "host not found"
            case .timedOut: return "timed out"
            default: return "network error \(error.code.rawValue)"
            }
        }
        return error.localizedDescription
    }
}

extension SyncRunReport {
    /// What telling the run's end came to (`--notify`, `--exec-after-run`): never part of its status.
    public struct Notices: Sendable {
        /// A notification that did not arrive.
        public struct Problem: Sendable, Equatable {
            /// Where it was posted, redacted.
            public var url: String
            /// Why it did not arrive (`HTTP 500`, `connection refused`).
            public var reason: String
            /// Its time limit passed.
            public var timedOut = false
        }

        /// Each notification that failed.
        public var problems: [Problem] = []
        /// How the command run after the run failed (`exited with status 3`); nil when it succeeded or none ran.
        public var commandFailure: String?
        /// What the command printed (shown when it failed, or with `-v`).
        public var commandOutput = ""
    }
}

extension Archiver {
    /// Posts `request` through the feed session, waiting `seconds` at most (the transfer is cancelled then, and
    /// `Deadline.Exceeded` thrown); the answer's status.
    func post(_ request: URLRequest, within seconds: TimeInterval) async throws -> Int {
        let fetcher = parts.loader.fetcher
        return try await Deadline.run(seconds: seconds, timer: Deadline.realTime) {
            let (_, response) = try await fetcher.data(for: request, maximumBytes: 65_536)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
    }
}
