// The options that tell a run's end to someone (`--notify URL`, `--exec-after-run CMD`). Never saved: they come from
// the command line or the configuration file, as `--exec`. A notification URL is a secret (an ntfy topic, a
// webhook's path carry the token): read, it is registered with the one redaction rule, so no output shows it.
import ArchiverCore
import Foundation

/// `--notify`, `--notify-on`, `--notify-format`, `--notify-timeout`, `--exec-after-run`.
enum NotifyOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        notify.descriptor, notifyOn.descriptor, notifyFormat.descriptor, notifyTimeout.descriptor,
        execAfterRun.descriptor,
    ]

    static let notify: Option<URL> = .value(
        "--notify", "URL", .notificationURL,
        help: #"""
            post the run's summary to <URL> once the run has ended (all its shows: one notification a run), as JSON
            or, with `--notify-format text`, as ntfy's plain text; when, `--notify-on` says; never saved, and shown
            redacted in every output: the URL is a secret

            The JSON body: `{"podarchive": 1, "status": "episodes-failed", "exit": 1, "archived": [{"show": "Show",
            "file": "Show/Episode.mp3"}], "failed": [{"show": "Show", "title": "Episode 2", "reason": "HTTP 404"}],
            "gone": [{"show": "Show", "title": "Episode 3", "since": "2026-01-31"}], "showsFailed": [{"show":
            "https://example.com/feed.xml", "reason": "..."}], "more": {"archived": 0, "failed": 0, "gone": 0,
            "showsFailed": 0}}`. Each list holds 100 entries at most; `more` counts those left out. `status` and
            `exit` are the run's, as `--json` says them. The body names shows, titles, files and reasons, never a URL
            or a credential. For ntfy: `--notify https://ntfy.sh/my-secret-topic --notify-format text`, or in the
            configuration file `notify = https://ntfy.sh/my-secret-topic`. A notification is sent once the run's
            work is done, within `--notify-timeout`; one that fails (no answer, not 2xx) is one line on standard error
            naming the URL redacted, and never changes the exit status. The URL comes from the command line or the
            configuration file (`notify = ...`) only.
            """#,
        completion: .words(["https://ntfy.sh/"]), config: true)
    static let notifyOn: Option<SyncRequest.Notice.When> = .value(
        "--notify-on", "WHEN", .choice(SyncRequest.Notice.When.self),
        help: #"""
            when `--notify` posts: `failure` (the run did not exit 0; the default), `new` (something was archived, or
            something failed), or `always`
            """#,
        completion: .words(SyncRequest.Notice.When.allCases.map(\.rawValue)), config: true, default: .failure,
        showDefault: { $0.rawValue })
    static let notifyFormat: Option<SyncRequest.Notice.Format> = .value(
        "--notify-format", "FORMAT", .choice(SyncRequest.Notice.Format.self),
        help: #"""
            the body `--notify` posts: `json` (the default, `Content-Type: application/json`) or `text` (one line
            counting, then a line an episode, with the `Title` and `Priority` headers ntfy reads)
            """#,
        completion: .words(SyncRequest.Notice.Format.allCases.map(\.rawValue)), config: true, default: .json,
        showDefault: { $0.rawValue })
    static let notifyTimeout: Option<TimeInterval> = .value(
        "--notify-timeout", "SECONDS", .seconds(positive: true),
        help: #"""
            seconds `--notify` may take, connecting included (default {default}); then it is given up, said in one
            line, and the run ends with the status it had
            """#, config: true, default: SyncRequest.Notice.defaultTimeout, showDefault: { "\(Int($0))" })
    static let execAfterRun: Option<String> = .value(
        "--exec-after-run", "CMD", .text,
        help: #"""
            run <CMD> once the run has ended (with `/bin/sh -c`), the JSON summary `--notify` posts on its standard
            input, whatever `--notify-on` says; its output is shown only when it fails (or with `-v`), on standard
            error; it never changes the exit status; stopped after `--exec-timeout`; never saved

            For instance `--exec-after-run 'jq -r .status >> ~/podarchive-runs.log'`. The command comes from the
            command line or the configuration file (`exec-after-run = ...`) only.
            """#,
        completion: .words(["jq ."]), config: true)
}

extension ValueParser where Value == URL {
    /// A notification's http(s) URL with a host; registered as a secret as soon as it is read.
    /// (Registered before it is judged, so the line refusing a mistyped one does not show its token either.)
    static let notificationURL = ValueParser { text throws(ValueProblem) in
        TextSecrets.registerSecretAddress(text)
        guard WebURL.isWeb(text), let url = URL(string: text) else {
            throw ValueProblem(
                text:
                    " needs an http(s) URL such as https://ntfy.sh/my-topic, got '\(TextSecrets.redactingURLs(in: text))'"
            )
        }
        return url
    }
}

extension ValueParser where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of `type`'s cases, by name.
    static func choice(_ type: Value.Type) -> ValueParser {
        checked(Value.allCases.map(\.rawValue).alternatives) { Value(rawValue: $0) }
    }
}

extension [String] {
    /// `[a, b, c]` as `a, b or c`. Joined as Swift strings: Foundation's backwards search for the last comma brought
    /// up the current locale, on every start of the process, for an option's help.
    var alternatives: String {
        var text = ""
        for (position, word) in enumerated() {
            if position > 0 { text += position == count - 1 ? " or " : ", " }
            text += word
        }
        return text
    }
}
