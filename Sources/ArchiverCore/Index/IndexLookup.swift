// The lookup tables of an `ArchiveIndex` (by key, GUID, URL, URL key, file), built from its entries the first time
// one is asked for: an index read only to be listed, exported or served never builds them (a tenth of an export of
// 10,000 episodes went to building them). Copies of an index share their tables until one of them changes.
import Foundation

/// An index's tables, built when first asked for.
final class IndexLookup: Sendable {
    /// The tables: each entry's position by the names it is found by.
    struct Tables: Sendable {
        /// Keys that neither the GUID nor the URL give (a shared GUID, a new version, a keyed hash).
        var byKey: [String: Int] = [:]
        var byGUID: [String: Int]
        var byURL: [String: Int]
        /// The first entry of each URL key; the rare others (`e.mp3?id=N` hosts) in `moreByURLKey`.
        var byURLKey: [String: Int]
        var moreByURLKey: [String: [Int]] = [:]
        var files: Set<String>
        /// Every entry's key.
        var keyPositions: [String: Int]

        /// Empty tables with room for `count` entries.
        init(capacity count: Int) {
            byGUID = Dictionary(minimumCapacity: count)
            byURL = Dictionary(minimumCapacity: count)
            byURLKey = Dictionary(minimumCapacity: count)
            files = Set(minimumCapacity: count)
            keyPositions = Dictionary(minimumCapacity: count)
        }

        /// Makes the entry at `position` of the index's entries found by its `key`, `guid` and `url`, and `names`
        /// (its own file's and its companions') known.
        mutating func add(key: String, guid: String?, url: String, files names: [String], at position: Int) {
            keyPositions[key] = position
            // Only keys that neither the GUID nor the URL give (a shared GUID, a new version) need a table of their
            // own. A keyed hash always: an earlier version's reading took one that stands for a URL for a GUID and
            // kept it so.
            if (key != guid && key != url) || ArchiveIdentity.isKeyedHash(key) { byKey[key] = position }
            // An entry kept apart by its URL (a shared GUID) never answers for the GUID itself.
            if let guid, key == guid || byGUID[guid] == nil { byGUID[guid] = position }
            // A redacted URL names no one file exactly (two tokens make two files): such entries are found by key.
            if !URLSecrets.carriesRedaction(url), byURL[url] == nil || key == url || key == guid {
                byURL[url] = position
            }
            let urlKey = EpisodeIdentity.urlKey(url)
            if byURLKey[urlKey] == nil {
                byURLKey[urlKey] = position
            } else {
                moreByURLKey[urlKey, default: []].append(position)
            }
            for name in names { files.insert(name) }
        }
    }

    private let tables = Locked<Tables?>(nil)

    /// `body`'s answer from the tables, built now by `build` if they are not yet.
    func read<Answer: Sendable>(building build: () -> Tables, _ body: (Tables) -> Answer) -> Answer {
        tables.withLock { tables in
            if let built = tables { return body(built) }
            let built = build()
            tables = built
            return body(built)
        }
    }

    /// Changes the tables with `body` if they are built (else they will be built with the change in them).
    func change(_ body: (inout Tables) -> Void) {
        tables.withLock { tables in
            guard var built = tables else { return }
            tables = nil
            body(&built)
            tables = built
        }
    }
}
