// What the folds of damaged journals found, for the command that folded them to say: `IndexStore.save` is the one
// way a show's index is written over its journal, and it records here each damaged record it folded away. Shared
// by every copy of an archiver's index store (a reference), read by the executable once the command is done.
import Foundation

/// The damaged journals an archiver folded into their indexes (see `IndexStore.save`): each damaged record, not
/// a torn last one (a crash leaves that, and the next sync adopts its episode without a word).
public final class JournalFolds: Sendable {
    private let folded = Locked<[JournalDamage]>([])

    /// An empty record of folds.
    public init() {}

    /// Every damaged journal folded so far, in the order they were folded.
    public var damages: [JournalDamage] { folded.current }

    func record(_ damage: JournalDamage) {
        folded.withLock { $0.append(damage) }
    }
}
