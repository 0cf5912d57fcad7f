// A show's taint is decided where its access is (`ShowAccess.withAccess`): the one place every secret of the show
// (its feed URL's, its login, its headers, its `.netrc` login) is known together.
import Foundation

/// How a show's taint is decided.
enum ShowTaint {
    /// The taint of the show fetched from `source` with `profile`, whose feed URL as given is `given` (userinfo
    /// and query included): private when that URL carries a login or a secret parameter, when credentials are
    /// given or saved for it, or when a `.netrc` login covers its host. Registers every secret value it holds
    /// with `SecretValues`.
    static func of(feed given: String, source: FeedSource?, profile: RequestProfile) -> Taint {
        var secrets: [String] = []
        if let login = URLSecrets.userinfo(of: given), let password = login.password { secrets.append(password) }
        secrets += URLSecrets.secretValues(in: given)
        for credential in profile.credentials {
            if let password = credential.password { secrets.append(password) }
            for header in credential.headers ?? [] {
                guard let value = ShowCredentials.parseHeader(header)?.value else { continue }
                secrets += SecretValues.parts(ofHeader: value)
            }
        }
        var netrcLogin = false
        if let origin = source?.origin, let netrc = profile.netrc,
            let login = netrc.machine(forHost: origin.host) ?? (origin == profile.home ? netrc.fallback : nil)
        {
            netrcLogin = true
            if let password = login.password { secrets.append(password) }
        }
        SecretValues.register(secrets)
        let isPrivate =
            !secrets.isEmpty || netrcLogin || URLSecrets.userinfo(of: given) != nil
            || profile.credentials.contains { !$0.isEmpty }
        let feeds = [given, source?.displayName].compactMap { $0 }.map(URLSecrets.withoutUserinfo)
        return Taint(isPrivate: isPrivate, feeds: Set(feeds))
    }

    /// Registers with `SecretValues` every secret the private shows of `root` hold (their feeds' tokens, their
    /// logins and headers, as kept in the configuration folder), and returns their folders' names: what is
    /// published from the archive (`site --out`, `export`) is searched for them (see `SecretHolders`). A show
    /// whose secrets cannot be read is still named (its files are then searched for those the process knows).
    static func registerSecrets(of store: SubscriptionStore, in root: URL) -> Set<String> {
        var folders = Set<String>()
        for record in store.all(in: root).shows
        where record.secretFeed == true || record.hasCredentials || record.holdsSecrets {
            folders.insert(FileNamer.sanitize(record.folder))
            guard let resolved = try? store.resolve(record, in: root) else { continue }
            let profile = RequestProfile(credentials: resolved.credentials.map { [$0] } ?? [])
            _ = of(feed: resolved.source.displayName, source: resolved.source, profile: profile)
        }
        return folders
    }
}
