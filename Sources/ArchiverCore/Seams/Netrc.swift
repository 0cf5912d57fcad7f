// A `.netrc` file, read as curl and wget read it: `machine NAME login USER password PW` entries and a
// `default` entry, tokens separated by any white space, values optionally in double quotes (with `\"`, `\\`,
// `\n` escapes), `account` ignored, `macdef` skipped to the next blank line.
import Foundation

/// The logins of a `.netrc` file, by host.
public struct Netrc: Sendable, Equatable {
    /// One entry's login.
    public struct Login: Sendable, Equatable {
        /// The user name.
        public var user: String
        /// The password; nil when the entry gives none.
        public var password: String?

        /// A login.
        public init(user: String, password: String?) {
            self.user = user
            self.password = password
        }
    }

    private var machines: [String: Login] = [:]
    private var defaultLogin: Login?

    /// Reads a `.netrc` file's text. The first entry for a host wins, as in curl; text that is not an entry is
    /// skipped.
    public init(parsing text: String) {
        var tokens = NetrcTokens(text)
        var current: (host: String?, login: Login)?
        func close() {
            guard let entry = current else { return }
            if let host = entry.host {
                if machines[host] == nil { machines[host] = entry.login }
            } else if defaultLogin == nil {
                defaultLogin = entry.login
            }
            current = nil
        }
        while let token = tokens.next() {
            switch token {
            case "machine":
                close()
                guard let host = tokens.next() else { break }
                current = (host.lowercased(), Login(user: "", password: nil))
            case "default":
                close()
                current = (nil, Login(user: "", password: nil))
            case "login":
                if let value = tokens.next() { current?.login.user = value }
            case "password":
                if let value = tokens.next() { current?.login.password = value }
            case "account":
                _ = tokens.next()
            case "macdef":
                close()
                tokens.skipMacro()
            default:
                continue
            }
        }
        close()
    }

    /// The login for `host` (any case), else the `default` entry's; nil when neither names a user. (A request
    /// takes the `default` entry only for the subscription's own origin: see `RequestProfile`.)
    public func login(forHost host: String) -> Login? {
        machine(forHost: host) ?? fallback
    }

    /// The login of the `machine` entry for `host` (any case); nil when none names a user.
    public func machine(forHost host: String) -> Login? {
        machines[host.lowercased()].flatMap { $0.user.isEmpty ? nil : $0 }
    }

    /// The `default` entry's login; nil when there is none or it names no user.
    public var fallback: Login? {
        defaultLogin.flatMap { $0.user.isEmpty ? nil : $0 }
    }

    /// True when the file gave no login at all.
    public var isEmpty: Bool { machines.isEmpty && defaultLogin == nil }
}

/// The tokens of a `.netrc` text.
private struct NetrcTokens {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    mutating func next() -> String? {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return nil }
        var token: [UInt8] = []
        if bytes[position] == UInt8(ascii: "\"") {
            position += 1
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                var byte = bytes[position]
                if byte == UInt8(ascii: "\\"), position + 1 < bytes.count {
                    position += 1
                    byte = bytes[position]
                    if byte == UInt8(ascii: "n") { byte = UInt8(ascii: "\n") }
                    if byte == UInt8(ascii: "r") { byte = UInt8(ascii: "\r") }
                    if byte == UInt8(ascii: "t") { byte = UInt8(ascii: "\t") }
                }
                token.append(byte)
                position += 1
            }
            position += 1
        } else {
            while position < bytes.count, !Self.isSpace(bytes[position]) {
                token.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: token, as: UTF8.self)
    }

    /// Skips a macro definition: its name line, then everything up to a blank line.
    mutating func skipMacro() {
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
        while position < bytes.count {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "\n") { return }
            while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
        }
    }
}

/// A `.netrc` file a sync reads its logins from.
public struct NetrcChoice: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// True when it was asked for by name: a file that cannot be read is then an error, not "no logins".
    public var required: Bool

    /// A `.netrc` file to read.
    public init(path: String, required: Bool) {
        self.path = path
        self.required = required
    }
}

/// A `.netrc` file that was asked for and cannot be read.
public struct NetrcError: Error, Equatable, Sendable, LocalizedError {
    /// The file's path.
    public var path: String
    /// Why it cannot be read.
    public var reason: String

    /// One line naming the file and the problem.
    public var errorDescription: String? { "netrc file \(path) cannot be read: \(reason)" }
}
