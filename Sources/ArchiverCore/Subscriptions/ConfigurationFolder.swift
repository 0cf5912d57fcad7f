// Where podarchive keeps what belongs to its user rather than to one archive: the credentials of private feeds
// (kept out of the archive, which may be served or shared), and the configuration file. Named by the
// environment: `$PODARCHIVE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/podarchive`, else `~/.config/podarchive`.
import Foundation

/// The user's podarchive configuration folder.
public struct ConfigurationFolder: Sendable, Equatable {
    /// The folder (it may not exist yet).
    public var url: URL

    /// A configuration folder at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The folder the environment names: `PODARCHIVE_CONFIG_DIR`, else `XDG_CONFIG_HOME/podarchive` (an
    /// absolute path, as the XDG specification asks), else `HOME/.config/podarchive`; nil when none is set.
    /// A relative `PODARCHIVE_CONFIG_DIR` starts at `currentDirectory`.
    public static func resolve(environment: [String: String], currentDirectory: String) -> ConfigurationFolder? {
        if let chosen = environment["PODARCHIVE_CONFIG_DIR"], !chosen.isEmpty {
            let path = chosen.hasPrefix("/") ? chosen : currentDirectory + "/" + chosen
            return ConfigurationFolder(url: URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
        }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return ConfigurationFolder(
                url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                    ArchiveLayout.configurationFolder))
        }
        if let home = environment["HOME"], !home.isEmpty {
            return ConfigurationFolder(
                url: URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                    ArchiveLayout.configurationFolderInHome))
        }
        return nil
    }

    /// The folder of credentials: `credentials/` (0700), one 0600 file per show of each archive.
    public var credentials: URL { url.appendingPathComponent(ArchiveLayout.credentialsFolder, isDirectory: true) }
}
