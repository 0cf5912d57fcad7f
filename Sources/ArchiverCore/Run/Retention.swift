// Retention: how many of a show's episodes stay in its folder, and where the others go. Given to `offload`, or saved
// with a show (`--keep-last`/`--keep-days` with `--into` or `--delete`) and applied after each of its syncs.
import Foundation

/// How many of a show's episodes stay in its folder.
enum Retention: Equatable, Sendable {
    /// The newest `count` episodes (by publication date, else the date archived) stay.
    case keepLast(Int)
    /// Episodes published before this moment go.
    case before(Date)
    /// Episodes published more than this many days before the run go.
    case keepDays(Int)
}

/// Where the files of episodes that go are put.
enum RetentionTarget: Equatable, Sendable {
    /// Moved into this folder, under a folder of the show's name.
    case into(URL)
    /// Deleted.
    case delete
}

/// What became of one episode in an offload or a restore.
public struct OffloadedEpisode: Equatable, Sendable {
    /// Its title (else its file's name).
    public var title: String
    /// Its file in the show's folder.
    public var file: String
    /// Whether its files were deleted (by `--delete`) rather than moved (or brought back).
    public var deleted: Bool
    /// The folder its files are in now, when offloaded (or the one they came back from).
    public var into: String?
    /// The bytes of its files that moved, were deleted or came back (0 when planned only).
    public var bytes: Int64
    /// Why it did not go (or come back): the files stay where they were.
    public var failed: String?
}

/// A show's saved retention: which episodes go, and where (see `EpisodeOffloader`).
struct RetentionRule: Equatable, Sendable {
    var keep: Retention
    var target: RetentionTarget

    /// The retention `settings` save, nil when none; `keepLast`/`keepDays` without `into` or
    /// `delete` (a hand-edited record) is refused.
    /// - Throws: `SettingsError` naming the value its rule refuses.
    static func of(_ settings: ShowSettings) throws -> RetentionRule? {
        let keep: Retention
        if case .count(let count)? = settings[.keepLast], count > 0 {
            keep = .keepLast(count)
        } else if case .count(let days)? = settings[.keepDays], days > 0 {
            keep = .keepDays(days)
        } else {
            return nil
        }
        if case .text(let into)? = settings[.into], !into.isEmpty {
            do {
                return RetentionRule(keep: keep, target: .into(URL(fileURLWithPath: try ShowSettings.checkInto(into))))
            } catch {
                throw SettingsError(key: .into, value: into, problem: error)
            }
        }
        if case .flag(true)? = settings[.delete] { return RetentionRule(keep: keep, target: .delete) }
        let key: ShowSettings.Key = settings[.keepLast] != nil ? .keepLast : .keepDays
        throw SettingsError(
            key: key, value: settings[key]?.text ?? "",
            problem: .needs("a place for the episodes that go: a folder to offload into, or deletion"))
    }
}

extension ShowSettings {
    /// `--into`: a folder's absolute path (where offloaded episodes go).
    public static func checkInto(_ text: String) throws(SettingProblem) -> String {
        guard text.hasPrefix("/"), !text.contains("\u{0}"), !text.contains("\n") else {
            throw .needs("a folder's absolute path, such as /mnt/cold")
        }
        return text
    }
}
