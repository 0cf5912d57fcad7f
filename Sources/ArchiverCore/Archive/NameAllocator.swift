// Distinct names for new files in one feed folder, compared the way case-insensitive file systems would.
import Foundation

/// Hands out distinct file names within one folder: "Title.mp3", then "Title (2).mp3", ...
/// With `sidecars`, a name is free only when its sidecar's name is free too, and both are claimed together.
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
            if sidecars, !name.hasSuffix(Archiver.sidecarSuffix) {
                taken.insert(Archiver.sidecarName(for: name).lowercased())
            }
        }
    }

    /// Claims the name `template` gives a new file of `episode`: `Folder/Title.ext`, else `Folder/Title (2).ext`...
    mutating func claim(for episode: Episode, template: NameTemplate, feedTitle: String) -> String {
        let (prefix, stem, ext) = template.newFile(for: episode, feedTitle: feedTitle)
        return claim(stem: stem, extension: ext, prefix: prefix)
    }

    /// A free name `stem.ext`, `stem (2).ext`, ... after `prefix` (subfolders of the feed folder). The counter
    /// each stem reached is remembered, so 10,000 episodes of one title cost 10,000 tries, not 50 million.
    private mutating func claim(stem: String, extension ext: String?, prefix: String) -> String {
        let key = prefix + "/" + stem + "." + (ext ?? "")
        var counter = nextCounter[key] ?? 1
        while true {
            let name = prefix + FileNamer.fileName(stem: stem, extension: ext, counter: counter)
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
        if sidecars { taken.remove(Archiver.sidecarName(for: name).lowercased()) }
    }

    /// Claims `name` (and its sidecar's name) if free.
    mutating func claim(exactly name: String) -> Bool {
        materialize()
        tries += 1
        let key = name.lowercased()
        guard !taken.contains(key) else { return false }
        if sidecars {
            let sidecar = Archiver.sidecarName(for: name).lowercased()
            guard !taken.contains(sidecar) else { return false }
            taken.insert(sidecar)
        }
        taken.insert(key)
        return true
    }
}
