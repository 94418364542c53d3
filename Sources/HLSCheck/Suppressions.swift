import HLSPlaylist

/// In-file exceptions: a comment line `# hlscheck-disable-next-line RULE[,RULE…]` excuses those
/// rules on the next line that is not itself a comment. M3U8 comments start with `#` but not
/// `#EXT` (RFC 8216 §4.1), so players ignore the directive. `all` excuses every rule.
struct Suppressions {
    static let directive = "hlscheck-disable-next-line"

    /// [playlist URI: [line: rule ids]]
    private var excused: [String: [Int: Set<String>]] = [:]

    init(_ playlists: [Playlist]) {
        for playlist in playlists {
            let commentLines = Set(playlist.comments.map(\.line))
            for comment in playlist.comments {
                var text = Substring(comment.text.dropFirst())
                text = text.drop { $0 == " " || $0 == "\t" }
                guard text.hasPrefix(Self.directive) else { continue }
                let rules = text.dropFirst(Self.directive.count)
                    .split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
                var target = comment.line + 1
                while commentLines.contains(target) { target += 1 }
                excused[playlist.uri, default: [:]][target, default: []].formUnion(rules)
            }
        }
    }

    func excuses(_ rule: String, at location: SourceLocation?) -> Bool {
        guard let location, let rules = excused[location.uri]?[location.line] else { return false }
        return rules.contains(rule) || rules.contains("all")
    }
}
