// `export --warc`: the archive as one WARC 1.1 file (ISO 28500), the format the web archives take. Written under a
// temporary name in the export's folder, synced and renamed into place: a failure part-way leaves nothing under
// the export's name (and removes the temporary file).
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// open(2), out of the way of `ShowOpener.open`.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// What an export wrote.
public struct ExportReport: Equatable, Sendable {
    /// Shows exported.
    public var shows = 0
    /// Records by kind: episodes, companions (transcripts, chapters), artwork, feed revisions, sidecars.
    public var episodes = 0, companions = 0, artwork = 0, feedRevisions = 0, metadata = 0
    /// Every record, the warcinfo included.
    public var records = 0
    /// The export's size in bytes.
    public var bytes: Int64 = 0
    /// Files of private shows left out because they hold one of the show's secrets (`Show/file`).
    public var withheld: [String] = []
    /// Episodes left out because their files are away on purpose (see `AwayRecord`), by state.
    public var away: [AwayRecord.State: Int] = [:]
}

/// How far an export has got: records written of all, and bytes of archived files copied of all.
public struct ExportProgress: Equatable, Sendable {
    /// Records written so far, and in all.
    public var records: Int, totalRecords: Int
    /// Bytes of archived files copied so far, and in all.
    public var bytes: Int64, totalBytes: Int64
}

/// How an export reads and names its records; the defaults are the live ones.
public struct ExportOptions: Sendable {
    /// When the export is made (the warcinfo record's date).
    public var date = Date()
    /// Each record's UUID: a random (version 4) one (see `RecordIDs`).
    public var makeID: @Sendable () -> UUID = RecordIDs.random()
    /// How archived files are read.
    public var reader: any ChunkedFileReading = POSIXChunkedFileReader()
    /// Whether to stop (asked before each chunk); by default, whether the running task was cancelled.
    public var cancelled: @Sendable () -> Bool = { Task.isCancelled }
    /// The most bytes read from a file at once (memory stays at about this much whatever the files' sizes).
    public var chunkSize = 1 << 20

    /// The live options, made at `date`.
    public init(date: Date = Date()) { self.date = date }
}

/// `export --warc`.
struct WARCExport: Sendable {
    /// The show folders of a root.
    let verifier: Verifier
    /// Each show's index.
    let indexes: IndexStore
    /// What each show's folder holds.
    let files: any FileStore
    let attributes: any FileAttributes
    let contents: FolderContents

