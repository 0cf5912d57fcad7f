// The rule for the files podarchive takes orders or secrets from (the configuration file, each credentials file,
// a `.netrc`), as OpenSSH's StrictModes: the file, and the folder that holds it (its own, not every folder above),
// belong to the user running podarchive or to root, and neither may be written by group or others; a link is
// followed only to a file that meets the same rule. A file or folder on a read-only mount counts as not writable,
// so a Kubernetes Secret (`drwxrwxrwt root` folders of `..data` links, mounted read-only) is trusted.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who owns an item and who may write it: what the trust rule reads of it (see `FileAttributes.ownership`).
public struct Ownership: Sendable, Equatable {
    /// The owner's user ID; nil from a store that keeps no owners (a test double), read as the current user.
    public var owner: UInt32?
    /// The permission bits (`0o644`).
    public var mode: Int
    /// True for a symbolic link (the item itself, not followed).
    public var isLink: Bool
    /// True when the file system holding it is mounted read-only (`statvfs`'s `ST_RDONLY`).
    public var onReadOnlyMount: Bool

    /// An item's ownership.
    public init(owner: UInt32?, mode: Int, isLink: Bool = false, onReadOnlyMount: Bool = false) {
        self.owner = owner
        self.mode = mode
        self.isLink = isLink
        self.onReadOnlyMount = onReadOnlyMount
    }
}

extension FileAttributeKey {
    /// For a test double's `setAttributes`: true when the item is to count as on a read-only mount.
    public static let onReadOnlyMount = FileAttributeKey("PodarchiveOnReadOnlyMount")
}

/// What a file podarchive trusts is for, as its refusal names it.
public enum TrustedFileKind: String, Sendable {
    /// `config` in the configuration folder.
    case configuration = "configuration file"
    /// A show's file in the configuration folder's `credentials/`.
    case credentials = "credentials file"
    /// A `.netrc` file.
    case netrc = "netrc file"
}

/// A file refused because others could have changed it: nothing in it is used.
public struct UntrustedFile: Error, Equatable, Sendable, LocalizedError {
    /// What the file is for.
    public var kind: TrustedFileKind
    /// The file podarchive was to read.
    public var file: String
    /// What is wrong, naming the item it is wrong with (the file, its folder, what a link names).
    public var problem: String
    /// The command that fixes it.
    public var fix: String
    /// True when the file was to be written (a secret kept), not read: nothing was written.
    public var writing: Bool

    /// A refusal.
    public init(kind: TrustedFileKind, file: String, problem: String, fix: String, writing: Bool = false) {
        self.kind = kind
        self.file = file
        self.problem = problem
        self.fix = fix
        self.writing = writing
    }

    /// `credentials file /c/credentials/a.json refused: its folder /c/credentials can be written by others (mode
    /// 0777); nothing in it is used (fix: chmod go-w /c/credentials)`; for a file to be written, `…; no secret is
    /// written there (fix: …)`.
    public var errorDescription: String? {
        "\(kind.rawValue) \(file) refused: \(problem); "
            + (writing ? "no secret is written there" : "nothing in it is used") + " (fix: \(fix))"
    }
}

/// The trust rule, read through the `FileAttributes` seam.
struct TrustedFiles: Sendable {
    /// Where owners, modes, links and mounts are read.
    public let attributes: any FileAttributes
    /// The user podarchive runs as (its effective user ID).
    public let user: UInt32

    /// The rule for `user` (by default, the process's).
    public init(attributes: any FileAttributes, user: UInt32 = geteuid()) {
        self.attributes = attributes
        self.user = user
    }

