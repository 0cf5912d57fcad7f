// The parts of the man page (Sources/podarchive/Documentation/podarchive.1) that the option table decides: its OPTIONS
// section (each option's heading and text, from its declaration) and the list of settings a show keeps. The rest
// stays written by hand in the page, which is kept in git so it reads (and `man -l` shows it) without a build;
// GeneratedArtifactsTests require these parts of it to equal the generated text exactly (run them with
// PODARCHIVE_WRITE_MANUAL=1 to write the generated text into the page).

enum ManualPage {
    /// roff for a name or word: each hyphen written `\-`.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: #"\-"#) }

    /// An option's heading in OPTIONS (`.BI "\-j, \-\-jobs" " n"`); with `also`, the options described under it.
    static func heading(for option: OptionDescriptor, also: [OptionDescriptor] = []) -> String {
        let names = option.short.map { "-\($0), \(option.name)" } ?? option.name
        if !also.isEmpty {
            return ".BR " + ([option] + also).map { roff($0.name) }.joined(separator: #" ", " "#)
        }
        switch (option.value, option.short) {
        case (nil, nil): return ".B \(roff(names))"
        case (nil, .some(let short)): return #".BR \-\#(short) ", " "# + roff(option.name)
        case (.some(let value), nil): return ".BI \(roff(names)) \" \(value.lowercased())\""
        case (.some(let value), .some): return ".BI \"\(roff(names))\" \" \(value.lowercased())\""
        }
    }

    /// The OPTIONS section: every option in table order (one described under another's heading is left to it), then
    /// `--version`, which only the program takes.
    static var options: String {
        let described = Set(OptionCatalog.all.flatMap(\.manualAlso))
        var entries = OptionCatalog.all.filter { !described.contains($0.name) }.map { option in
            let also = option.manualAlso.compactMap { name in OptionCatalog.all.first { $0.name == name } }
            return ".TP\n" + heading(for: option, also: also) + "\n" + option.filled(option.manual)
        }
        entries.append(".TP\n.BR \\-V \", \" \\-\\-version\nShow the version.")
        return ".SH OPTIONS\n" + entries.joined(separator: "\n") + "\n"
    }

    /// `page` with its OPTIONS section (up to the next section) replaced by the generated one.
    static func withGeneratedOptions(_ page: String) -> String {
        guard let start = page.range(of: "\n.SH OPTIONS\n"),
            let end = page.range(of: "\n.SH ", range: start.upperBound..<page.endIndex)
        else { return page }
        return page[..<start.lowerBound] + "\n" + options + page[end.lowerBound...].dropFirst()
    }

    /// The show settings as the sync paragraph of COMMANDS lists them: `.RB ( \-\-name ,` ... `.BR \-\-match )`.
    static var savedSettings: String {
        let names = OptionCatalog.showSettings.map { roff($0.name) }
        return names.enumerated().map { index, name in
            switch index {
            case 0: return ".RB ( \(name) ,"
            case names.count - 1: return ".BR \(name) )"
            default: return ".BR \(name) ,"
            }
        }.joined(separator: "\n")
    }
}
