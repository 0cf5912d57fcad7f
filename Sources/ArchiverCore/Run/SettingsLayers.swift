// Which value of each setting a command uses: an ordered list of sources, the first that sets a value wins, and
// the defaults under them all. The sources, highest first: the command line, the show's saved settings, the
// environment, the configuration file. Each effective value can say which source it came from.
import Foundation

/// Where a setting's value came from; the order of the cases is their precedence, highest first.
public enum SettingsSource: String, Equatable, Sendable, CaseIterable, Comparable {
    /// Given for this run (on the command line), over every other source.
    case given
    /// Saved with the show's subscription.
    case saved
    /// An environment variable (the archive root's).
    case environment
    /// The configuration file: defaults for every run, never saved with a show.
    case configuration
    /// No source set it: the built-in default applies.
    case defaults

    /// Whether `self` takes precedence over `other`.
    public static func < (lhs: SettingsSource, rhs: SettingsSource) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The value of the highest source among `values` that sets one, and that source; nil when none does.
    public static func highest<Value>(_ values: [SettingsSource: Value]) -> (source: SettingsSource, value: Value)? {
        values.min { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// A show's settings in layers, highest precedence first.
public struct SettingsLayers: Equatable, Sendable {
    /// One source's settings; each nil one is left to the layers below it.
    public struct Layer: Equatable, Sendable {
        /// Where these settings come from.
        public var source: SettingsSource
        /// The settings it sets.
        public var settings: ShowSettings

        /// `settings` from `source`.
        public init(_ source: SettingsSource, _ settings: ShowSettings) {
            self.source = source
            self.settings = settings
        }
    }

    /// The layers, highest precedence first (the defaults are below the last).
    public private(set) var layers: [Layer]

    /// Settings from `layers`, highest precedence first.
    public init(_ layers: [Layer]) {
        self.layers = layers
    }

    /// The settings given for this run over those saved with the show (none saved: an empty layer; those the given
    /// ones clear left out), over those of the configuration file when there is one.
    public init(given: ShowSettings, saved: ShowSettings?, configuration: ShowSettings? = nil) {
        self.init(
            [Layer(.given, given), Layer(.saved, (saved ?? ShowSettings()).removing(given.cleared))]
                + (configuration.map { [Layer(.configuration, $0)] } ?? []))
    }

    /// These layers with `settings` saved with a show in its place among them (replacing a saved layer).
    public func saving(_ settings: ShowSettings?) -> SettingsLayers {
        let others = layers.filter { $0.source != .saved }
        return SettingsLayers((others + [Layer(.saved, settings ?? ShowSettings())]).sorted { $0.source < $1.source })
    }

    /// Only the settings of how a show's hosts are reached (its User-Agent and `.netrc` file), in each layer.
    public var access: SettingsLayers {
        SettingsLayers(
            layers.map {
                Layer($0.source, ShowSettings(userAgent: $0.settings.userAgent, netrcFile: $0.settings.netrcFile))
            }
        )
    }

    /// What `source` sets; nil when it is not one of the layers.
    public func settings(from source: SettingsSource) -> ShowSettings? {
        layers.first { $0.source == source }?.settings
    }

    /// Each setting from the highest layer that sets it; nil where only the default applies.
    public var effective: ShowSettings {
        layers.reversed().reduce(ShowSettings()) { $0.overlaid(by: $1.settings) }
    }

    /// The source of the effective value of `setting`: the highest layer that sets it, else the defaults.
    public func source<Value>(of setting: KeyPath<ShowSettings, Value?>) -> SettingsSource {
        layers.first { $0.settings[keyPath: setting] != nil }?.source ?? .defaults
    }

    /// The source of the effective value of the setting named `key`.
    public func source(of key: ShowSettings.Key) -> SettingsSource {
        layers.first { $0.settings.text(of: key) != nil }?.source ?? .defaults
    }

    /// The layer whose episode filter (limit, since, match) chose what was left out: the highest that sets one
    /// (0 and "" turn a filter off and set none), else the lowest layer.
    public var filterLayer: Layer? {
        layers.first(where: \.settings.filters) ?? layers.last
    }
}
