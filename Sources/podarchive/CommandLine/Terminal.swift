// Where the command line writes and what it knows of its environment; injected so tests can capture it.
import Foundation

/// A text sink such as standard output.
protocol TextOutput: Sendable {
    func write(_ text: String)
}

/// Standard output or standard error, written unbuffered line by line.
struct StandardStream: TextOutput {
    let descriptor: Int32

    static let output = StandardStream(descriptor: 1)
    static let error = StandardStream(descriptor: 2)

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
        bytes.removeAll()
    }
}

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// The process environment the command line depends on.
struct ProcessEnvironment: Sendable {
    var variables: [String: String]
    var currentDirectory: String

    static var live: ProcessEnvironment {
        ProcessEnvironment(
            variables: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }
}
