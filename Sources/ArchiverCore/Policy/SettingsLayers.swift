// Which value of each show setting a sync uses: an ordered list of sources, the first that sets a value wins,
// and the defaults under them all. Today the sources are the settings given for this run and those saved with
// the show; more (the environment, a configuration file) take their place in the list between them without
// changing how it is read. Each effective value can say which source it came from.
import Foundation

/// Where a setting's value came from.
public enum SettingsSource: String, Equatable, Sendable, CaseIterable {
    /// Given for this run (on the command line), over every other source.
    case given
    /// Saved with the show's subscription.
    case saved
    /// No source set it: the built-in default applies.
    case defaults
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

    /// The settings given for this run over those saved with the show (none saved: an empty layer).
    public init(given: ShowSettings, saved: ShowSettings?) {
        self.init([Layer(.given, given), Layer(.saved, saved ?? ShowSettings())])
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

    /// The layer whose episode filter (limit, since, match) chose what was left out: the highest that sets one
    /// (0 and "" turn a filter off and set none), else the lowest layer.
    public var filterLayer: Layer? {
        layers.first(where: \.settings.filters) ?? layers.last
    }

    /// `defaults` with every layer applied over them, the lowest first: each layer's values are checked, even
    /// one a higher layer replaces.
    /// - Throws: `SettingsError` naming the first setting that is not valid (a hand-edited record).
    public func applied(to defaults: SyncOptions) throws -> SyncOptions {
        try layers.reversed().reduce(defaults) { try $0.applying($1.settings) }
    }
}