    /// Checks the file at `path` (a `kind`), its folder, and each link on the way with the file it names and that
    /// file's folder. Nothing at `path` (nor at the end of its links) passes: the caller finds it missing.
    /// - Throws: `UntrustedFile` naming the first item that fails, what is wrong and the fix.
    public func check(_ path: String, kind: TrustedFileKind) throws(UntrustedFile) {
        var current = path
        for hop in 0...40 {
            // Nothing there is nothing used, whatever its folder (a `~/.netrc` that is not there, in any home).
            guard let item = attributes.ownership(atPath: current) else { return }
            let folder = Self.folder(of: current)
            try checkFolder(folder, file: path, kind: kind, reached: hop > 0)
            guard item.isLink else {
                try judge(item, at: current, as: hop == 0 ? "it" : "the file its link names, \(current),", path, kind)
                return
            }
            guard let destination = try? attributes.destinationOfSymbolicLink(atPath: current) else {
                throw UntrustedFile(
                    kind: kind, file: path, problem: "its link \(current) cannot be read",
                    fix: "rm \(Self.quoted(current))")
            }
            current = destination.hasPrefix("/") ? destination : folder + "/" + destination
        }
        throw UntrustedFile(
            kind: kind, file: path, problem: "it is a chain of more than 40 links", fix: "rm \(Self.quoted(path))")
    }

    /// Checks the folder a `kind` file is to be written into at `file`, its links followed, by the rule the file
    /// will be read by: a secret is never written where the reading of it would be refused (a folder others may
    /// write, another user's, or a link to either). A folder not there yet passes: it is made the writer's own.
    /// - Throws: `UntrustedFile` (`writing`) naming the folder, what is wrong and the fix.
    public func checkFolder(toWrite file: String, kind: TrustedFileKind) throws(UntrustedFile) {
        do {
            try checkFolder(Self.folder(of: file), file: file, kind: kind, reached: false)
        } catch {
            var refusal = error
            refusal.writing = true
            throw refusal
        }
    }

    /// Checks the folder at `path`, its own links followed (the folders above it are not judged).
    private func checkFolder(_ path: String, file: String, kind: TrustedFileKind, reached: Bool) throws(UntrustedFile) {
        var current = path
        for _ in 0...40 {
            guard let item = attributes.ownership(atPath: current) else { return }
            guard item.isLink else {
                let subject = reached ? "the folder its link leads into, \(current)," : "its folder \(current)"
                return try judge(item, at: current, as: subject, file, kind)
            }
            guard let destination = try? attributes.destinationOfSymbolicLink(atPath: current) else { return }
            current = destination.hasPrefix("/") ? destination : Self.folder(of: current) + "/" + destination
        }
        throw UntrustedFile(
            kind: kind, file: file, problem: "its folder \(path) is a chain of more than 40 links",
            fix: "rm \(Self.quoted(path))")
    }

    /// Refuses `item` (at `path`, named `subject` in the line) when another user owns it, or group or others may
    /// write it where it can be written.
    private func judge(_ item: Ownership, at path: String, as subject: String, _ file: String, _ kind: TrustedFileKind)
        throws(UntrustedFile)
    {
        let owner = item.owner ?? user
        let foreign = owner != user && owner != 0
        let writable = item.mode & 0o022 != 0 && !item.onReadOnlyMount
        guard foreign || writable else { return }
        var problems: [String] = []
        var fixes: [String] = []
        if foreign {
            problems.append("belongs to uid \(owner), not to you (uid \(user)) or root")
            fixes.append("chown \(user) \(Self.quoted(path))")
        }
        if writable {
            problems.append(
                "can be written by \(item.mode & 0o020 != 0 ? "its group" : "others")"
                    + "\(item.mode & 0o022 == 0o022 ? " and others" : "") (mode \(String(format: "%04o", item.mode)))")
            fixes.append("chmod go-w \(Self.quoted(path))")
        }
        let verb = subject == "it" ? "it " : subject + " "
        throw UntrustedFile(
            kind: kind, file: file, problem: verb + problems.joined(separator: " and "),
            fix: fixes.joined(separator: " && "))
    }

    /// The folder holding `path`.
    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `path` as a shell reads it: in single quotes when it holds anything but plain characters.
    static func quoted(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@%:,=")
        guard path.contains(where: { !plain.contains($0) }) else { return path }
        return "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
