import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats
import HLSCheck
import HLSPlaylist

/// Every local file a stream consists of — its playlists, segments, initialization sections and
/// keys — relative to the folder that holds them all (their nearest common ancestor).
struct StreamLayout: Sendable {
    /// Absolute, standardized path of the common folder.
    var root: String
    /// The input playlist, relative to `root`.
    var rootPlaylist: String
    /// Every file, relative to `root`, sorted.
    var files: [String]
    /// The playlists (the input and every media playlist), relative to `root`.
    var playlists: [String]
    /// What the playlists refer to, relative to `root`: each segment by its playlist and line,
    /// and the initialization sections and keys (which embed never renames).
    var segments: [SegmentReference]
    var otherFiles: Set<String>
    /// What each playlist (relative to `root`) held when the analysis read it.
    var digests: [String: PlaylistSourceDigest]
    /// The working folder relative paths were resolved against, read once (not once per file).
    private var workingFolder: String

    struct SegmentReference: Hashable {
        var playlist: String
        var line: Int
        var file: String
    }

    init(_ analysis: StreamAnalysis) throws(EmbedError) {
        try Self.requirePlainFileNames(analysis)
        let loaded = analysis.loaded
        let workingFolder = FileManager.default.currentDirectoryPath
        self.workingFolder = workingFolder
        // Each file's path worked out once (a URI → its file → absolute and standardized),
        // for the existence check, the common folder and its path relative to that folder.
        let path = { (uri: String) in Self.standardized(Self.file(uri), in: workingFolder) }
        var remote = loaded.rootURI.isRemote ? loaded.rootURI : nil
        let rootPath = path(loaded.rootURI)
        var playlistPaths: [String: String] = [:]
        var segmentPaths: [(playlist: String, line: Int, file: String)] = []
        var otherPaths: [String] = []
        var mediaPlaylists = loaded.mediaPlaylists
        // A media playlist given as the input is only in `root`.
        if loaded.root.media != nil { mediaPlaylists[loaded.rootURI] = loaded.root }
        var digestsByPath = [rootPath: loaded.root.sourceDigest]
        for (uri, playlist) in mediaPlaylists {
            let playlistPath = path(uri)
            if uri.isRemote { remote = remote ?? uri }
            playlistPaths[uri] = playlistPath
            digestsByPath[playlistPath] = digestsByPath[playlistPath] ?? playlist.sourceDigest
            guard let media = playlist.media else { continue }
            for segment in media.segments where !segment.gap {
                let file = URIResolver.resolve(segment.uri, against: uri)
                if file.isRemote { remote = remote ?? file }
                segmentPaths.append((playlistPath, segment.uriLine, path(file)))
                for other in [segment.map?.uri, segment.key?.uri].compactMap({ $0 }) {
                    let resolved = URIResolver.resolve(other, against: uri)
                    if resolved.isRemote { remote = remote ?? resolved }
                    otherPaths.append(path(resolved))
                }
            }
        }
        if let remote {
            throw EmbedError("\(remote): embed rewrites local streams only; download the stream first")
        }
        var absolute = Set(segmentPaths.map(\.file))
        absolute.insert(rootPath)
        absolute.formUnion(playlistPaths.values)
        absolute.formUnion(otherPaths)
        if let path = Self.firstMissing(absolute) {
            throw EmbedError(
                "\(path): missing; embed writes complete streams only (hlscheck \(Self.file(loaded.rootURI)) shows what is missing)"
            )
        }
        root = Self.commonFolder(absolute)
        let prefixLength = (root == "/" ? "/" : root + "/").utf8.count
        let relative = { (path: String) in String(Substring(path.utf8.dropFirst(prefixLength))) }
        files = absolute.map(relative).sorted()
        let input = relative(rootPath)
        rootPlaylist = input
        playlists = [input] + mediaPlaylists.keys.sorted().map { relative(playlistPaths[$0]!) }.filter { $0 != input }
        var relativePlaylists: [String: String] = [:]
        segments = segmentPaths.map { segment in
            let playlist = relativePlaylists[segment.playlist] ?? relative(segment.playlist)
            relativePlaylists[segment.playlist] = playlist
            return SegmentReference(playlist: playlist, line: segment.line, file: relative(segment.file))
        }
        otherFiles = Set(otherPaths.map(relative))
        digests = Dictionary(
            digestsByPath.map { (relative($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The bytes of `playlist` (relative to `root`) as they are now, provided they are still
    /// those the analysis read: everything embed writes was computed from them, so a change
    /// another program made meanwhile (a live encoder sliding its window, an editor saving)
    /// would otherwise be overwritten, or get new segment names on the wrong lines.
    func unchangedPlaylist(_ playlist: String, read: () throws(EmbedError) -> [UInt8]?) throws(EmbedError) -> [UInt8] {
        let bytes = try read()
        guard let bytes, let expected = digests[playlist], PlaylistSourceDigest(bytes) == expected else {
            throw EmbedError(
                "\(absolute(playlist)) \(bytes == nil ? "disappeared" : "changed") while embed ran: another program is writing the stream (a live encoder, an editor, another tool); embed stopped before replacing anything — run again when it has finished"
            )
        }
        return bytes
    }

    /// The file `uri` names (a resolved URI of the stream, absolute or relative to the working
    /// folder) relative to `root`.
    func relative(_ uri: String) -> String {
        let prefix = root == "/" ? "/" : root + "/"
        return String(Self.standardized(Self.file(uri), in: workingFolder).dropFirst(prefix.count))
    }

    /// The path of the local file a resolved URI names (`LocalFileName`): the stream's URIs
    /// are URI references (a folder typed as "Stream #1" is "Stream %231" in them), files are
    /// opened and written by path.
    /// The folder that holds the written copy's files as `root` holds the input's: the output
    /// folder for a copy (`output` is its copy of the input playlist), `root` in place.
    func outputRoot(_ output: String) -> String {
        output.hasSuffix("/" + rootPlaylist) ? String(output.dropLast(rootPlaylist.count + 1)) : root
    }

    static func file(_ uri: String) -> String {
        LocalPath.name(of: uri).flatMap { $0.refusal == nil ? $0.path : nil } ?? uri
    }

    /// `path` made absolute (against the working folder) with "." and ".." resolved and repeated
    /// slashes dropped, by its text only — what `URL.standardizedFileURL.path` gives, without
    /// building a URL for each of a long stream's segments (links are not followed either way).
    static func standardized(_ path: String, in workingFolder: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingFolder + "/" + path
        // Most paths are standardized already: told by one walk over their bytes, not split and
        // joined again.
        if isStandardized(absolute) { return absolute }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `path` is what `standardized` would make of it: absolute, with no empty, "." or
    /// ".." component and no slash at its end.
    static func isStandardized(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var bytes = path.utf8.makeIterator()
        guard bytes.next() == slash else { return false }
        // The current component's length, and how many of its bytes are dots.
        var length = 0, dots = 0
        func isPlain() -> Bool { length > 0 && !(dots == length && length <= 2) }
        while let byte = bytes.next() {
            if byte == slash {
                guard isPlain() else { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        return path.utf8.count == 1 || isPlain()
    }

    /// The nearest folder that holds all `paths` (absolute, standardized).
    /// The first (in sorted order) of `paths` (absolute) that names nothing, links followed as
    /// access(2) follows them; nil when all exist. Each folder is opened once and its files looked up in it: a
    /// stream's thousands of files live in a handful of folders, and a lookup of one name costs
    /// a fraction of a walk down the whole path.
    static func firstMissing(_ paths: some Sequence<String>) -> String? {
        var byFolder: [String: [(path: String, name: String)]] = [:]
        for path in paths {
            let (folder, name) = Tree.split(path)
            byFolder[folder, default: []].append((path, name))
        }
        var missing: [String] = []
        // One folder open at a time: a stream may have more folders than a process may hold open.
        for (folder, files) in byFolder {
            let descriptor = systemOpenFolder(folder.isEmpty ? "/" : folder)
            defer { if descriptor >= 0 { close(descriptor) } }
            for (path, name) in files {
                // A folder we may search but not read (mode 0711) is not opened: access(2) then.
                let exists =
                    descriptor >= 0 && !name.isEmpty
                    ? faccessat(descriptor, name, F_OK, 0) == 0 : access(path, F_OK) == 0
                if !exists { missing.append(path) }
            }
        }
        return missing.min()
    }

    static func commonFolder<Paths: Collection<String>>(_ paths: Paths) -> String {
        // Each distinct folder once: a stream's thousands of files live in a handful of them.
        let parents = Set(paths.map { path in Tree.split(path).folder })
        let folders = parents.sorted().map { $0.split(separator: "/").map(String.init) }
        var common = folders.first ?? []
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
    }

    func absolute(_ relative: String) -> String {
        PathString.join(root, relative)
    }
}

extension String {
    /// A URI of another scheme than `file:` (embed rewrites local files only).
    fileprivate var isRemote: Bool {
        // "://" looked for among the bytes (':' is not '/': a mismatch restarts the match at
        // most at a colon).
        var matched = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ":") {
                matched = 1
            } else if byte == UInt8(ascii: "/"), matched > 0 {
                matched += 1
                if matched == 3 { return !hasPrefix("file://") }
            } else {
                matched = 0
            }
        }
        return false
    }
}
