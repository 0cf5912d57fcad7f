// What a hook prints, captured: its standard output and error share one pipe that a thread of podarchive reads while
// the hook runs (a full pipe would stop the hook), keeping only the last `limit` bytes, so a hook that prints without
// end costs no memory. The read has a way out: a hook that leaves a child running with the pipe open does not keep
// the run waiting; once the hook has ended, the reader stops at the first quiet moment or after `drainLimit` more.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One hook run's output pipe and its reader.
final class HookOutput: Sendable {
    /// The most of a hook's output kept (its end: where a failure is said).
    static let limit = 32 * 1024
    /// The most read once the hook has ended (from a child it left running that still writes).
    static let drainLimit = 1024 * 1024
    /// How long (milliseconds) the reader waits for more once the hook has ended before it stops.
    static let quietMilliseconds: Int32 = 100

    private struct State {
        var kept: [UInt8] = []
        var dropped = 0
        var ended = false
    }

    private let readEnd: Int32
    /// The end the hook writes to (its descriptors 1 and 2); podarchive closes its own copy once the hook started.
    let writeEnd: Int32
    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    /// A pipe whose two ends are closed on exec (the hook gets its write end by `dup2`); nil when none can be made.
    init?() {
        var ends: [Int32] = [-1, -1]
        // Swift's Glibc does not import pipe2: close-on-exec is set just after, and a hook spawned in between by
        // another show's sync gets neither end anyway (the spawn closes every descriptor above 2).
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Closes both ends: the hook never started.
    func abandon() {
        close(readEnd)
        close(writeEnd)
    }

    /// Closes podarchive's copy of the write end and reads on a thread of its own until `finish`.
    func startReading() {
        close(writeEnd)
        Thread.detachNewThread { [self] in
            readUntilTheEnd()
            close(readEnd)
            done.signal()
        }
    }

    /// Once the hook has ended: waits for the reader (which ends at the pipe's end, at the first quiet moment, or
    /// after `drainLimit` bytes more) and gives what was kept, saying how much of the start was left out.
    func finish() -> String {
        state.withLock { $0.ended = true }
        done.wait()
        return state.withLock { now in
            let text = String(decoding: now.kept, as: UTF8.self)
            guard now.dropped > 0 else { return text }
            return "(\(now.dropped) bytes before these not kept)\n" + text
        }
    }

    private func readUntilTheEnd() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        while true {
            var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let answer = poll(&ready, 1, Self.quietMilliseconds)
            if answer < 0 {
                if errno == EINTR { continue }
                return
            }
            let ended = state.withLock { $0.ended }
            if answer == 0 {
                if ended { return }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            if count == 0 { return }
            if ended {
                drained += count
                if drained > Self.drainLimit { return }
            }
            state.withLock { now in
                now.kept.append(contentsOf: buffer[0..<count])
                if now.kept.count > Self.limit {
                    let excess = now.kept.count - Self.limit
                    now.kept.removeFirst(excess)
                    now.dropped += excess
                }
            }
        }
    }
}
