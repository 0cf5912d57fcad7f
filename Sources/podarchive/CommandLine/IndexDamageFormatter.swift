// The lines for damage to a show's index: records of its journal that cannot be read.
import ArchiverCore
import Foundation

enum IndexDamageFormatter {
    /// "record 2 of 3 cannot be read", "records 1 and 2 of 3 cannot be read".
    static func records(_ damage: JournalDamage) -> String {
        let numbers = damage.records.map(String.init)
        let list =
            numbers.count == 1
            ? numbers[0] : numbers.dropLast().joined(separator: ", ") + " and " + numbers[numbers.count - 1]
        return "record\(numbers.count == 1 ? "" : "s") \(list) of \(damage.total) cannot be read"
    }

    /// `verify`'s line for a damaged journal.
    static func verifyLine(_ damage: JournalDamage, root: URL) -> String {
        let one = damage.records.count == 1
        return "damaged  \(SyncFormatter.relative(damage.journal, to: root)): \(records(damage)) (the index's "
            + "journal); the records after \(one ? "it" : "them") are applied, and the next sync finds "
            + "\(one ? "its episode" : "their episodes") again"
    }

    /// `sync`'s line (on standard error) for a damaged journal it folded.
    static func syncLine(_ damage: JournalDamage, root: URL) -> String {
        let one = damage.records.count == 1
        return "\(SyncFormatter.relative(damage.journal, to: root)): \(records(damage)) (the index's journal); the "
            + "records after \(one ? "it" : "them") were applied, and \(one ? "its episode is" : "their episodes are") "
            + "looked for again in the feed, a file already in the folder adopted"
    }
}
