// Reference measurements for `make bench`, run side by side with podarchive itself:
//   podarchive-bench sha256 FILE [portable]   hash a file in 16 KB chunks (the downloader's chunk size)
//   podarchive-bench xmlparser FILE           a bare XMLParser pass that does no work
//   podarchive-bench jsonserialization FILE   a bare JSONSerialization pass
//   podarchive-bench feedparser FILE          podarchive's own FeedParser on the same file
// Each prints one line: "<mode> <bytes> <seconds>" (plus the digest for sha256).
import ArchiverCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Does nothing with any callback: the floor for reading a document with XMLParser.
final class NoWork: NSObject, XMLParserDelegate {}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let data = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: podarchive-bench sha256|xmlparser|jsonserialization FILE\n".utf8))
    exit(2)
}
let start = DispatchTime.now().uptimeNanoseconds
var detail = ""
switch arguments[1] {
case "sha256":
    var hasher = SHA256(implementation: arguments.count > 3 && arguments[3] == "portable" ? .portable : .automatic)
    data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let count = min(16_384, buffer.count - offset)
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
            offset += count
        }
    }
    detail = " " + hasher.hexDigest()
case "xmlparser":
    // XMLParser(data:) fails past 10 MB on Linux; a stream reads any size.
    let parser = XMLParser(stream: InputStream(data: data))
    let delegate = NoWork()
    parser.delegate = delegate
    _ = parser.parse()
case "jsonserialization":
    _ = try JSONSerialization.jsonObject(with: data)
case "feedparser":
    let feed = try FeedParser.parse(data, url: URL(string: "http://127.0.0.1/feed"))
    detail = " \(feed.episodes.count) episodes"
default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
print("\(arguments[1]) \(data.count) \(String(format: "%.4f", seconds))\(detail)")
