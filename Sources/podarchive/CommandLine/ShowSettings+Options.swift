// Show settings as the options that set them, each shown as its declaration shows its value: what `feeds` says a
// show keeps, what a sync's summary says its filter is, and which option a saved setting that is not valid names.
import ArchiverCore

extension ShowSettings {
    /// These settings as options (`--limit 3 --match '(?i)news'`), in catalog order; only those of `keys` when given.
    func asOptions(only keys: [Key]? = nil) -> String {
        OptionCatalog.showSettings.compactMap { option -> String? in
            guard let key = option.showKey, keys?.contains(key) ?? true else { return nil }
            return option.describe?(self).map { $0.isEmpty ? option.name : "\(option.name) \($0)" }
        }.joined(separator: " ")
    }
}

/// The lines that name show settings by their options, which only the declarations here know.
enum SettingsSaid {
    /// An error's one line (`SyncFormatter.errorLine`), a saved setting that is not valid named by its option.
    static func errorLine(_ error: Error) -> String {
        (error as? SettingsError).map(settingLine) ?? SyncFormatter.errorLine(error)
    }

    /// A saved setting that is not valid, named by the option that sets it (the one a user would type to replace it).
    static func settingLine(_ error: SettingsError) -> String {
        let option = OptionCatalog.showSettings.first { $0.showKey == error.key && !$0.key.hasPrefix("no-") }
        let name = option?.name ?? error.key.rawValue
        return
            "the saved \(name) '\(SyncFormatter.oneLine(error.value))' is not valid: \(error.problem.reason); give \(name) "
            + "again with 'podarchive add <feed>' to replace it"
    }
}
