// libFuzzer entry point for the feed readers: every input must parse or fail with a FeedError, quickly,
// without crashing. Built only by `make fuzz` (libFuzzer supplies main), see Package.swift.
import ArchiverCore
import FeedFuzzerMain
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedReaders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let base = URL(string: "https://example.com/podcast/feed.xml")
    if let feed = try? FeedParser.parse(data, url: base) {
        // Touch what the archiver uses from each episode, as a sync would.
        for episode in feed.episodes {
            _ = FileNamer.sanitize(episode.title ?? "")
            _ = FileNamer.fileExtension(url: episode.url, mimeType: episode.mimeType)
            _ = episode.published.map(FeedDate.iso8601)
        }
    }
    return 0
}
