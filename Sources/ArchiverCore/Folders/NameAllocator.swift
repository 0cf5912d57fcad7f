// Distinct names for new files in one feed folder, compared the way case-insensitive file systems would.
import Foundation

/// Hands out distinct file names within one folder: "Title.mp3", then "Title (2).mp3", ...
/// With `sidecars`, a name is free only when its sidecar's name is free too, and both are claimed together.
/// A name the site writes in a show's folder (`feed.xml`, `index.html`, `cover.jpg`; see `ArchiveLayout`) is
/// never free: "feed.xml" is followed by "feed (2).xml", as for any other clash.
struct NameAllocator {
    /// The names as given, until a claim needs them: a sync with nothing new never pays for lowercasing them.
    private var given: Set<String>?
    private var taken: Set<String> = []
    private var nextCounter: [String: Int] = [:]
    private let sidecars: Bool
    /// How many names were tried: counted, so a test can tell linear from quadratic naming.
    private(set) var tries = 0

    init(taken: Set<String>, sidecars: Bool = false) {
        given = taken
        self.sidecars = sidecars
    }

    private mutating func materialize() {
        guard let given else { return }
        self.given = nil
        taken.reserveCapacity(given.count * (sidecars ? 2 : 1))
        for name in given {
            // Compare the way case-insensitive file systems (macOS, Windows) would.
            taken.insert(name.lowercased())
            // The sidecars of files already there are theirs, written or not.
            if sidecars, !name.hasSuffix(ArchiveLayout.sidecarSuffix) {
                taken.insert(ArchiveNames.sidecarName(for: name).lowercased())
            }
        }
    }

    /// Claims the name `template` gives a new file of `episode`: `Folder/Title.ext`, else `Folder/Title (2).ext`...
    mutating func claim(for episode: Episode, template: NameTemplate, feedTitle: String) -> String {
        claim(template.newFile(for: episode, feedTitle: feedTitle))
    }

    /// A free name `stem.ext`, `stem (2).ext`, ... after the prefix (subfolders of the feed folder). The counter
    /// each stem reached is remembered, so 10,000 episodes of one title cost 10,000 tries, not 50 million.
    mutating func claim(_ newFile: NewFileName) -> String {
        let key = newFile.prefix + "/" + newFile.stem + "." + (newFile.ext ?? "")
        var counter = nextCounter[key] ?? 1
        while true {
            let name = newFile.numbered(counter)
            if claim(exactly: name) {
                nextCounter[key] = counter + 1
                return name
            }
            counter += 1
        }
    }

    mutating func release(_ name: String) {
        materialize()
        nextCounter.removeAll()
        taken.remove(name.lowercased())
        if sidecars { taken.remove(ArchiveNames.sidecarName(for: name).lowercased()) }
    }

    /// Claims `name` (and its sidecar's name) if free, and not a name the site keeps for itself.
    mutating func claim(exactly name: String) -> Bool {
        guard !ArchiveLayout.isReservedInShow(name) else {
            tries += 1
            return false
        }
        return take(name)
    }

    /// Claims a name the site keeps for podarchive's own file (the show's artwork, `cover.jpg`) if free.
    mutating func claim(siteFile name: String) -> Bool { take(name) }

    private mutating func take(_ name: String) -> Bool {
        materialize()
        tries += 1
        let key = name.lowercased()
        guard !taken.contains(key) else { return false }
        if sidecars {
            let sidecar = ArchiveNames.sidecarName(for: name).lowercased()
            guard !taken.contains(sidecar) else { return false }
            taken.insert(sidecar)
        }
        taken.insert(key)
        return true
    }
}
