// Archives made before credentials had a place of their own kept a feed URL's login wherever the URL went: the
// index (the feed, and enclosure URLs resolved against it), each file's `user.xdg.origin.url`, every sidecar.
// The first sync that opens such a show takes it out of all of them; the subscription record keeps it (see
// `FeedFolders.secureRecords`).
import Foundation

extension Archiver {
    /// Takes the logins out of the index of `show` and out of the origins and sidecars of its files. Costs a
    /// scan of the index's URLs for `@` when there is nothing to do.
    func secureIndex(of show: inout FeedFolder) throws {
        let index = show.index
        let bare = URLSecrets.withoutUserinfo
        guard
            bare(index.feed) != index.feed || index.episodes.contains(where: { bare($0.url) != $0.url })
                || index.failures.contains(where: { bare($0.url) != $0.url })
        else { return }
        var changed: [(old: ArchiveIndex.Entry, new: ArchiveIndex.Entry)] = []
        let episodes = index.episodes.map { entry -> ArchiveIndex.Entry in
            var secured = entry
            secured.url = bare(entry.url)
            if entry.key == entry.url { secured.key = secured.url }
            secured.companions = entry.companions?.map { companion in
                var companion = companion
                companion.url = companion.url.map(bare)
                return companion
            }
            if secured != entry { changed.append((entry, secured)) }
            return secured
        }
        let failures = index.failures.map { failure -> ArchiveIndex.Failure in
            var secured = failure
            secured.url = bare(failure.url)
            if failure.key == failure.url { secured.key = secured.url }
            return secured
        }
        show.index = ArchiveIndex(feed: bare(index.feed), title: index.title, episodes: episodes, failures: failures)
        try folders.save(show.index, to: show.indexURL)
        for (_, entry) in changed {
            folders.setOrigin(of: show.folder.appendingPathComponent(entry.file), to: entry.url)
            for companion in entry.companions ?? [] {
                guard let url = companion.url else { continue }
                folders.setOrigin(of: show.folder.appendingPathComponent(companion.file), to: url)
            }
        }
        // Sidecars name the feed, so a feed URL with a login is in every one of them.
        let sidecars = bare(index.feed) != index.feed ? index.episodes : changed.map(\.old)
        let replacements = [(index.feed, show.index.feed)] + changed.map { ($0.old.url, $0.new.url) }
        for entry in sidecars {
            let sidecar = show.folder.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file))
            if secureSidecar(sidecar, replacing: replacements.filter { $0.0 != $0.1 }) {
                folders.setDates(of: sidecar, to: entry.published.flatMap(FeedDate.parseRFC3339))
            }
        }
    }

    /// Rewrites a sidecar with each URL of `replacements` replaced by the second, redacted; a missing or
    /// unreadable sidecar is left alone (the next `--metadata` sync writes it again).
    private func secureSidecar(_ url: URL, replacing replacements: [(String, String)]) -> Bool {
        guard var text = folders.files.contents(atPath: url.path).map({ String(decoding: $0, as: UTF8.self) }) else {
            return false
        }
        let original = text
        for (old, new) in replacements {
            guard let from = Self.jsonString(old), let to = Self.jsonString(URLSecrets.redacted(new)) else { continue }
            text = text.replacingOccurrences(of: from, with: to)
        }
        guard text != original else { return false }
        return (try? folders.writer.writeAtomically(Data(text.utf8), to: url, durable: false)) != nil
    }

    /// `text` as the sidecar encoder writes it inside a JSON document, quotes included.
    private static func jsonString(_ text: String) -> String? {
        guard let data = try? JSONEncoder.sidecars.encode([text]) else { return nil }
        let array = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard array.hasPrefix("["), array.hasSuffix("]") else { return nil }
        return String(array.dropFirst().dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
