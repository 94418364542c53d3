/// A command line fit for a report: credentials in URLs are hidden. A SARIF file is uploaded to
/// code-scanning services and kept as a build artefact, so `https://user:token@host/x.m3u8` or a
/// signed URL's query (`?Signature=…&Key-Pair-Id=…`) must not travel with it.
package enum CommandLineRedaction {
    /// Each argument redacted, quoted for a POSIX shell where needed, joined by spaces.
    package static func commandLine(_ arguments: [String]) -> String {
        arguments.map { quoted(redacted($0)) }.joined(separator: " ")
    }

    /// In every URL inside `argument` (`scheme://…`, also after `--flag=`): the user information
    /// becomes `REDACTED@`, and each query value becomes `REDACTED`.
    package static func redacted(_ argument: String) -> String {
        guard let scheme = argument.firstRange(of: "://") else { return argument }
        let head = argument[..<scheme.upperBound]
        var rest = Substring(argument[scheme.upperBound...])
        // Authority: up to the first / ? or #.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            authority = "REDACTED" + authority[at...]
        }
        rest = rest[authorityEnd...]
        var out = String(head) + authority
        guard let question = rest.firstIndex(of: "?") else { return out + rest }
        out += rest[...question]
        let fragment = rest.firstIndex(of: "#") ?? rest.endIndex
        let query = rest[rest.index(after: question)..<max(fragment, rest.index(after: question))]
        out += query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            return pair[...equals] + "REDACTED"
        }.joined(separator: "&")
        return out + rest[fragment...]
    }

    /// `argument` as a POSIX shell reads it back: bare when it holds only safe characters,
    /// otherwise in single quotes.
    static func quoted(_ argument: String) -> String {
        let safe =
            !argument.isEmpty
            && argument.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "=", ",", "+", "@", "%": true
                default: false
                }
            }
        return safe ? argument : "'" + argument.replacing("'", with: #"'\''"#) + "'"
    }
}
