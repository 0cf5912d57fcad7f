// The option that sets a show setting, for the lines a sync says of its filters (`SyncFormatter.filterLines`).
import ArchiverCore
import Foundation

/// How the filter lines name a setting.
enum FilterLines {
    /// The option that sets `key` (`--max-duration` for `maxDuration`).
    static func option(_ key: ShowSettings.Key) -> String {
        OptionCatalog.showSettings.first { $0.showKey == key }?.name ?? key.spelled
    }
}