    /// Writes the shows in `shows` (every show of `root` when nil) to `file` as WARC 1.1, each record a gzip
    /// member of its own when the name ends in `.gz`. A companion of one of `privateShows` (folder names) that
    /// holds a secret the process knows is left out (`ExportReport.withheld`).
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; the error of an index that cannot be read;
    ///   `ExportError` when a file cannot be read or the export cannot be written (nothing is then left under
    ///   `file`'s name), or `file` is inside the root's state folder or a show's folder.
    func exportWARC(
        _ root: URL, shows: [URL]? = nil, to file: URL, options: ExportOptions = ExportOptions(),
        privateShows: Set<String> = [],
        progress: (ExportProgress) -> Void = { _ in }
    ) throws -> ExportReport {
        var folderList: [URL] = []
        for folder in try shows ?? verifier.feedFolders(in: root)
        where !folderList.map(\.standardizedFileURL).contains(folder.standardizedFileURL) {
            folderList.append(folder)
        }
        // Never into the archive's state or where it could replace an archived file (any show's folder, at any
        // depth, links resolved), and before anything there is swept.
        try ExportTarget.check(
            file, root: root,
            shows: ExportTarget.showFolders(of: root, files: files, attributes: attributes) + folderList)
        var report = ExportReport()
        var items: [ExportItem] = []
        let planner = ExportPlanner(files: files, attributes: attributes, contents: contents)
        // A private show's companion that holds one of its secrets is left out (see `SecretHolders`).
        let holders = SecretHolders(privateShows: privateShows, files: files)
        for folder in folderList {
            guard var index = try indexes.loadIndex(at: ShowState(folder: folder).index) else {
                throw ArchiveError.noArchive(at: folder, attributes: attributes)
            }
            // Only a private show's companions are searched (a folder's name asked once, not for each episode).
            let isPrivate = privateShows.contains(folder.lastPathComponent)
            for entry in index.episodes where isPrivate {
                let held = holders.companions(of: entry, in: folder)
                guard !held.isEmpty else { continue }
                var kept = entry
                kept.companions?.removeAll { held.contains($0.file) }
                index.update(kept)
                report.withheld += held.sorted().map { folder.lastPathComponent + "/" + $0 }
            }
            items += planner.items(of: folder, index: index)
            for entry in index.episodes { if let away = entry.away { report.away[away.state, default: 0] += 1 } }
            report.shows += 1
        }
        // What a killed export left in this folder goes first (see `TemporaryFiles`): the temporary files of this
        // one's name, and any a podarchive of this host that has ended named as its own (an export from cron to a
        // dated name each night never writes the same name twice). Nothing else there is the export's to touch.
        let folder = file.deletingLastPathComponent()
        let leftovers = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            ArchiveLayout.isTemporary($0, of: file.lastPathComponent) || TemporaryFiles.namesItsOwner($0)
        }
        TemporaryFiles.sweep(leftovers, in: folder, files: files)
        let temporary = folder.appendingPathComponent(TemporaryFiles.name(for: file.lastPathComponent))
        let descriptor = openFile(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            throw ExportError.cannotWrite(path: file.path, reason: String(cString: strerror(errno)))
        }
        do {
            defer { close(descriptor) }
            let totalBytes = items.reduce(Int64(0)) { $0 + $1.size }
            var state = ExportProgress(records: 0, totalRecords: items.count + 1, bytes: 0, totalBytes: totalBytes)
            let writer = WARCWriter(
                descriptor: descriptor, target: file.path, gzip: file.pathExtension.lowercased() == "gz",
                reader: options.reader, chunkSize: options.chunkSize, cancelled: options.cancelled)
            let info = try writer.write(
                Self.warcinfo(file: file, options: options, shows: report.shows), block: .bytes(Self.infoFields()),
                type: .warcinfo)
            let infoID = info.value("WARC-Record-ID") ?? ""
            state.records = 1
            var lastEpisodeID = ""
            // Each block is opened, read and hashed a few records ahead, on a thread of its own.
            let ahead = BlockPrefetcher(
                items.map { Self.block($0.source) }, reader: options.reader, chunkSize: options.chunkSize,
                target: file.path)
            defer { ahead.stop() }
            for item in items {
                if options.cancelled() { throw ExportError.interrupted(path: file.path) }
                let type: WARCRecordType = item.kind == .metadata ? .metadata : .resource
                var header = WARCRecordHeader(
                    type: type, id: WARCValues.recordID(options.makeID()), date: item.date)
                header.add("WARC-Target-URI", item.uri)
                if item.kind == .metadata { header.add("WARC-Refers-To", lastEpisodeID) }
                header.add("WARC-Warcinfo-ID", infoID)
                header.add("Content-Type", item.contentType)
                let before = state.bytes
                let written = try writer.write(header, read: ahead.next(cancelled: options.cancelled), type: type) {
                    copied in
                    state.bytes = before + copied
                    progress(state)
                }
                if item.kind == .episode { lastEpisodeID = written.value("WARC-Record-ID") ?? "" }
                report.count(item.kind)
                state.records += 1
                state.bytes = before + item.size
                progress(state)
            }
            try writer.finish()
            report.records = items.count + 1
            report.bytes = writer.written
            guard fsync(descriptor) == 0 else {
                throw ExportError.cannotWrite(path: file.path, reason: String(cString: strerror(errno)))
            }
            guard rename(temporary.path, file.path) == 0 else {
                throw ExportError.cannotWrite(path: file.path, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        let folderDescriptor = openFile(file.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        return report
    }

    /// The block of an item: an archived file as it is, or a revision of the feed expanded as it is read.
    private static func block(_ source: ExportItem.Source) -> WARCBlock {
        switch source {
        case .file(let path): return .file(path)
        case .gzipped(let path): return .gzipped(path)
        }
    }

    private static func warcinfo(file: URL, options: ExportOptions, shows: Int) -> WARCRecordHeader {
        var header = WARCRecordHeader(
            type: .warcinfo, id: WARCValues.recordID(options.makeID()), date: WARCValues.date(options.date))
        header.add("WARC-Filename", file.lastPathComponent)
        header.add("Content-Type", "application/warc-fields")
        return header
    }

    /// The warcinfo record's fields: what wrote the file and what it holds.
    static func infoFields() -> [UInt8] {
        let fields = [
            ("software", "podarchive/\(PodarchiveVersion.current)"),
            ("format", "WARC File Format 1.1"),
            ("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"),
            (
                "description",
                "A podcast archive: each episode, transcript, chapters and artwork file as fetched (resource records), "
                    + "each episode's metadata (metadata records) and every kept revision of each feed; URLs with "
                    + "their logins and tokens redacted, as the archive keeps them"
            ),
        ]
        return Array(fields.map { "\($0.0): \($0.1)\r\n" }.joined().utf8)
    }
}

extension ExportReport {
    fileprivate mutating func count(_ kind: ExportItem.Kind) {
        switch kind {
        case .episode: episodes += 1
        case .companion: companions += 1
        case .artwork: artwork += 1
        case .feed: feedRevisions += 1
        case .metadata: metadata += 1
        }
    }
}

/// The record IDs of one export: random version 4 UUIDs, from 128 bits of the system's generator drawn once and a
/// SplitMix64 stream after them. Foundation's `UUID()` opens, reads and closes /dev/urandom for each, three calls a
/// record; an ID has to be unique, not secret.
enum RecordIDs {
    /// A source of IDs, seeded now.
    static func random() -> @Sendable () -> UUID {
        var system = SystemRandomNumberGenerator()
        let state = Locked((system.next() as UInt64, system.next() as UInt64))
        return {
            var bytes = state.withLock { seeds -> (UInt64, UInt64) in
                seeds.0 &+= 0x9E37_79B9_7F4A_7C15
                seeds.1 &+= 0xBF58_476D_1CE4_E5B9
                return (mix(seeds.0), mix(seeds.1))
            }
            return withUnsafeMutableBytes(of: &bytes) { raw in
                raw[6] = raw[6] & 0x0F | 0x40  // version 4
                raw[8] = raw[8] & 0x3F | 0x80  // RFC 4122 variant
                return UUID(uuid: raw.load(as: uuid_t.self))
            }
        }
    }

    /// SplitMix64's output function.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
