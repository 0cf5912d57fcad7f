// Show settings as the options that set them, each shown as its declaration shows its value: what `feeds` says a
// show keeps, and what a sync's summary says its filter is.
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
