// A loopback port where nothing listens, held for the test: a socket bound to it but never listening, so a
// connection is refused (Linux and macOS answer with a reset) and no other process can take the port meanwhile.
import Foundation

#if canImport(Glibc)
    import Glibc
    private let sockStream = Int32(SOCK_STREAM.rawValue)
    private func closeSocket(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
#elseif canImport(Darwin)
    import Darwin
    private let sockStream = SOCK_STREAM
    private func closeSocket(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
#endif

/// A port on 127.0.0.1 that refuses connections until `close()` (or deinit).
public final class RefusingPort: @unchecked Sendable {
    public let port: UInt16
    private var descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, sockStream, 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            closeSocket(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        port = UInt16(bigEndian: address.sin_port)
        self.descriptor = descriptor
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
