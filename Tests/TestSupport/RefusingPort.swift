// A loopback port where nothing listens, held for the test: a socket bound to it but never listening, so a
// connection is refused (Linux and macOS answer with a reset) and no other process can take the port meanwhile.
import Foundation

#if canImport(Glibc)
    import Glibc
    private func closeSocket(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
#elseif canImport(Darwin)
    import Darwin
    private func closeSocket(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
#endif

/// A port on 127.0.0.1 that refuses connections until `close()` (or deinit).
public final class RefusingPort: @unchecked Sendable {
    public let port: UInt16
    private var descriptor: Int32

    public init() throws {
        (descriptor, port) = try LoopbackSocket.bound()
    }

    deinit { close() }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    public func close() {
        guard descriptor >= 0 else { return }
        closeSocket(descriptor)
        descriptor = -1
    }
}
