// Settings in layers made the options a sync runs with (kept apart from `SettingsLayers`, which `SyncOptions`
// carries for commands that name folders rather than feeds).
import Foundation

extension SettingsLayers {
    /// `defaults` with every layer applied over them, the lowest first: each layer's values are checked, even
    /// one a higher layer replaces.
    /// - Throws: `SettingsError` naming the first setting that is not valid (a hand-edited record).
    public func applied(to defaults: SyncOptions) throws -> SyncOptions {
        try layers.reversed().reduce(defaults) { try $0.applying($1.settings) }
    }
}
