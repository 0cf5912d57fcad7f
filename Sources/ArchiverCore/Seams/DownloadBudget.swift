// What every show of one run shares: how many downloads may run at once in all, how many requests of any kind
// (feeds, their pages, companions, artwork, episodes) may go to any one host at once, and the bytes the downloads in
// flight have yet to write, so that a new one starts only when the disk can hold it as well as theirs. Each wait
// here ends: when a slot or space is given back, or when the waiting task is cancelled.
import Foundation

/// The requests of one run, across shows: caps on downloads in all and on requests to one host, and the disk
/// space downloads have claimed.
public final class DownloadBudget: @unchecked Sendable, Equatable {
    // Safe to share: every variable below is read and written only under `lock`, and a waiter is woken (its
    // OneShot delivered) after the lock is let go.
    private let lock = NSLock()
    private let total: Int
    private let perHost: Int
    /// Downloads running now (what `total` caps).
    private var running = 0
    /// Requests of every kind running now, by host (what `perHost` caps).
    private var runningByHost: [String: Int] = [:]
    /// Tasks waiting for a slot, oldest first; each is handed its slot (or its cancellation) through a OneShot.
    private var slotWaiters: [(id: Int, host: String, kind: Kind, waiter: OneShot<Void>)] = []
    /// Tasks waiting for space to be given back.
    private var spaceWaiters: [Int: OneShot<Void>] = [:]
    /// Bytes each download in flight expects to write in all, and has written.
    private var claims: [Int: (needed: Int64, written: Int64)] = [:]
    private var nextID = 0

    /// What a slot is for.
    enum Kind: Sendable {
        /// A file downloaded (an episode, a companion, artwork): counted in all and against its host.
        case download
        /// Any other request (a feed, a page of it): counted against its host only.
        case request
    }

