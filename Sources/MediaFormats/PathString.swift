/// Path arithmetic on strings, as NSString's path methods do it (the same results for the paths
/// hlscheck builds), without swift-corelibs-foundation: that brings ICU and its ~45 MB of data into
/// the static binary (docs/benchmarks.md, "Build time and binary size"), and its
/// `deletingLastPathComponent` traps on a one-character relative path such as "a".
package enum PathString {
    /// `name` within `folder`: "a" + "b" is "a/b", "a/" + "b" is "a/b"; an empty side gives the other.
    package static func join(_ folder: String, _ name: String) -> String {
        if name.isEmpty { return folder }
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part: "/a/b" is "/a", "/a" is "/", "a/b/" is "a", "a" is "".
    package static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(withoutTrailingSlashes(String(trimmed[..<slash])))
    }

    /// The last component: "/a/b/" is "b", "/" is "/".
    package static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// What follows the last component's last dot: "a.m3u8" is "m3u8"; ".hidden" and "a" have none ("").
    package static func pathExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path` without trailing slashes, except a lone "/".
    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var trimmed = path[...]
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}
