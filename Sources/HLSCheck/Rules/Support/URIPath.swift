import HLSPlaylist

/// The path of a URL, without query or fragment.
enum URIPath {
    static func path(of uri: String) -> String {
        var rest = Substring(uri)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        if let scheme = rest.firstRange(of: "://") {
            let afterAuthority = rest[scheme.upperBound...]
            return afterAuthority.firstIndex(of: "/").map { String(afterAuthority[$0...]) } ?? "/"
        }
        return String(rest)
    }
}