    /// At most `total` downloads at once, and at most `perHost` requests of any kind to one host.
    public init(total: Int, perHost: Int) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
    }

    /// A run's budget: at most `jobs` downloads at once, and at most `requestsPerHost` requests of any kind to one
    /// host (feeds, pages, companions, artwork and episodes together) whatever the jobs.
    public convenience init(jobs: Int) {
        self.init(total: jobs, perHost: Self.requestsPerHost)
    }

    /// The most requests podarchive sends one host at once: hosts throttle or block clients that open more.
    public static let requestsPerHost = 4

    /// One budget is equal only to itself.
    public static func == (lhs: DownloadBudget, rhs: DownloadBudget) -> Bool { lhs === rhs }

    // MARK: - Slots

    /// Waits for a slot for a request of `kind` to `host`; the caller gives it back with `release(host:kind:)`.
    /// The wait ends when a slot is given back (every slot is held by one request, which its deadline bounds) or
    /// when the task is cancelled.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func acquire(host: String, kind: Kind = .download) async throws {
        let host = host.lowercased()
        let waiter = OneShot<Void>()
        let id = lock.withLock { () -> Int? in
            // Every waiter that fits was handed a slot when one was given back: a slot free now is one no waiter
            // can use (its host is at its cap), so a newcomer that fits takes it.
            if fits(host, kind) {
                take(host, kind)
                return nil
            }
            nextID += 1
            slotWaiters.append((nextID, host, kind, waiter))
            return nextID
        }
        guard let id else { return }
        // Listed before the handler is installed: a cancellation, however early, finds the waiter and ends it.
        try await withTaskCancellationHandler {
            try await waiter.value()
        } onCancel: {
            dropSlotWaiter(id)?.deliver(.failure(CancellationError()))
        }
        // Granted as the task was being cancelled: give the slot back rather than keep it.
        if Task.isCancelled {
            release(host: host, kind: kind)
            throw CancellationError()
        }
    }

    private func dropSlotWaiter(_ id: Int) -> OneShot<Void>? {
        lock.withLock {
            guard let position = slotWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return slotWaiters.remove(at: position).waiter
        }
    }

    /// Waits for a slot for a request of `kind` to `host` (see `acquire(host:kind:)`), held until the `Slot` is
    /// released.
    func slot(host: String, kind: Kind = .download) async throws -> Slot {
        try await acquire(host: host, kind: kind)
        return Slot(budget: self, host: host, kind: kind)
    }

    /// A slot of the budget, given back by the first `release()`; later calls do nothing. A download gives it back
    /// as soon as its transfer ends, and its attempt gives it back in any case when it ends.
    final class Slot: Sendable {
        /// The budget until the slot is given back.
        private let budget: Locked<DownloadBudget?>
        private let host: String
        private let kind: Kind

        fileprivate init(budget: DownloadBudget, host: String, kind: Kind) {
            self.budget = Locked(budget)
            self.host = host
            self.kind = kind
        }

        func release() {
            let budget = self.budget.withLock { budget -> DownloadBudget? in
                defer { budget = nil }
                return budget
            }
            budget?.release(host: host, kind: kind)
        }
    }

    /// Gives back a slot taken by `acquire(host:kind:)`, and hands slots on to the oldest waiters they fit.
    func release(host: String, kind: Kind = .download) {
        let host = host.lowercased()
        let woken = lock.withLock { () -> [OneShot<Void>] in
            if kind == .download { running -= 1 }
            runningByHost[host, default: 1] -= 1
            if runningByHost[host] == 0 { runningByHost[host] = nil }
            var woken: [OneShot<Void>] = []
            var position = 0
            while position < slotWaiters.count {
                let waiter = slotWaiters[position]
                if fits(waiter.host, waiter.kind) {
                    slotWaiters.remove(at: position)
                    take(waiter.host, waiter.kind)
                    woken.append(waiter.waiter)
                } else {
                    position += 1
                }
            }
            return woken
        }
        for waiter in woken { waiter.deliver(.success(())) }
    }

    /// Downloads running now, and tasks waiting for a slot (for tests and progress).
    var inFlight: Int { lock.withLock { running } }
    var waiting: Int { lock.withLock { slotWaiters.count } }

    /// Requests of every kind running now to `host` (for tests).
    func inFlight(to host: String) -> Int { lock.withLock { runningByHost[host.lowercased(), default: 0] } }

    private func fits(_ host: String, _ kind: Kind) -> Bool {
        (kind == .request || running < total) && runningByHost[host, default: 0] < perHost
    }

    private func take(_ host: String, _ kind: Kind) {
        if kind == .download { running += 1 }
        runningByHost[host, default: 0] += 1
    }

    // MARK: - Disk space

    /// What a download may do with the disk it found.
    enum SpaceDecision: Equatable {
        /// It fits beside the downloads in flight; the claim must be given back with `endClaim`.
        case claimed(Int)
        /// It would fit if the downloads in flight were done: wait for `spaceReturned()` and try again.
        case wait
        /// It does not fit even alone.
        case refused
    }

    /// Claims `needed` bytes on a disk with `free` bytes free, beside what the downloads in flight have yet to write.
    func claim(_ needed: Int64, free: Int64) -> SpaceDecision {
        claim(needed, free: { free }) ?? .claimed(0)
    }

    /// Claims `needed` bytes, asking the disk for its free space under the budget's lock: a download reports
    /// bytes only once they are on disk, so the free space read here never counts them twice. Nil when the disk
    /// does not say (the download is then not held back).
    func claim(_ needed: Int64, free readFree: () -> Int64?) -> SpaceDecision? {
        lock.withLock {
            guard let free = readFree() else { return nil }
            let outstanding = claims.values.reduce(Int64(0)) { $0 + max(0, $1.needed - $1.written) }
            guard free - outstanding < needed else {
                nextID += 1
                claims[nextID] = (needed, 0)
                return .claimed(nextID)
            }
            return free >= needed && outstanding > 0 ? .wait : .refused
        }
    }

    /// Bytes the claim's download has written so far (they are in the disk's free space already).
    func wrote(_ bytes: Int64, claim: Int) {
        lock.withLock { claims[claim]?.written = bytes }
    }

    /// Ends a claim (the download finished or failed), waking tasks waiting for space.
    func endClaim(_ claim: Int) {
        let woken = lock.withLock { () -> [OneShot<Void>] in
            claims.removeValue(forKey: claim)
            defer { spaceWaiters.removeAll() }
            return Array(spaceWaiters.values)
        }
        for waiter in woken { waiter.deliver(.success(())) }
    }

    /// Waits until a claim ends (or none is left); throws `CancellationError` when the task is cancelled first.
    func spaceReturned() async throws {
        let waiter = OneShot<Void>()
        let id = lock.withLock { () -> Int? in
            if claims.isEmpty { return nil }
            nextID += 1
            spaceWaiters[nextID] = waiter
            return nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await waiter.value()
        } onCancel: {
            lock.withLock { spaceWaiters.removeValue(forKey: id) }?.deliver(.failure(CancellationError()))
        }
    }
}

/// One attempt's claim on the disk: made by its admission (on the delegate queue) once the size is known, kept
/// up to date as bytes arrive, ended when the attempt ends, however it ends.
final class SpaceClaim: Sendable {
    /// The download fits only once others in flight are done.
    struct Wait: Error {}

    private let budget: DownloadBudget?
    /// The claim held, by its number in the budget.
    private let id = Locked<Int?>(nil)

    init(budget: DownloadBudget?) {
        self.budget = budget
    }

    /// Claims `needed` bytes of the disk whose free space `readFree` tells (nil: it does not say, and nothing is
    /// held back). Without a budget, only this download counts.
    func claim(_ needed: Int64, free readFree: () -> Int64?) -> DownloadBudget.SpaceDecision? {
        guard let budget else {
            guard let free = readFree() else { return nil }
            return free >= needed ? .claimed(0) : .refused
        }
        end()
        let decision = budget.claim(needed, free: readFree)
        if case .claimed(let claimed) = decision { id.set(claimed) }
        return decision
    }

    /// Bytes written by this attempt so far.
    func wrote(_ bytes: Int64) {
        guard let budget, let id = id.current else { return }
        budget.wrote(bytes, claim: id)
    }

    /// Gives the claim back (safe to call more than once).
    func end() {
        guard let budget,
            let id = id.withLock({ id -> Int? in
                defer { id = nil }
                return id
            })
        else { return }
        budget.endClaim(id)
    }
}
