// The podcast directory asked over the network: a link looked up, a name searched. Its answers are read as any
// server's are (within the deadline, at most `FeedResolver.maximumAnswer` bytes, only http(s)), and each way
// asking can fail is a `DirectoryError` naming the request.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FeedResolver {
    /// The shows the directory finds for `term`, at most `limit` of them (1 to 200), in its order.
    /// - Throws: `DirectoryError` when the directory cannot be asked or its answer read.
    public func search(_ term: String, limit: Int, limits: FeedLimits) async throws -> [DirectoryShow] {
        if let refusal = directory.refusal { throw refusal }
        let url = directory.searchURL(term: term, limit: limit)
        return Array(try PodcastDirectory.shows(inAnswer: try await ask(url, limits: limits), from: url).prefix(limit))
    }

    /// The feed of show `id`, which `link` names.
    func lookUp(_ id: Int, link: String, limits: FeedLimits) async throws -> URL {
        if let refusal = directory.refusal { throw refusal }
        let url = directory.lookupURL(id: id)
        return try PodcastDirectory.feed(
            ofShow: id, link: link, inAnswer: try await ask(url, limits: limits), from: url)
    }

    /// The body of the directory's 2xx answer to `url`.
    private func ask(_ url: URL, limits: FeedLimits) async throws -> Data {
        let shown = URLSecrets.redacted(url.absoluteString)
        let fetched: FetchedBody
        do {
            fetched = try await get(
                url, maximumBytes: Self.maximumAnswer, limits: limits, accept: "application/json, */*;q=0.5")
        } catch is Deadline.Exceeded {
            throw DirectoryError.unreachable(
                url: shown, reason: "no answer within \(Deadline.describe(limits.timeout))")
        } catch FetchError.tooLarge(let limit) {
            throw DirectoryError.tooLarge(url: shown, limit: limit)
        } catch {
            throw DirectoryError.unreachable(url: shown, reason: TransportReason.describe(error))
        }
        if let http = fetched.response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw DirectoryError.httpStatus(url: shown, status: http.statusCode)
        }
        return fetched.data
    }
}

extension Archiver {
    /// A resolver reading through this archiver's fetcher and deadlines, asking `directory`.
    public func feedResolver(directory: PodcastDirectory) -> FeedResolver {
        FeedResolver(fetcher: parts.loader.fetcher, directory: directory, timer: parts.loader.timer)
    }
}
