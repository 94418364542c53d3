// Confinement: a local stream reads nothing outside its folder, so a playlist cannot make the
// checker open (and print) files it was never meant to (docs/security.md).

package import FileSystem

/// The local path a URI names (`LocalFileName`: query and fragment dropped, percent-decoded);
/// nil for `http`/`https` URLs.
package enum LocalPath {
    /// The local path `uri` names; nil for `http`/`https` URLs. For a URI that names no file (an
    /// escape decoding to '/' or NUL, see `name(of:)`) the undecoded path, which confinement and
    /// the local sources refuse.
    package static func path(of uri: String) -> String? {
        name(of: uri)?.path
    }

    /// How a report or a message names the resource at `uri` (a resolved URI): the path of the
    /// local file it names, as typed (`Stream #1/v0/index.m3u8`, not `Stream %231/…`), or the
    /// URL itself.
    package static func shown(_ uri: String) -> String {
        path(of: uri) ?? uri
    }

    /// How `uri` maps to a local file; nil for `http`/`https` URLs.
    package static func name(of uri: String) -> LocalFileName? {
        // Without a ':' there is no scheme to read (the common case: a path).
        if uri.utf8.starts(with: "file://".utf8) || !uri.utf8.contains(UInt8(ascii: ":")) {
            return LocalFileName(uri: uri)
        }
        // Any other scheme ("javascript:", "data:", "evil:../../x") names no file: LocalFileName
        // refuses it, and confinement and the local sources say so; only network URLs are not local.
        let scheme = URIComponents(uri).scheme?.lowercased()
        return scheme == "http" || scheme == "https" ? nil : LocalFileName(uri: uri)
    }
}

/// The folder a local stream lives in. Nothing outside it is read unless the user allows it:
/// a playlist that names `../../etc/passwd` must not make the checker print that file.
package struct StreamRoot: Sendable, Hashable {
    /// The folder's real path (symlinks resolved), without a trailing slash.
    package var path: String

    /// nil when `folder` does not exist.
    package init?(folder: String) {
        guard let real = RegularFile.realPath(folder.isEmpty ? "." : folder) else { return nil }
        path = real
    }

    /// The root of a stream entered at `playlist`: the playlist's folder.
    package init?(ofPlaylist playlist: String) {
        guard let local = LocalPath.path(of: playlist) else { return nil }
        let slash = local.lastIndex(of: "/")
        let folder = slash.map { String(local[..<$0]) } ?? "."
        self.init(folder: slash == local.startIndex ? "/" : folder)
    }

    /// The deepest folder holding every one of `playlists` (local paths), by real path; nil when
    /// one of them is not local or does not exist.
    package static func commonFolder(of playlists: [String]) -> String? {
        var common: [Substring]?
        for playlist in playlists {
            guard let root = StreamRoot(ofPlaylist: playlist) else { return nil }
            let parts = root.path.split(separator: "/")
            common = common.map { Array(zip($0, parts).prefix { $0 == $1 }.map(\.0)) } ?? parts
        }
        return common.map { "/" + $0.joined(separator: "/") }
    }

    /// Whether the local file `uri` names lies inside the root, after resolving symlinks and
    /// `..`. A path that does not exist is judged by its deepest existing folder. Remote URIs are
    /// not local files and are not judged here (true).
    /// A local URI that names no file (an escape decoding to '/' or NUL) is not inside.
    package func contains(_ uri: String) -> Bool {
        guard let local = LocalPath.name(of: uri) else { return true }
        guard local.refusal == nil else { return false }
        return contains(canonicalPath: Self.canonical(local.path))
    }

    /// Whether `real`, an already canonical path (symlinks and `..` resolved), lies inside the root.
    package func contains(canonicalPath real: String) -> Bool {
        path == "/" || real == path || real.hasPrefix(path + "/")
    }

    /// The real path of `path`, or for a missing file the real path of its deepest existing
    /// ancestor with the rest appended (`..` in the rest applied lexically).
    ///
    /// Linear in the path's length (times its logarithm): whether a prefix of the path resolves
    /// is monotone (`realpath` resolves left to right, so a prefix that fails fails every longer
    /// one), so the deepest one that does is found by binary search over the prefixes, each cut
    /// from the path at a recorded separator. Trying every prefix from the longest down, each
    /// rebuilt by joining its components, cost 93 s for one URI of 16 000 components.
    static func canonical(_ path: String) -> String {
        if let real = RegularFile.realPath(path) { return real }
        let separators = path.utf8.indices.filter { path.utf8[$0] == UInt8(ascii: "/") }
        // Prefix k: the first k components ("" for k = 0, or the text before the k-th separator).
        // Prefix k = the number of separators + 1 is the whole path, which did not resolve.
        func base(_ k: Int) -> String {
            let prefix = k == 0 ? "" : String(path[..<separators[k - 1]])
            return prefix.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : prefix
        }
        guard let floor = RegularFile.realPath(base(0)) else { return path }
        var (low, high) = (0, separators.count)  // prefix `low` resolves; the answer is in low...high
        var lowReal = floor
        while low < high {
            let middle = (low + high + 1) / 2
            if let real = RegularFile.realPath(base(middle)) {
                (low, lowReal) = (middle, real)
            } else {
                high = middle - 1
            }
        }
        let restStart = low == 0 ? 0 : path.utf8.distance(from: path.startIndex, to: separators[low - 1]) + 1
        var output = SegmentStack(capacity: lowReal.utf8.count + path.utf8.count)
        let real = Array(lowReal.utf8)
        for component in real.split(separator: UInt8(ascii: "/")) { output.push(component) }
        URIResolver.forEachSegment(of: Array(path.utf8), from: restStart) { component, _ in
            switch component.count {
            case 0: break
            case 1 where component.first == UInt8(ascii: "."): break
            case 2 where component.first == UInt8(ascii: ".") && component.last == UInt8(ascii: "."): output.pop()
            default: output.push(component)
            }
        }
        return "/" + output.text
    }
}

/// How the loader treats local files outside the stream's root.
package struct Confinement: Sendable, Hashable {
    /// The folder to stay in; nil: the folder of the root playlist.
    package var root: String?
    /// Read outside the root all the same (`--allow-outside-root`).
    package var allowOutside: Bool

    /// Confines to `root` (nil: the root playlist's folder) unless `allowOutside`.
    package init(root: String? = nil, allowOutside: Bool = false) {
        self.root = root
        self.allowOutside = allowOutside
    }
}

/// A URI that names a local file outside the stream's root: not read, located where it is written.
package struct OutsideRootReference: Sendable, Hashable {
    /// The URI as written in the playlist.
    package var uri: String
    /// The URI resolved against its playlist (what would have been opened).
    package var resolvedURI: String
    /// The line that names the URI.
    package var location: SourceLocation
    /// The root it lies outside: the root folder's real path, or for a remote playlist its URL.
    package var root: String
    /// Set when the URI names no file at all (an escape decoding to '/' or NUL, `LocalFileName`):
    /// why, instead of "outside the root".
    package var refusal: String?

    /// Makes a reference.
    package init(uri: String, resolvedURI: String, location: SourceLocation, root: String, refusal: String? = nil) {
        self.uri = uri
        self.resolvedURI = resolvedURI
        self.location = location
        self.root = root
        self.refusal = refusal
    }
}
