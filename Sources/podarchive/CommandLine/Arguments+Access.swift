// The options that say how podarchive reaches a host: headers, a .netrc file, a User-Agent, a bandwidth cap.
import ArchiverCore
import Foundation

extension Arguments {
    /// `--header 'Name: value'`, each checked to be one header line.
    static func headers(_ parsed: ParsedOptions) throws -> [String] {
        try (parsed.allValues["--header"] ?? []).map { text in
            guard ShowCredentials.parseHeader(text) != nil else {
                throw UsageError(
                    message: "option '--header' needs one header line such as 'Authorization: Bearer TOKEN', got "
                        + "'\(URLSecrets.redactingURLs(in: String(text.prefix(40))))'",
                    command: parsed.command)
            }
            return text
        }
    }

    /// `--user-agent` and `--netrc-file`, as the show settings they are saved as.
    static func access(_ parsed: ParsedOptions) throws -> ShowSettings {
        var settings = ShowSettings()
        if let agent = parsed.values["--user-agent"] {
            guard ShowSettings.isValidUserAgent(agent) else {
                throw UsageError(
                    message: "option '--user-agent' needs one line of text, got '\(agent)'", command: parsed.command)
            }
            settings.userAgent = agent
        }
        if let path = parsed.values["--netrc-file"] {
            guard !path.isEmpty else {
                throw UsageError(message: "option '--netrc-file' needs a file", command: parsed.command)
            }
            settings.netrcFile = path
        }
        return settings
    }

    /// `--limit-rate 500K`: bytes a second, at least 1K.
    static func limitRate(_ parsed: ParsedOptions) throws -> Int64? {
        guard let text = parsed.values["--limit-rate"] else { return nil }
        guard let bytes = ByteSize.parse(text), bytes >= 1024 else {
            throw UsageError(
                message: "option '--limit-rate' needs bytes a second such as 500K or 2M (at least 1K), got '\(text)'",
                command: parsed.command)
        }
        return bytes
    }

    /// `--site` or `--no-site`.
    static func site(_ parsed: ParsedOptions) -> Bool? {
        if parsed.flags.contains("--site") { return true }
        if parsed.flags.contains("--no-site") { return false }
        return nil
    }

    /// `--base-url`: an http(s) URL with a host.
    static func baseURL(_ parsed: ParsedOptions) throws -> String? {
        guard let text = parsed.values["--base-url"] else { return nil }
        guard WebURL.isWeb(text) else {
            throw UsageError(
                message: "option '--base-url' needs an http(s) URL such as http://nas.local/podcasts/, got '\(text)'",
                command: parsed.command)
        }
        return text
    }
}

/// Whether a text is an http(s) URL with a host.
enum WebURL {
    static func isWeb(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return false }
        return url.host?.isEmpty == false
    }
}
