// The lines for damage to a show's index: records of its journal that cannot be read, and two entries that claim
// one file or one key (which a repair refuses to touch).
import Foundation

/// What every command says of a damaged index: journal records it skipped, entries that claim one file.
public enum IndexDamageFormatter {
    /// "record 2 of 3 cannot be read", "records 1 and 2 of 3 cannot be read".
    public static func records(_ damage: JournalDamage) -> String {
        let numbers = damage.records.map(String.init)
        let list =
            numbers.count == 1
            ? numbers[0] : numbers.dropLast().joined(separator: ", ") + " and " + numbers[numbers.count - 1]
        return "record\(numbers.count == 1 ? "" : "s") \(list) of \(damage.total) cannot be read"
    }

    /// `verify`'s line for a damaged journal.
    public static func verifyLine(_ damage: JournalDamage, root: URL) -> String {
        let one = damage.records.count == 1
        return "damaged  \(SyncFormatter.relative(damage.journal, to: root)): \(records(damage)) (the index's "
            + "journal); the records after \(one ? "it" : "them") are applied, and the next sync finds "
            + "\(one ? "its episode" : "their episodes") again"
    }

    /// The line (on standard error) for a damaged journal a command folded into its index (see `FoldsSaid`): the
    /// journal named from the show's folder (`My Show/.podarchive/index.journal`), as the archive root sees it.
    /// A sync reads the feed in full itself; any other command leaves that to the next sync.
    public static func foldLine(_ damage: JournalDamage, bySync: Bool) -> String {
        let one = damage.records.count == 1
        let state = damage.journal.deletingLastPathComponent()
        let journal = [
            state.deletingLastPathComponent().lastPathComponent, state.lastPathComponent,
            damage.journal.lastPathComponent,
        ].joined(separator: "/")
        let episodes = one ? "its episode" : "their episodes"
        return "\(journal): \(records(damage)) (the index's journal); the records after \(one ? "it" : "them") were "
            + "applied and the journal folded without \(one ? "it" : "them"): "
            + (bySync
                ? "\(episodes) \(one ? "is" : "are") looked for again in the feed, read in full"
                : "the next sync reads the feed in full and finds \(episodes) again")
            + ", a file already in the folder adopted"
    }

    /// `entry 1 "One" and entry 2 "Two"`.
    private static func entries(_ clash: ArchiveIndex.Clash) -> String {
        "entry \(clash.first.position) \"\(SyncFormatter.oneLine(clash.first.name))\" and entry "
            + "\(clash.second.position) \"\(SyncFormatter.oneLine(clash.second.name))\""
    }

    private static func claim(_ clash: ArchiveIndex.Clash) -> String {
        switch clash.claim {
        case .file(let file): return "both name the file \(SyncFormatter.oneLine(file))"
        case .key(let key): return "are both the episode \(SyncFormatter.oneLine(key))"
        }
    }

    private static func index(_ folder: URL, root: URL) -> String {
        SyncFormatter.relative(
            ArchiveLayout.indexFile(of: folder),
            to: root)
    }

    /// `verify`'s line for two entries that claim one file or one key.
    public static func clashLine(_ clash: ArchiveIndex.Clash, folder: URL, root: URL) -> String {
        "conflict \(index(folder, root: root)): \(entries(clash)) \(claim(clash))"
    }

    /// `verify --repair`'s refusal (on standard error) to touch either entry's files.
    public static func refusalLine(_ clash: ArchiveIndex.Clash, folder: URL, root: URL) -> String {
        "cannot repair \(entries(clash)) of \(index(folder, root: root)): they \(claim(clash)); neither is touched "
            + "until the index gives each file and each episode one entry"
    }
}
