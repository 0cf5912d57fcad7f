// A TCP socket bound to a free port on 127.0.0.1: listening for the test server, or never listening for a port
// that refuses connections.
import Foundation

#if canImport(Glibc)
    import Glibc
    private let sockStream = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let sockStream = SOCK_STREAM
#endif

enum LoopbackSocket {
    /// A socket bound to `host` (127.0.0.1, or another loopback address such as 127.0.0.2) on a port the system chose, and that port; listening with `backlog` when
    /// given. The caller closes the descriptor.
    static func bound(listening backlog: Int32? = nil, address host: String = "127.0.0.1") throws -> (
        descriptor: Int32, port: UInt16
    ) {
        precondition(host.hasPrefix("127."), "tests bind loopback addresses only")
        let descriptor = socket(AF_INET, sockStream, 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if backlog != nil {
            // A listening server's port is free again at once after a test; a port held only to refuse
            // connections is not shared (on Linux, SO_REUSEADDR would let another such socket bind it).
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, backlog.map({ listen(descriptor, $0) == 0 }) ?? true else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
