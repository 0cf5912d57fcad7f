// What a show's files keep of the secrets in its URLs, and of live content: archives made before kept a feed
// URL's login and tokens wherever the URL went (the index, each file's `user.xdg.origin.url`, every sidecar) and
// HTML transcripts under `.html`. The first sync that opens such a show keeps its index as `SecretForms` says
// (URLs redacted, secret identifiers as keyed hashes; live files are renamed by
// `EpisodePlacer.freeSiteNames`); the subscription record's own secrets move only on purpose
// (`CredentialMover`).
import Foundation

/// What a show's index, origins and sidecars keep of the secrets in its URLs (see `SecretForms`).
struct ArchiveSecrets: Sendable {
    /// The archive identities that key the hashes.
    let store: SubscriptionStore
    /// Where an index rewritten is saved.
    let indexes: IndexStore
    /// The origins of archived files.
    let contents: FolderContents
    /// Sidecars read.
    let files: any FileStore
    /// Sidecars rewritten.
    let writer: any AtomicFileWriting

    /// Keeps the index of `show` as `forms` says (URLs redacted, identifiers that carry a secret as keyed hashes),
    /// and the origins and sidecars of the files whose entries changed. Costs a scan of the index's URLs when
    /// there is nothing to do.
    func secureIndex(of show: inout FeedFolder, forms: SecretForms) throws {
        let index = show.index
        let (kept, changed) = forms.index(index)
        guard changed else { return }
        let byKey = Dictionary(kept.episodes.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        let altered = index.episodes.compactMap { old -> (old: ArchiveIndex.Entry, new: ArchiveIndex.Entry)? in
            guard let new = byKey[old.file], new != old else { return nil }
            return (old, new)
        }
        show.index = kept
        try indexes.save(show.index, to: show.indexURL)
        for (_, entry) in altered {
            contents.setOrigin(of: show.folder.appendingPathComponent(entry.file), to: entry.url)
            for companion in entry.companions ?? [] {
                guard let url = companion.url else { continue }
                contents.setOrigin(of: show.folder.appendingPathComponent(companion.file), to: url)
            }
        }
        // Sidecars name the feed, so a feed URL with a secret is in every one of them.
        let sidecars = kept.feed != index.feed ? index.episodes : altered.map(\.old)
        let replacements = [(index.feed, kept.feed)] + altered.flatMap { [($0.old.url, $0.new.url)] + guidChange($0) }
        for entry in sidecars {
            let sidecar = show.folder.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file))
            if secureSidecar(sidecar, replacing: replacements.filter { $0.0 != $0.1 }, staging: show.stateFolder) {
                contents.setDates(of: sidecar, to: entry.published.flatMap(FeedDate.parseRFC3339))
            }
        }
    }

    private func guidChange(_ change: (old: ArchiveIndex.Entry, new: ArchiveIndex.Entry)) -> [(String, String)] {
        guard let old = change.old.guid, let new = change.new.guid, old != new else { return [] }
        return [(old, new)]
    }

    /// Rewrites a sidecar with each URL of `replacements` replaced by the second, redacted; a missing or
    /// unreadable sidecar is left alone (the next `--metadata` sync writes it again).
    private func secureSidecar(_ url: URL, replacing replacements: [(String, String)], staging: URL) -> Bool {
        guard var text = files.contents(atPath: url.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            return false
        }
        let original = text
        for (old, new) in replacements {
            guard let from = Self.jsonString(old), let to = Self.jsonString(new) else { continue }
            text = text.replacingOccurrences(of: from, with: to)
        }
        guard text != original else { return false }
        return (try? writer.writeAtomically(Data(text.utf8), to: url, durable: false, stagedIn: staging)) != nil
    }

    /// `text` as the sidecar encoder writes it inside a JSON document, quotes included.
    private static func jsonString(_ text: String) -> String? {
        guard let data = try? JSONEncoder.sidecars.encode([text]) else { return nil }
        let array = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard array.hasPrefix("["), array.hasSuffix("]") else { return nil }
        return String(array.dropFirst().dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// How `root` keeps identifiers that carry a secret; its identity is made if it has none yet.
    func secretForms(of root: URL) throws -> SecretForms {
        guard let identity = try store.identity(of: root, create: true) else {
            throw ArchiveError.storage(path: root.path, reason: "the archive's identity cannot be made")
        }
        return SecretForms(identity: identity)
    }
}
