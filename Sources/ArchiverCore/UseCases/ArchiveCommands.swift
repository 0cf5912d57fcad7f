// podarchive's commands, one call each, made of the archiver: the executable's way into the core. `Archiver` is the
// engine (a show synced, verified, listed; the embedding API); `ArchiveCommands` is what a command line, or any
// front end, asks of it: a request in, events as they happen, a report whose status is the process's exit status.
import Foundation

/// podarchive's commands over an archiver (`Archiver.commands`): one entry per command, each deciding its status.
public struct ArchiveCommands: Sendable {
    /// The archiver the commands run on.
    let archiver: any SyncEngine
}

extension Archiver {
    /// podarchive's commands over this archiver, one call each (see `ArchiveCommands`).
    public var commands: ArchiveCommands { ArchiveCommands(archiver: self) }
}
