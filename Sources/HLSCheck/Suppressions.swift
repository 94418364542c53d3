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
            // The line each directive excuses: the first line after it that is not a comment.
            // Walking the comments from the last one backwards gives every comment that line in
            // one step (a run of N directives is linear, not N²/2 look-ups).
            let comments = playlist.comments.sorted { $0.line < $1.line }
            var nextNonComment: [Int: Int] = [:]
            var following = Int.max
            var followingTarget = Int.max
            for comment in comments.reversed() {
                let target = comment.line + 1 == following ? followingTarget : comment.line + 1
                nextNonComment[comment.line] = target
                (following, followingTarget) = (comment.line, target)
            }
            for comment in comments {
                var text = Substring(comment.text.dropFirst())
                text = text.drop { $0 == " " || $0 == "\t" }
                guard text.hasPrefix(Self.directive), let target = nextNonComment[comment.line] else { continue }
                let rules = text.dropFirst(Self.directive.count)
                    .split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
                excused[playlist.uri, default: [:]][target, default: []].formUnion(rules)
            }
        }
    }

    func excuses(_ rule: String, at location: SourceLocation?) -> Bool {
        guard let location, let rules = excused[location.uri]?[location.line] else { return false }
        return rules.contains(rule) || rules.contains("all")
    }
}
