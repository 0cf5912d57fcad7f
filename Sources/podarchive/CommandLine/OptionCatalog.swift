// Every option, in the order the man page lists them (each file's `all`): what the configuration file may set,
// what a show keeps, and the man page's OPTIONS are read here, from the declarations, never from the commands.

enum OptionCatalog {
    static let all: [OptionDescriptor] = [
        SourceOptions.declared, SettingOptions.declared, AlternateOptions.declared, OutputOptions.declared,
        TransferOptions.declared, AccessOptions.declared, WARCOptions.declared, HookOptions.declared,
        NotifyOptions.declared,
        ForgetOptions.declared, OffloadOptions.declared, [HelpOption.option.descriptor],
    ].flatMap { $0 }

    /// The options the configuration file may set, in catalog order (`config` takes them all).
    static let configurable = all.filter(\.config)

    /// The options saved with a show as its settings, in catalog order (what `feeds` and `help sync` name).
    static let showSettings = all.filter { $0.showKey != nil }
}
