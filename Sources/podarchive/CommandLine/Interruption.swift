// Ctrl-C and `systemctl stop` end a run cleanly: the running command is cancelled, says what it kept, releases
// its locks and exits 130 (SIGINT) or 143 (SIGTERM). A second signal, or a stop that takes too long, exits at
// once: the kernel releases flock locks with the process, and the crash-safety promise covers the rest.
import ArchiverCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum Interruption {
    /// How long a cancelled run gets to stop by itself before the process exits anyway.
    static let grace: TimeInterval = 10

    /// Runs `body`, cancelling it on SIGINT or SIGTERM; returns its exit code, or the signal's.
    static func run(
        errors: any TextOutput, _ body: @escaping @Sendable () async -> ExitCode
    ) async -> ExitCode {
        let caught = CaughtSignal()
        let work = Task { await body() }
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard caught.record(number) else { exit(128 + number) }
                work.cancel()
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    errors.write("podarchive: interrupted, and still stopping after \(Int(grace)) s: exiting now\n")
                    exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        let code = await work.value
        for source in sources { source.cancel() }
        switch caught.number {
        case SIGINT: return .interrupted
        case SIGTERM: return .terminated
        default: return code
        }
    }
}

/// The first stop signal received.
private final class CaughtSignal: Sendable {
    private let stored: Locked<Int32?> = Locked(nil)

    var number: Int32? { stored.current }

    /// True for the first signal.
    func record(_ signal: Int32) -> Bool {
        stored.withLock { stored in
            guard stored == nil else { return false }
            stored = signal
            return true
        }
    }
}
