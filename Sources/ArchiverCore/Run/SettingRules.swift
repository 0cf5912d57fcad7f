// What each show setting's value must be, said once: the command line's reading of an option, the configuration
// file's and the check of a saved record all call these, so a value one accepts no other refuses.
import Foundation

extension ShowSettings {
    /// A file name template.
    public static func checkName(_ text: String) throws(SettingProblem) -> NameTemplate {
        do {
            return try NameTemplate(text)
        } catch {
            throw .invalid(error.localizedDescription)
        }
    }

    /// A show-folder template (`--folder-name`).
    public static func checkFolderName(_ text: String) throws(SettingProblem) -> FolderTemplate {
        do {
            return try FolderTemplate(text)
        } catch {
            throw .invalid(error.localizedDescription)
        }
    }

    /// A count of episodes: 1 or more.
    public static func checkLimit(_ count: Int) throws(SettingProblem) -> Int {
        guard count >= 1 else { throw .needs(limitNeeds) }
        return count
    }

    /// What a count of episodes must be.
    public static let limitNeeds = "a whole number of episodes"

    /// A date such as 2025-01-31, or an RFC 3339 time.
    public static func checkSince(_ text: String) throws(SettingProblem) -> Date {
        guard let date = FeedDate.parseRFC3339(text) else {
            throw .needs("a date such as 2025-01-31 or 2025-01-31T18:00:00Z")
        }
        return date
    }

    /// A regular expression a title is matched with (`--match`, `--exclude`).
    public static func checkMatch(_ text: String) throws(SettingProblem) -> String {
        guard (try? NSRegularExpression(pattern: text)) != nil else { throw .needs("a regular expression") }
        return text
    }

    /// A User-Agent: one line of printable text, not empty.
    public static func checkUserAgent(_ text: String) throws(SettingProblem) -> String {
        guard isValidUserAgent(text) else { throw .needs("one line of text") }
        return text
    }

    /// Preferences, comma-separated, in the order preferred (see `RenditionPreference`): media types (`audio/opus`)
    /// or codecs (`opus`), bounds on a file's height, bitrate or length (`video/mp4;height<=480`), `smallest`,
    /// `largest`. Written back lower-cased without spaces.
    public static func checkPrefer(_ text: String) throws(SettingProblem) -> String {
        let items = text.lowercased().split(separator: ",", omittingEmptySubsequences: false).map {
            $0.split(separator: ";", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.joined(separator: ";")
        }
        for item in items {
            guard !item.isEmpty else {
                throw .needs("preferences separated by commas, such as audio/opus,audio/mpeg or video/mp4;height<=480")
            }
            _ = try RenditionPreference.parse(item)
        }
        return items.joined(separator: ",")
    }

    /// A `.netrc` file's path, not empty.
    public static func checkNetrcFile(_ text: String) throws(SettingProblem) -> String {
        guard !text.isEmpty else { throw .needs("a file") }
        return text
    }
}

/// Why a setting's value is refused.
public enum SettingProblem: Error, Equatable, Sendable {
    /// The value is not what the setting needs: "one line of text".
    case needs(String)
    /// The value reads but is wrong, as this says ("unknown field {x}").
    case invalid(String)

    /// "needs one line of text" or "unknown field {x}": what follows the setting's name.
    public var reason: String {
        switch self {
        case .needs(let what): return "needs \(what)"
        case .invalid(let why): return why
        }
    }
}

/// A saved setting that is not valid (a hand-edited record).
public struct SettingsError: Error, Equatable, Sendable, LocalizedError {
    /// The setting, by its name in the subscription record.
    public var key: ShowSettings.Key
    /// Its value.
    public var value: String
    /// What is wrong with it.
    public var problem: SettingProblem

    /// A problem with one setting.
    public init(key: ShowSettings.Key, value: String, problem: SettingProblem) {
        self.key = key
        self.value = value
        self.problem = problem
    }

    /// One line naming the value and the problem (a caller names the setting as its user writes it).
    public var errorDescription: String? {
        "a saved setting of the show, '\(value)', is not valid: \(problem.reason)"
    }
}
