// The temporary files podarchive writes before a rename, all named one way: for whoever made them (the host, the
// process, and when that process started), so that one sweeper can tell a file no process will rename (a killed
// process's) from one a live process is writing. Several hosts may share one archive (`--shard` over NFS): a file
// of another host is removed only under a lock that guards it, never on a guess.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process that made a temporary file.
struct TemporaryOwner: Equatable, Sendable {
    /// The host's name (`gethostname`), made safe for a file name: ASCII letters, digits and `-`, `_` for the rest.
    var host: String
    var pid: Int32
    /// When the process started (Linux: clock ticks after boot, `/proc/<pid>/stat`), so a PID used again by another
    /// process is not taken for the one that made the file; nil where that is not known.
    var started: UInt64?

    /// This process. Its host is the host's name and, on Linux, its PID namespace: containers sharing a host name
    /// (and an archive) each number their processes their own way, so a PID is only judged in its own namespace.
    static let current = TemporaryOwner(
        host: hostName() + (pidNamespace().map { "-ns\($0)" } ?? ""), pid: getpid(), started: startTime(of: getpid()))

    /// How a temporary file's name says it: `host.pid.started` (`0` for a start not known).
    var token: String { "\(host).\(pid).\(started ?? 0)" }

    /// The owner a temporary file's unique part (`host.pid.started.n`) names; nil for any other (a name made by
    /// podarchive 0.1.0: `pid`, or a UUID).
    init?(unique: Substring) {
        let parts = unique.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, let pid = Int32(parts[1]), let started = UInt64(parts[2]),
            UInt64(parts[3]) != nil
        else { return nil }
        self.init(host: String(parts[0]), pid: pid, started: started == 0 ? nil : started)
    }

    init(host: String, pid: Int32, started: UInt64?) {
        self.host = host
        self.pid = pid
        self.started = started
    }

    /// Whether this owner (a process of this host) is still running: its PID is in use, and (where the start is
    /// known) by a process that started when it did.
    var isRunning: Bool {
        guard pid > 0 else { return false }
        // Whether the PID is in use at all: kill(0) asks the kernel, which /proc may not show (mounted hidepid=2,
        // another user's process is hidden there; EPERM is a live process of another user).
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
            // In use: by the process that made the file, unless its start time, where both are known, says the
            // PID was given to another since.
            guard let started, let now = Self.startTime(of: pid) else { return true }
            return started == now
        #else
            return true
        #endif
    }

    /// The host's name as a name may carry it (at most 64 bytes).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safe = String(
            name.unicodeScalars.prefix(64).map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                    ? Character(scalar) : "_"
            })
        return safe.isEmpty ? "host" : safe
    }

    /// The inode number of this process's PID namespace (`/proc/self/ns/pid` reads `pid:[4026531836]`); nil where
    /// there is none to read.
    static func pidNamespace() -> UInt64? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/self/ns/pid", &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            let text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return UInt64(text.filter(\.isNumber))
        #else
            return nil
        #endif
    }

    /// When process `pid` started (the 22nd field of `/proc/<pid>/stat`, after the name in parentheses, which may
    /// hold spaces); nil when there is no such process (or no /proc).
    static func startTime(of pid: Int32) -> UInt64? {
        #if os(Linux)
            let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 1024)
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0, let name = bytes[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
            let fields = bytes[(name + 1)..<count].split(separator: UInt8(ascii: " "))
            // Fields after the name start with the third (the state); the start time is the 22nd.
            guard fields.count > 19 else { return nil }
            return UInt64(String(decoding: fields[19], as: UTF8.self))
        #else
            return nil
        #endif
    }
}

/// The name of every temporary file, and the one sweeper of those left behind.
enum TemporaryFiles {
    /// Numbers this process's temporary files: two tasks writing one file at once never share one.
    private static let made = Locked<UInt64>(0)

    /// A new temporary file's name for an atomic write of `target` (a file's name): `.<target>.tmp-<host>.<pid>.
    /// <started>.<n>`, unique between hosts, processes and calls.
    static func name(for target: String) -> String {
        let number = made.withLock { count -> UInt64 in
            count += 1
            return count
        }
        return ArchiveLayout.temporary(for: target, unique: TemporaryOwner.current.token + ".\(number)")
    }

    /// Whether the temporary file `name` is one no process will rename: never one of this process; else one whose
    /// file the caller's lock guards (`guarded`, given the name the file stands for: no other process writes it
    /// while the lock is held), or one of a process of this host that is no longer running. A file of another
    /// host is left to that host (or to whoever holds the lock that guards it). A name made by podarchive 0.1.0
    /// (`.<name>.tmp-<pid>`) is taken for this host's; one with a UUID is removed only under a lock.
    static func isStale(_ name: String, guarded: (Substring) -> Bool) -> Bool {
        guard let (target, unique) = ArchiveLayout.temporaryParts(of: name) else { return false }
        let owner = TemporaryOwner(unique: unique)
        let me = TemporaryOwner.current
        if let owner, owner.host == me.host, owner.pid == me.pid { return false }
        if guarded(target) { return true }
        if let owner { return owner.host == me.host && !owner.isRunning }
        guard let pid = Int32(unique), pid != me.pid else { return false }
        return !TemporaryOwner(host: me.host, pid: pid, started: nil).isRunning
    }

    /// Whether `name` is a temporary file named as this version names them (its owner known: `host.pid.started.n`),
    /// whatever it stands for: no other program makes such a name, so in a folder that is not the archive's (an
    /// export's) one of a process of this host that has ended is podarchive's to remove.
    static func namesItsOwner(_ name: String) -> Bool {
        ArchiveLayout.temporaryParts(of: name).map { TemporaryOwner(unique: $0.unique) != nil } == true
    }

    /// Removes the stale temporary files (see `isStale`) among `listed`, the names in `folder`. One that cannot
    /// be removed (a read-only archive) is left for a later run.
    /// - Returns: the names removed.
    @discardableResult
    static func sweep(
        _ listed: some Sequence<String>, in folder: URL, files: any FileRemoval,
        guarded: (Substring) -> Bool = { _ in false }
    ) -> [String] {
        var removed: [String] = []
        for name in listed where isStale(name, guarded: guarded) {
            guard (try? files.removeItem(at: folder.appendingPathComponent(name, isDirectory: false))) != nil
            else { continue }
            removed.append(name)
        }
        return removed
    }

    /// The names in `folder` once it is swept (see `sweep`); with `andAbove`, the folder above it is swept too (above
    /// the subscription records, the root's state folder: its identity, the site settings).
    static func swept(_ folder: URL, andAbove: Bool = false, files: any FileReading & FileRemoval) -> [String] {
        if andAbove { sweep(folder.deletingLastPathComponent(), files: files) }
        guard let names = try? files.contentsOfDirectory(atPath: folder.path) else { return [] }
        let removed = Set(sweep(names, in: folder, files: files))
        return names.filter { !removed.contains($0) }
    }

    /// Lists `folder` and sweeps it (see `sweep`); nothing when it cannot be listed.
    @discardableResult
    static func sweep(
        _ folder: URL, files: any FileReading & FileRemoval, guarded: (Substring) -> Bool = { _ in false }
    ) -> [String] {
        guard let names = try? files.contentsOfDirectory(atPath: folder.path) else { return [] }
        return sweep(names, in: folder, files: files, guarded: guarded)
    }
}
