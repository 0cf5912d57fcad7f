// The parts of the man page (Sources/podarchive/Documentation/podarchive.1) that the option table decides: each
// option's heading in OPTIONS, and the list of settings a show keeps. The prose stays written by hand in the page;
// DocumentationTests require these generated lines in it exactly, and every declared option and no other there.

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

    /// The show settings as the sync paragraph of COMMANDS lists them: `.RB ( \-\-name ,` ... `.BR \-\-match )`.
    static var savedSettings: String {
        let names = OptionTable.showSettings.map { roff($0.name) }
        return names.enumerated().map { index, name in
            switch index {
            case 0: return ".RB ( \(name) ,"
            case names.count - 1: return ".BR \(name) )"
            default: return ".BR \(name) ,"
            }
        }.joined(separator: "\n")
    }
}
