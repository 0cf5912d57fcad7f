// Records of earlier versions, brought up to date: made 0600 in a 0700 folder, a login kept inside a feed URL
// moved into the record's credentials, two records of one show (one folder) merged, and (only on purpose:
// `credentials --move`) the secrets kept in records moved to the configuration folder.
import Foundation

extension SubscriptionStore {
    /// Records made before they were kept readable by their owner only are made so (0600 in a 0700 folder), and a
    /// login an earlier podarchive kept inside a record's feed URL goes into the record's credentials. The folder's
    /// mode is the mark: a folder already 0700 is left as it is, so a sync pays one stat for this.
    func secureLegacyRecords(in root: URL) {
        guard let folder = try? archive(root).subscriptionsFolder,
            let mode = attributes.permissions(atPath: folder.path), mode & 0o077 != 0
        else { return }
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter(
            ArchiveLayout.isSubscriptionFile)
        for name in names {
            let file = ArchiveRoot(root).subscription(ArchiveLayout.subscriptionID(ofFile: name))
            let path = file.url
            guard var record = try? read(file).get() else { continue }
            guard let login = FeedSource.login(in: record.feed) else {
                try? attributes.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path.path)
                continue
            }
            record.feed = URLSecrets.withoutUserinfo(record.feed)
            record.movedFrom = record.movedFrom.map(URLSecrets.withoutUserinfo)
            record.credentials = record.credentials.map { $0.overlaid(by: login) } ?? login
            do {
                try save(record, in: root)
            } catch {
                return  // Tried again next time: the folder keeps its mode until every record is secured.
            }
        }
        try? attributes.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
    }

    /// Records an earlier version made for one show reached by two URLs name one folder: the show is kept once,
    /// under the record that synced last (else the first made); the others are removed, with their secrets.
    func mergeShowsOfOneFolder(_ set: inout SubscriptionSet, in root: URL) {
        let byFolder = Dictionary(grouping: set.shows) { FileNamer.sanitize($0.folder) }
        for (_, records) in byFolder where records.count > 1 {
            let kept =
                records.filter { $0.lastSync?.outcome == .ok }.max {
                    ($0.lastSync?.finished ?? "") < ($1.lastSync?.finished ?? "")
                }
                ?? records[0]
            for record in records where record.id != kept.id {
                guard
                    let url = try? archive(root).subscription(record.id).url,
                    (try? files.removeItem(at: url)) != nil
                else { continue }
                if record.keepsSecrets,
                    let identity = try? identity(of: root, create: false)
                {
                    try? secrets.remove(archive: identity.id, show: record.id)
                }
                set.shows.removeAll { $0.id == record.id }
                set.merged.append(.init(kept: kept, removed: record))
            }
        }
    }

    /// Moves the secrets an earlier version kept in `record` (its login and headers, its feed URL's token) to the
    /// configuration folder, then rewrites the record without them.
    func moveSecrets(of record: Subscription, in root: URL) throws {
        var updated = record
        let source = try FeedSource(record.feed, currentDirectory: root.path)
        try keep(&updated, source: source, credentials: record.credentials, moving: true, in: root)
        try save(updated, in: root)
    }
}
