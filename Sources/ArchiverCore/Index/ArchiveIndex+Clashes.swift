// Two entries of one index that claim the same thing: one file (an episode's or a companion's), or one key (the
// same GUID twice). podarchive never writes such an index; a hand edit or a merge can. Which episode the file
// holds is then unknown, so `verify` names both entries and a repair touches neither: writing one episode's
// bytes over the other's would lose an archived episode.
import Foundation

extension ArchiveIndex {
    /// One entry of the index, as a clash names it.
    public struct EntryName: Sendable, Equatable {
        /// Its position in `episodes`, from 1.
        public var position: Int
        /// Its title, else its key.
        public var name: String
    }

    /// Two entries that claim one file or one key.
    public struct Clash: Sendable, Equatable {
        /// What both claim.
        public enum Claim: Sendable, Equatable {
            /// The same file in the folder (each as its episode's file or as a companion).
            case file(String)
            /// The same key: the same GUID, or the same enclosure URL for episodes without one.
            case key(String)
        }

        /// What both entries claim.
        public var claim: Claim
        /// The entry that claims it first.
        public var first: EntryName
        /// The one after it that claims it too.
        public var second: EntryName
    }

    /// Every pair of entries that claim one file or one key, the earlier entry first, in index order. A file or a
    /// key claimed by three entries makes two clashes, each with the first.
    public func clashes() -> [Clash] {
        var fileOwners: [String: Int] = [:]
        var keyOwners: [String: Int] = [:]
        var clashes: [Clash] = []
        func named(_ position: Int) -> EntryName {
            let entry = episodes[position]
            return EntryName(position: position + 1, name: entry.title ?? entry.key)
        }
        for (position, entry) in episodes.enumerated() {
            if let owner = keyOwners[entry.key] {
                clashes.append(Clash(claim: .key(entry.key), first: named(owner), second: named(position)))
            } else {
                keyOwners[entry.key] = position
            }
            var own = Set<String>()
            for file in [entry.file] + (entry.companions ?? []).map(\.file) where own.insert(file).inserted {
                if let owner = fileOwners[file] {
                    clashes.append(Clash(claim: .file(file), first: named(owner), second: named(position)))
                } else {
                    fileOwners[file] = position
                }
            }
        }
        return clashes
    }
}
