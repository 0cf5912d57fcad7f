// Time as the archive layer sees it: what the date is, waiting, and the chance in a backoff. One seam, so a test
// moves a clock of its own instead of waiting for the real one.
import Foundation

/// The date now, waits that a cancelled task cuts short, and the jitter of a backoff.
public struct SyncClock: Sendable {
    /// The date now: recorded in the index, and the start of each deadline.
    let now: @Sendable () -> Date
    /// Waits `seconds` (between retries, while polling a lock); throws when the task is cancelled.
    let sleep: @Sendable (TimeInterval) async throws -> Void
    /// Waits out an episode's deadline (see `Deadline`): apart from `sleep`, so a test can skip every wait
    /// between retries and still choose the moment a deadline passes.
    let timer: @Sendable (TimeInterval) async throws -> Void
    /// A random number in [0, 1) for the jitter of a backoff.
    let jitter: @Sendable () -> Double

    /// A clock of the caller's: `now` for the dates recorded, `sleep` between retries and lock polls, `timer` for
    /// deadlines (cancelled when the work ends first), `jitter` in [0, 1) for backoffs.
    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (TimeInterval) async throws -> Void,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void, jitter: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.timer = timer
        self.jitter = jitter
    }

    /// The wall clock: the system's date, `Task.sleep`, real-time deadlines, random jitter.
    public static let wall = SyncClock(
        now: { Date() }, sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9)) },
        timer: Deadline.realTime, jitter: { Double.random(in: 0..<1) })
}

/// The file system an archiver reads and writes, each effect a seam of its own.
public struct FileSystemSeams: Sendable {
    /// Reads, lists, creates folders, removes (live: `FileManager.default`).
    public var files: any FileStore
    /// Dates, sizes and extended attributes (live: `FileManager.default`).
    public var attributes: any FileAttributes
    /// Renames, links and copies (live: `FileManager.default`).
    public var mover: any FileMovement
    /// Atomic, durable replacement of small files, and appends (live: `DurableFileWriter`).
    public var writer: any AtomicFileWriting
    /// Per-show locks (live: `FlockLocker`).
    public var locker: any FileLocking
    /// Hashes files already on disk (live: `StreamingFileHasher`).
    public var hasher: any FileHashing

    /// The file system of the caller's choosing: every seam given, so a test that forgets one does not compile.
    public init(
        files: any FileStore, attributes: any FileAttributes, mover: any FileMovement, writer: any AtomicFileWriting,
        locker: any FileLocking, hasher: any FileHashing
    ) {
        self.files = files
        self.attributes = attributes
        self.mover = mover
        self.writer = writer
        self.locker = locker
        self.hasher = hasher
    }

    /// The live file system: FileManager, `writer` (durable, by default), flock and the streaming hasher.
    public static func live(
        files: any FileStore = FileManager.default, writer: any AtomicFileWriting = DurableFileWriter()
    ) -> FileSystemSeams {
        FileSystemSeams(
            files: files, attributes: FileManager.default, mover: FileManager.default, writer: writer,
            locker: FlockLocker(), hasher: StreamingFileHasher())
    }
}

/// The network an archiver reaches: feeds, and the files they list.
public struct NetworkSeams: Sendable {
    /// Fetches feeds and their pages (live: `FeedSession`, which refuses non-http(s) redirects).
    public var fetcher: any URLDataFetcher
    /// Streams episodes and companions to disk (live: `URLSessionDownloader`).
    public var downloader: any FileDownloading

    /// The network of the caller's choosing.
    public init(fetcher: any URLDataFetcher, downloader: any FileDownloading) {
        self.fetcher = fetcher
        self.downloader = downloader
    }
}
