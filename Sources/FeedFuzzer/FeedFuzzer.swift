// libFuzzer entry point for the feed readers: every input must parse or fail with a FeedError, quickly,
// without crashing. Built only by `make fuzz` (libFuzzer supplies main), see Package.swift.
import ArchiverCore
import FeedFuzzerMain
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedReaders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let base = URL(string: "https://example.com/podcast/feed.xml")
    // The last byte picks whether show notes are read too (as `--metadata` does), so both paths are explored.
    let descriptions = count > 0 && start.load(fromByteOffset: count - 1, as: UInt8.self) & 1 == 1
    if let feed = try? FeedParser.parse(data, url: base, descriptions: descriptions) {
        // Touch what the archiver uses from each episode, as a sync would: names, templates, dates.
        let template = try? NameTemplate("{feed}/{season}/{date} {episode:03} {title} {guid}")
        for episode in feed.episodes {
            _ = FileNamer.sanitize(episode.title ?? "")
            _ = FileNamer.fileExtension(url: episode.url, mimeType: episode.mimeType)
            _ = episode.published.map(FeedDate.iso8601)
            _ = template?.path(for: episode, feedTitle: feed.title ?? "")
        }
    }
    // The index reader against JSONDecoder: whatever the fast reader accepts, JSONDecoder must read the same.
    if let fast = try? IndexFormat.decode(data) {
        _ = IndexFormat.unsafeFile(in: fast)
        guard let reference = try? JSONDecoder().decode(ArchiveIndex.self, from: data), reference == fast,
            reference.version == fast.version
        else { fatalError("the index reader and JSONDecoder disagree") }
    }
    // The journal reader: any bytes read back to entries that a JSON round trip keeps, never a crash.
    for entry in IndexJournal.entries(in: data).entries {
        guard let again = try? JSONDecoder().decode(ArchiveIndex.Entry.self, from: JSONEncoder().encode(entry)),
            again == entry
        else { fatalError("a journal entry does not survive a round trip") }
    }
    return 0
}
