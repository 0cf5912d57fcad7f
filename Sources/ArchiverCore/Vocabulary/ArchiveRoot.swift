// The archive root as a value: the one place the paths of the root's own state are built from the names in
// `ArchiveLayout` (its `.podarchive/` folder, the subscription records, the archive's identity, the site's records),
// and where a show's state under it is found. Records of types above this layer are declared beside their type
// (`ArchiveRoot.siteSettings` in SiteWriter.swift, ...), through `record(_:_:)`.
import Foundation

/// The paths of an archive root's own state.
struct ArchiveRoot: Sendable, Hashable {
    /// The archive root.
    let url: URL
    /// Its state folder (`<root>/.podarchive`).
    let stateFolder: URL

    /// The archive whose root is `url`.
    init(_ url: URL) {
        self.url = url
        stateFolder = ArchiveLayout.stateFolder(of: url)
    }

    /// The record `name` of the root's state folder, written as `durability` says.
    func record<Record>(_ name: String, _ durability: RecordDurability, ownerOnly: Bool = false) -> RecordFile<Record> {
        RecordFile(name, in: stateFolder, durability, ownerOnly: ownerOnly)
    }

    /// The archive's identity (see `ArchiveIdentity`): made once, never rewritten.
    var identity: RecordFile<ArchiveIdentity> { record(ArchiveLayout.identityFile, .intent) }
    /// The lock of the root's state folder, held while show folders move.
    var lock: URL { stateFolder.appendingPathComponent(ArchiveLayout.lockFile, isDirectory: false) }
    /// The folder of the subscription records.
    var subscriptionsFolder: URL {
        stateFolder.appendingPathComponent(ArchiveLayout.subscriptionsFolder, isDirectory: true)
    }
    /// The record of the subscription `id` (typed by `ArchiveRoot.subscription`, beside the record's type): a hint
    /// rewritten atomically, 0600 (a record of an earlier version may hold a secret).
    func subscriptionRecord<Record>(_ id: String) -> RecordFile<Record> {
        RecordFile(ArchiveLayout.subscriptionFile(id), in: subscriptionsFolder, .hint, ownerOnly: true)
    }

    /// The folder of the show a subscription names `name` (made safe as a file name).
    func showFolder(_ name: String) -> URL {
        url.appendingPathComponent(FileNamer.sanitize(name), isDirectory: true)
    }
}
