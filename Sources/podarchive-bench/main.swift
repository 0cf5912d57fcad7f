// Reference measurements for `make bench`, run side by side with podarchive itself:
//   podarchive-bench sha256 FILE [portable]   hash a file in 16 KB chunks (the downloader's chunk size)
//   podarchive-bench xmlparser FILE           a bare XMLParser pass that does no work
//   podarchive-bench jsonserialization FILE   a bare JSONSerialization pass
//   podarchive-bench feedparser FILE          podarchive's own FeedParser on the same file
//   podarchive-bench urlsession LIST [N] [as-shipped]
//                                             download each `URL<TAB>path` line of LIST, N at a time (4), with
//                                             a URLSession that does nothing else (see URLSessionFloor);
//                                             `as-shipped`: without podarchive's correction of FoundationNetworking's
//                                             socket watching (CCurlSockets), as any other program on Linux runs
//   podarchive-bench request URL [DATE]       one GET (conditional with If-Modified-Since: DATE), its status:
//                                             the least a process that asks for one feed with URLSession does
// Each prints one line: "<mode> <bytes> <seconds>" (plus the digest for sha256).
import ArchiverCore
import CCurlSockets
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Does nothing with any callback: the floor for reading a document with XMLParser.
final class NoWork: NSObject, XMLParserDelegate {}

let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "request", let url = URL(string: arguments[2]) {
    let start = DispatchTime.now().uptimeNanoseconds
    let status = OneRequest.status(of: url, ifModifiedSince: arguments.count > 3 ? arguments[3] : nil)
    guard let status else {
        FileHandle.standardError.write(Data("request: \(url) failed or did not end within 60 s\n".utf8))
        exit(1)
    }
    print("request \(status) \(String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))")
    // As podarchive's release build leaves: without the libraries' clean-up.
    fflush(nil)
    _exit(0)
}
if arguments.count >= 3, arguments[1] == "urlsession",
    let list = try? String(contentsOfFile: arguments[2], encoding: .utf8)
{
    let jobs = list.split(separator: "\n").compactMap { line -> (url: URL, path: String)? in
        let parts = line.split(separator: "\t", maxSplits: 1)
        guard parts.count == 2, let url = URL(string: String(parts[0])) else { return nil }
        return (url, String(parts[1]))
    }
    if arguments.count > 4, arguments[4] == "as-shipped" { podarchive_curl_sockets_correct(0) }
    let start = DispatchTime.now().uptimeNanoseconds
    guard
        let failures = URLSessionFloor(jobs: jobs).run(
            parallel: arguments.count > 3 ? Int(arguments[3]) ?? 4 : 4, timeout: 600)
    else {
        FileHandle.standardError.write(Data("urlsession: the transfers did not end within 600 s\n".utf8))
        exit(1)
    }
    guard failures == 0 else {
        FileHandle.standardError.write(Data("urlsession: \(failures) of \(jobs.count) transfers failed\n".utf8))
        exit(1)
    }
    print(
        "urlsession \(jobs.count) \(String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))"
    )
    exit(0)
}
guard arguments.count >= 3, let data = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(
        Data(
            "usage: podarchive-bench sha256|sha384|sha512|xmlparser|jsonserialization|feedparser FILE, urlsession LIST [N] [as-shipped], or request URL [DATE]\n"
                .utf8)
    )
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
case "sha384", "sha512":
    // As the download delegate feeds it: 16 KB chunks (see `IntegrityHasher`).
    var hasher = IntegrityHasher(arguments[1] == "sha384" ? .sha384 : .sha512)
    data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let count = min(16_384, buffer.count - offset)
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
            offset += count
        }
    }
    detail = " " + Data(hasher.finalize()).base64EncodedString()
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
