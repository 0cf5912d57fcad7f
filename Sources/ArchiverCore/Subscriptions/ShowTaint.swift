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
        let login = URLSecrets.userinfo(of: given)
        if let password = login?.password { secrets.append(password) }
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
            !secrets.isEmpty || netrcLogin || login != nil || profile.credentials.contains { !$0.isEmpty }
        // Shown once, as the name rule shows them, for `URLSecrets` to compare against on every redaction.
        let feeds = [given, source?.displayName].compactMap { $0 }.map { URLSecrets.redacted($0, everyValue: false) }
        return Taint(isPrivate: isPrivate, feeds: Set(feeds))
    }
}
