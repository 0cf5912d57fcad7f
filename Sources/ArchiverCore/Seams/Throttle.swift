// `--limit-rate`: one bandwidth cap for every transfer of a run, as wget and curl apply theirs. Each chunk a
// transfer receives reserves its bytes against the rate; the delegate queue that received it waits until the run
// is back within the rate, and since libcurl waits while that queue is full (see URLSessionDownloader), the
// network itself slows down: nothing piles up in memory.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bandwidth cap shared by the transfers of one run.
public final class Throttle: Sendable, Equatable {
    /// The cap, in bytes a second.
    public let bytesPerSecond: Int64
    /// When the bytes reserved so far will have been paid for at the rate (seconds on `clock`).
    private let paidUntil: Locked<Double?> = Locked(nil)
    private let clock: @Sendable () -> Double
    private let pause: @Sendable (Double) -> Void
    /// The longest single pause, so that a cancelled transfer stops waiting soon.
    static let slice = 0.1

    /// A cap of `bytesPerSecond` (at least 1). `clock` reads monotonic seconds and `pause` blocks the calling
    /// thread for a number of seconds (live: the system's monotonic clock and `usleep`).
    public init(
        bytesPerSecond: Int64, clock: @escaping @Sendable () -> Double = Throttle.monotonicSeconds,
        pause: @escaping @Sendable (Double) -> Void = { usleep(useconds_t(max(0, $0) * 1e6)) }
    ) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.clock = clock
        self.pause = pause
    }

    /// One cap is equal only to itself.
    public static func == (lhs: Throttle, rhs: Throttle) -> Bool { lhs === rhs }

    /// Reserves `bytes` and returns how long the caller must wait before reading more. Time the run spent
    /// under the rate is not saved up: a pause is never followed by a burst.
    func reserve(_ bytes: Int) -> Double {
        paidUntil.withLock { paidUntil in
            let now = clock()
            let start = max(paidUntil ?? now, now)
            let paid = start + Double(bytes) / Double(bytesPerSecond)
            paidUntil = paid
            return paid - now
        }
    }

    /// Reserves `bytes` and blocks the calling thread until the run is back within the rate, or until `stop`
    /// says the transfer was cancelled (checked at least every `slice` seconds).
    public func wait(for bytes: Int, stop: () -> Bool = { false }) {
        var remaining = reserve(bytes)
        while remaining > 0, !stop() {
            let step = min(remaining, Self.slice)
            pause(step)
            remaining -= step
        }
    }

    /// The system's monotonic clock, in seconds.
    @Sendable public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
