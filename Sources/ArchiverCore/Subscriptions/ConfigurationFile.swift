// The configuration file, `config` in the configuration folder: defaults for every run, one `key = value` a line.
// This reads its lines (comments, blank lines, `~`, quotes); which keys there are and what each value must be is
// the caller's (the options a command line takes).
import Foundation

/// The lines of a configuration file, read but not yet judged.
public struct ConfigurationFile: Equatable, Sendable {
    /// One `key = value` line (a `#` after a space starts a comment, as does one at the start of a line).
    public struct Entry: Equatable, Sendable {
        /// The key, as written (`jobs`).
        public var key: String
        /// The value: trimmed, a comment after it and one pair of quotes around it taken off, a leading `~/` made
        /// the home folder.
        public var value: String
        /// Its line number, from 1.
        public var line: Int

        /// An entry.
        public init(key: String, value: String, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }

    /// The file's name in the configuration folder.
    public static let fileName = ArchiveLayout.configurationFile

    /// Where it was read from.
    public var path: String
    /// Its entries, in file order (each key at most once).
    public var entries: [Entry]

    /// Reads `text`, the file at `path`; `home` is what `~` stands for.
    /// - Throws: `ConfigurationFileError` for the first line that is not `key = value`, a comment or blank.
    public init(parsing text: String, path: String, home: String?) throws(ConfigurationFileError) {
        self.path = path
        entries = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            func problem(_ reason: String) -> ConfigurationFileError {
                ConfigurationFileError(path: path, line: number, reason: reason)
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw problem("'\(line)' is not 'key = value'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw problem("'\(line)' has no key before '='") }
            if let earlier = entries.first(where: { $0.key == key }) {
                throw problem("\(key) is set twice, on line \(earlier.line) and here")
            }
            var value = try Self.value(line[line.index(after: equals)...], of: key, problem: problem)
            guard !value.isEmpty else { throw problem("\(key) has no value") }
            if value == "~" || value.hasPrefix("~/") {
                guard let home, !home.isEmpty else { throw problem("\(key) '\(value)' needs $HOME, which is not set") }
                value = home + value.dropFirst()
            }
            entries.append(Entry(key: key, value: value, line: number))
        }
    }

    /// The value after `=`: trimmed, up to a `#` after a space (a comment), or the text inside one pair of quotes
    /// (which may hold a `#`), followed by nothing but a comment.
    private static func value(
        _ text: Substring, of key: String, problem: (String) -> ConfigurationFileError
    ) throws(ConfigurationFileError) -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let quote = text.first, quote == "\"" || quote == "'" {
            let inside = text.dropFirst()
            guard let end = inside.firstIndex(of: quote) else {
                throw problem("\(key) \(text) has no closing \(quote)")
            }
            let rest = inside[inside.index(after: end)...].trimmingCharacters(in: .whitespaces)
            guard rest.isEmpty || rest.hasPrefix("#") else {
                throw problem("\(key) \(text) has more after its closing \(quote)")
            }
            return String(inside[..<end])
        }
        var cut = text.endIndex
        for (index, character) in zip(text.indices, text) where character == "#" {
            if index == text.startIndex || text[text.index(before: index)].isWhitespace {
                cut = index
                break
            }
        }
        return text[..<cut].trimmingCharacters(in: .whitespaces)
    }

    /// The configuration file of `folder`; nil when there is none. One that others could have changed (it, the
    /// folder, what its link names: see `TrustedFiles`) is refused before a line of it is read: its `exec` would
    /// run as this user.
    /// - Throws: `UntrustedFile` for such a file; `ConfigurationFileError` (line 0) when it exists but cannot be
    ///   read, or as `init(parsing:)`.
    public static func load(
        from folder: ConfigurationFolder, home: String?, attributes: any FileAttributes = FileManager.default
    ) throws -> ConfigurationFile? {
        let url = folder.url.appendingPathComponent(fileName)
        try TrustedFiles(attributes: attributes).check(url.path, kind: .configuration)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigurationFileError(
                path: url.path, line: 0, reason: isFolder.boolValue ? "it is a folder" : "it cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationFileError(path: url.path, line: 0, reason: "it is not UTF-8 text")
        }
        return try ConfigurationFile(parsing: text, path: url.path, home: home)
    }
}

/// A configuration file that could not be read: where, and why.
public struct ConfigurationFileError: Error, Equatable, Sendable, LocalizedError {
    /// The file.
    public var path: String
    /// The line, from 1; 0 for the file as a whole.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// A problem at `line` of `path`.
    public init(path: String, line: Int, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// `/home/me/.config/podarchive/config:3: jobs has no value`.
    public var errorDescription: String? { (line > 0 ? "\(path):\(line): " : "\(path): ") + reason }
}
