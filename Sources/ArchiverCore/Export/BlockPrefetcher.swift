// The first reading of an export's blocks (open, read, SHA-1), on a thread of its own a few records ahead of the
// writer: the hashing of one file and the writing of the one before it take turns on two processors instead of
// one. What is read ahead is bounded (records and bytes), and every wait on either side ends: the reader waits only
// while it is ahead and the writer has not stopped it; the writer waits only while the reader is still reading;
// `stop` waits only for the reader to see that it is stopped.
import Foundation

/// Reads blocks in order ahead of their writing.
final class BlockPrefetcher: Sendable {
    private struct State {
        /// Blocks read and not handed on yet, in order.
        var ready: [Result<ReadBlock, Error>] = []
        /// The bytes `ready` holds.
        var readyBytes = 0
        var stopped = false, finished = false, joined = false
        /// Whether a side waits for the other. A waiting side is woken when a batch is there for it (blocks read,
        /// or room for them), not for each block: each wake-up is a switch between threads.
        var readerWaits = false, writerWaits = false
    }

    private let state = Locked(State())
    private let wakeReader = DispatchSemaphore(value: 0)
    private let wakeWriter = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    /// The most blocks, and the most bytes of them, read ahead; how many make a batch.
    private let aheadBlocks = 64, batch = 16
    private let aheadBytes: Int
    /// The export's name, for messages.
    private let target: String

    /// Starts reading `blocks` in order through `reader`, in chunks of `chunkSize`; `target` names the export.
    init(_ blocks: [WARCBlock], reader: any ChunkedFileReading, chunkSize: Int, target: String) {
        aheadBytes = max(2 * chunkSize, 1 << 20)
        self.target = target
        let thread = Thread { [self] in
            run(blocks, BlockReader(reader: reader, chunkSize: chunkSize, target: target) { [self] in isStopped })
        }
        thread.name = "podarchive export reader"
        thread.start()
    }

    /// The next block, once it is read; `cancelled` is asked while it waits (a large file is read through before
    /// it is handed on: a stop asked for meanwhile is seen within a tenth of a second).
    /// - Throws: the error its reading met (`ExportError`); `ExportError.interrupted` when `cancelled` says so,
    ///   after `stop`, or past the last block.
    func next(cancelled: () -> Bool = { false }) throws -> ReadBlock {
        while true {
            enum Step {
                case block(Result<ReadBlock, Error>, wake: Bool)
                case end, wait
            }
            let step = state.withLock { state -> Step in
                guard !state.ready.isEmpty else {
                    if state.finished { return .end }
                    state.writerWaits = true
                    return .wait
                }
                let block = state.ready.removeFirst()
                if case .success(let read) = block, case .bytes(let bytes) = read.body {
                    state.readyBytes -= bytes.count
                }
                let wake =
                    state.readerWaits && state.ready.count <= aheadBlocks - batch && state.readyBytes < aheadBytes / 2
                if wake { state.readerWaits = false }
                return .block(block, wake: wake)
            }
            switch step {
            case .block(let block, let wake):
                if wake { wakeReader.signal() }
                return try block.get()
            case .end: throw ExportError.interrupted(path: target)
            case .wait:
                if wakeWriter.wait(timeout: .now() + .milliseconds(100)) == .timedOut, cancelled() {
                    throw ExportError.interrupted(path: target)
                }
            }
        }
    }

    /// Stops the reading and waits for its thread to end; what was read ahead is let go (its files closed).
    func stop() {
        let (wake, join) = state.withLock { state -> (Bool, Bool) in
            state.stopped = true
            let wake = state.readerWaits
            state.readerWaits = false
            defer { state.joined = true }
            return (wake, !state.joined)
        }
        if wake { wakeReader.signal() }
        if join { ended.wait() }
        state.withLock { $0.ready.removeAll() }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run(_ blocks: [WARCBlock], _ reader: BlockReader) {
        defer { ended.signal() }
        for block in blocks {
            let go = state.withLock { state -> Bool? in
                if state.stopped { return false }
                guard state.ready.count >= aheadBlocks || state.readyBytes >= aheadBytes else { return true }
                state.readerWaits = true
                return nil
            }
            if go == nil {
                wakeReader.wait()
                guard !isStopped else { break }
            } else if go == false {
                break
            }
            let result = Result { try reader.read(block) }
            let failed = (try? result.get()) == nil
            let wake = state.withLock { state -> Bool in
                if case .success(let read) = result, case .bytes(let bytes) = read.body {
                    state.readyBytes += bytes.count
                }
                state.ready.append(result)
                let wake =
                    state.writerWaits && (state.ready.count >= batch || state.readyBytes >= aheadBytes / 2 || failed)
                if wake { state.writerWaits = false }
                return wake
            }
            if wake { wakeWriter.signal() }
            if failed { break }
        }
        let wake = state.withLock { state -> Bool in
            state.finished = true
            defer { state.writerWaits = false }
            return state.writerWaits
        }
        if wake { wakeWriter.signal() }
    }
}
