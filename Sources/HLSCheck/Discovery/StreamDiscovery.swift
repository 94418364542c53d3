import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
package import HLSPlaylist
internal import MediaFormats
import FileSystem

/// Finds the streams to check in the paths a user gives: a playlist is checked as given; a folder
/// is searched for multivariant playlists — playlists that no other playlist in the
/// tree references — skipping hidden folders and the ignore patterns of the configuration.
package enum StreamDiscovery {
    /// The playlists to check for `paths`, each once: a file as given, a URL as given, a folder's
    /// multivariant playlists (see `unreferencedPlaylists(in:ignore:)`) minus those `ignore`
    /// matches. Throws `CheckError` for a local path that does not exist.
    package static func inputs(_ paths: [String], ignore: (String) -> Bool = { _ in false }) throws(CheckError)
        -> [String]
    {
        var discovered = DiscoveredPlaylists(budget: 0)
        return try inputs(paths, ignore: ignore, keeping: &discovered)
    }

    /// As `inputs(_:ignore:)`, keeping in `discovered` (within its budget) the playlists a
    /// folder's discovery read, for the check to use instead of reading them again.
    package static func inputs(
        _ paths: [String], ignore: (String) -> Bool = { _ in false }, keeping discovered: inout DiscoveredPlaylists
    ) throws(CheckError) -> [String] {
        var result: [String] = []
        for path in paths {
            // stat(2) follows symbolic links, as FileManager.fileExists(atPath:isDirectory:) does.
            var info = stat()
            guard stat(path, &info) == 0 else {
                if path.contains("://") { result.append(path); continue }
                throw CheckError("\(TerminalText.escaped(path)): no such file or folder")
            }
            result +=
                (info.st_mode & S_IFMT) == S_IFDIR
                ? try unreferencedPlaylists(in: path, ignore: ignore, keeping: &discovered) : [path]
        }
        // The same playlist named twice (or found twice) is checked once.
        var seen = Set<String>()
        return result.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The playlists under `folder` that no other playlist there references, sorted. Only
    /// regular files count (a FIFO named `live.m3u8` is skipped, never opened for reading);
    /// symbolic links to folders are not followed, so a link loop cannot make the walk endless.
    package static func unreferencedPlaylists(
        in folder: String, ignore: (String) -> Bool
    ) throws(CheckError) -> [String] {
        var discovered = DiscoveredPlaylists(budget: 0)
        return try unreferencedPlaylists(in: folder, ignore: ignore, keeping: &discovered)
    }

    /// As `unreferencedPlaylists(in:ignore:)`, keeping the playlists it read in `discovered`
    /// (within its budget).
    package static func unreferencedPlaylists(
        in folder: String, ignore: (String) -> Bool, keeping discovered: inout DiscoveredPlaylists
    ) throws(CheckError) -> [String] {
        guard let files = Self.filesBelow(folder) else {
            throw CheckError("\(TerminalText.escaped(folder)): cannot list the folder")
        }
        var playlists: [String] = []
        for relative in files {
            let ext = PathString.pathExtension(relative).lowercased()
            guard ext == "m3u8" || ext == "m3u" else { continue }
            // Keep the user's spelling of the folder so report paths read like their input.
            let path = PathString.join(folder, relative)
            if !ignore(path) && isRegularFile(path) { playlists.append(path) }
        }
        var referenced = Set<String>()
        for path in playlists {
            // The file's stamp before and after the read: bytes kept for the check are the file's
            // whole content at a moment its stamp names, and are used only while it still does.
            // The file read must be the one stamped: a symbolic link swapped between realpath and
            // open would otherwise keep one file's bytes under another's name.
            let real = RegularFile.realPath(path)
            let before = real.flatMap(PlaylistFileStamp.init(path:))
            guard let file = try? RegularFile(path: path),
                let bytes = try? file.readAll(maximumBytes: maximumPlaylistSize, limitHint: "--max-playlist-bytes")
            else { continue }
            if let real, let before, file.identity.device == before.device, file.identity.inode == before.inode,
                PlaylistFileStamp(path: real) == before
            {
                discovered.keep(bytes, realPath: real, stamp: before)
            }
            // Only a multivariant playlist references playlists: the media playlists (most of the
            // bytes) need no parse here; the check parses them once.
            guard Self.mayReferencePlaylists(bytes) else { continue }
            // A listed path is a file path: its URI (the base of its references, and the
            // playlist's URI the check expects) is made by `ResolutionBase`.
            let base = ResolutionBase.filePath(path)
            let playlist = PlaylistParser.parse(bytes, uri: base.uriReference)
            guard let multivariant = playlist.multivariant else { continue }
            // The check of this playlist (when it is a stream's root) takes this parse too.
            if let real { discovered.keep(playlist, realPath: real) }
            let uris =
                multivariant.variants.map(\.uri) + multivariant.iFrameVariants.map(\.uri)
                + multivariant.renditions.compactMap(\.uri)
            for uri in uris {
                // Compared with listed paths: the file each URI names (`LocalFileName`).
                let resolved = URIResolver.resolve(uri, against: base)
                referenced.insert(standard(LocalPath.path(of: resolved) ?? resolved))
            }
        }
        return playlists.filter { !referenced.contains(standard($0)) }.sorted()
    }

    /// The multivariant playlists in the folder of `playlist` (a media playlist's path) and in the
    /// folder above it that reference it: where its stream's multivariant playlist probably is,
    /// when a media playlist was given as the input. Sorted by path; each file is read once,
    /// within the playlist size limit, and only one that can reference playlists is parsed.
    package static func multivariantPlaylists(
        referencing playlist: String, maximumBytes: Int = maximumPlaylistSize,
        index: MultivariantPlaylistIndex = MultivariantPlaylistIndex()
    ) -> [String] {
        let target = standard(playlist)
        let folder = PathString.parent(playlist)
        let parent = folder.isEmpty ? ".." : PathString.parent(folder)
        var seen = Set<String>()
        var found: [String] = []
        for directory in [folder, parent] where seen.insert(standard(directory.isEmpty ? "." : directory)).inserted {
            for entry in index.playlists(in: directory, maximumBytes: maximumBytes)
            where entry.standardPath != target && entry.references.contains(target) {
                found.append(entry.path)
            }
        }
        return found.sorted()
    }

    /// The multivariant playlists directly in `directory`, each with the files its variants,
    /// I-frame streams and renditions name (standardized paths).
    static func multivariantPlaylists(in directory: String, maximumBytes: Int) -> [MultivariantPlaylistIndex.Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        var entries: [MultivariantPlaylistIndex.Entry] = []
        for name in names.sorted() where ["m3u8", "m3u"].contains(PathString.pathExtension(name).lowercased()) {
            let path = directory.isEmpty ? name : PathString.join(directory, name)
            guard isRegularFile(path),
                let file = try? RegularFile(path: path),
                let bytes = try? file.readAll(maximumBytes: maximumBytes, limitHint: "--max-playlist-bytes"),
                mayReferencePlaylists(bytes)
            else { continue }
            let base = ResolutionBase.filePath(path)
            guard let multivariant = PlaylistParser.parse(bytes, uri: base.uriReference).multivariant else { continue }
            let uris =
                multivariant.variants.map(\.uri) + multivariant.iFrameVariants.map(\.uri)
                + multivariant.renditions.compactMap(\.uri)
            let references = Set(
                uris.map { uri in
                    let resolved = URIResolver.resolve(uri, against: base)
                    return standard(LocalPath.path(of: resolved) ?? resolved)
                })
            entries.append(
                MultivariantPlaylistIndex.Entry(path: path, standardPath: standard(path), references: references))
        }
        return entries
    }

    /// Whether `bytes` hold a tag that can reference a playlist (RFC 8216 §4.3.4.1-4.3.4.3:
    /// EXT-X-MEDIA, EXT-X-STREAM-INF, EXT-X-I-FRAME-STREAM-INF; tag names are case-sensitive,
    /// §4.1). Without one, a parse would find no playlist URI, so none is needed.
    static func mayReferencePlaylists(_ bytes: [UInt8]) -> Bool {
        let prefix = Array("#EXT-X-".utf8)
        let names = ["STREAM-INF", "I-FRAME-STREAM-INF", "MEDIA"].map { Array($0.utf8) }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index + prefix.count <= count {
                // Find the next "#EXT-X-" quickly: '#' is rare outside tag lines.
                guard buffer[index] == UInt8(ascii: "#") else { index += 1; continue }
                var matches = true
                for offset in 1..<prefix.count where buffer[index + offset] != prefix[offset] { matches = false; break }
                if matches {
                    let start = index + prefix.count
                    for name in names where start + name.count <= count {
                        var same = true
                        for offset in 0..<name.count where buffer[start + offset] != name[offset] {
                            same = false; break
                        }
                        // "#EXT-X-MEDIA-SEQUENCE" and friends are media playlist tags.
                        if same, start + name.count == count || buffer[start + name.count] != UInt8(ascii: "-") {
                            return true
                        }
                    }
                }
                index += 1
            }
            return false
        }
    }

    /// A regular file, or a symlink to one (stat follows the link).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a folder (following links).
    /// Every entry under `folder` that is not a folder, as a path relative to it, hidden entries
    /// (a name starting with ".") and their contents left out; nil when `folder` cannot be listed.
    /// A symbolic link to a folder is neither listed nor followed, so a link loop cannot make the
    /// walk endless; a folder that cannot be read is passed over.
    static func filesBelow(_ folder: String) -> [String]? {
        var files: [String] = []
        var pending: [String] = [""]  // folders to list, relative to `folder`
        var first = true
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? (folder.isEmpty ? "." : folder) : PathString.join(folder, relative)
            guard let directory = opendir(path) else {
                if first { return nil }
                continue
            }
            first = false
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard fstatat(dirfd(directory), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(child)
                case S_IFLNK: if !isFolder(PathString.join(folder, child)) { files.append(child) }
                default: files.append(child)
                }
            }
        }
        return files.sorted()
    }

    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func standard(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The K-th of N deterministic slices (K from 1): every N-th input starting at the K-th, so a
    /// CI matrix of N jobs checks each input exactly once.
    package static func shard(_ inputs: [String], index: Int, count: Int) -> [String] {
        inputs.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}

/// Glob patterns as in `.gitignore`-style configuration: `*` and `?` within a path component,
/// `**` across components. Patterns are relative to `base`.
package struct IgnorePatterns: Sendable {
    /// The folder the patterns are relative to.
    package var base: String
    /// The glob patterns.
    package var patterns: [String]

    /// Makes a matcher for `patterns` relative to `base`.
    package init(base: String, patterns: [String]) {
        self.base = base
        self.patterns = patterns
    }

    /// Whether `path` lies under `base` and one of the patterns matches its path relative to `base`.
    package func matches(_ path: String) -> Bool {
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: base).standardizedFileURL.path
        guard full.hasPrefix(root + "/") else { return false }
        let relative = Array(full.dropFirst(root.count + 1).split(separator: "/").map(String.init))
        return patterns.contains { pattern in
            Self.match(pattern.split(separator: "/").map { ComponentGlob(String($0)) }, relative[...])
        }
    }

    /// Whether the pattern's components match the path's, `**` matching any number of them.
    /// One pass over the pattern, keeping the path prefixes matched so far: patterns × components
    /// steps whatever the number of `**` (trying each split recursively is exponential in it).
    static func match(_ pattern: [ComponentGlob], _ path: ArraySlice<String>) -> Bool {
        let path = Array(path)
        // matched[j]: the pattern's components so far match the path's first j components.
        var matched = [Bool](repeating: false, count: path.count + 1)
        matched[0] = true
        for component in pattern {
            var next = [Bool](repeating: false, count: path.count + 1)
            if component.isAnyComponents {
                var any = false
                for index in 0...path.count {
                    any = any || matched[index]
                    next[index] = any
                }
            } else {
                for index in path.indices where matched[index] && component.matches(path[index]) {
                    next[index + 1] = true
                }
            }
            matched = next
        }
        return matched[path.count]
    }
}

/// Playlists that folder discovery read, kept so that the check reads each file once.
/// Bounded: past `budget` bytes, further playlists are not kept and the check reads them as usual.
/// Each is kept with its file's stamp (device, inode, size, modification and change times), and
/// used only while the file still has it: a playlist changed between discovery and the check is
/// read again.
package struct DiscoveredPlaylists: Sendable {
    /// Bytes kept at most (default 64 MiB, a few hundred ordinary playlists).
    package var budget: Int
    /// Bytes kept so far.
    package private(set) var keptBytes = 0
    private var files: [String: (stamp: PlaylistFileStamp, bytes: [UInt8], playlist: Playlist?)] = [:]

    /// An empty set that keeps at most `budget` bytes.
    package init(budget: Int = 64 << 20) {
        self.budget = budget
    }

    /// The number of playlists kept.
    package var count: Int { files.count }

    mutating func keep(_ bytes: [UInt8], realPath: String, stamp: PlaylistFileStamp) {
        guard files[realPath] == nil, keptBytes + bytes.count <= budget else { return }
        files[realPath] = (stamp, bytes, nil)
        keptBytes += bytes.count
    }

    /// The parse of the kept bytes at `realPath` (a multivariant playlist: small next to its
    /// bytes), parsed with no imported variables.
    mutating func keep(_ playlist: Playlist, realPath: String) {
        files[realPath]?.playlist = playlist
    }

    /// The kept parse and bytes of the file at `realPath`, if it still has the stamp it had when
    /// read.
    func parsed(atRealPath realPath: String) -> (bytes: [UInt8], playlist: Playlist)? {
        guard let file = files[realPath], let playlist = file.playlist, PlaylistFileStamp(path: realPath) == file.stamp
        else { return nil }
        return (file.bytes, playlist)
    }

    /// The kept bytes of the file at `realPath`, if it still has the stamp it had when read.
    func bytes(atRealPath realPath: String) -> [UInt8]? {
        guard let file = files[realPath], PlaylistFileStamp(path: realPath) == file.stamp else { return nil }
        return file.bytes
    }
}

/// What identifies one content of a file without reading it: device, inode, size, and the
/// modification and change times in nanoseconds (a rewrite in place changes the times, a
/// replacement the inode).
struct PlaylistFileStamp: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    /// The stamp of the regular file at `path` (following symlinks); nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}

/// Local files, served from what discovery kept when it is still current, else read from disk by
/// `LocalFileSource` (same limits, same messages).
package struct DiscoveredPlaylistSource: PlaylistSource {
    /// What discovery kept.
    package var discovered: DiscoveredPlaylists
    /// Where everything else, and every kept file that changed, is read from.
    package var base: LocalFileSource

    /// A source over `discovered`, reading the rest with `base`.
    package init(discovered: DiscoveredPlaylists, base: LocalFileSource = LocalFileSource()) {
        self.discovered = discovered
        self.base = base
    }

    package func read(_ uri: String) async throws -> [UInt8] {
        if discovered.count > 0, let path = LocalPath.path(of: uri), let real = RegularFile.realPath(path),
            let bytes = discovered.bytes(atRealPath: real), bytes.count <= base.maximumSize
        {
            return bytes
        }
        return try await base.read(uri)
    }

    package func canonicalName(_ uri: String) async -> String? {
        await base.canonicalName(uri)
    }

    /// A multivariant playlist discovery parsed, while its file is unchanged: the loader checks
    /// that it was parsed under the same URI.
    package func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)? {
        guard discovered.count > 0, let path = LocalPath.path(of: uri), let real = RegularFile.realPath(path),
            let handed = discovered.parsed(atRealPath: real), handed.bytes.count <= base.maximumSize
        else { return nil }
        return handed
    }
}

/// The multivariant playlists of each folder a run looked in for the one that references a
/// media playlist given as input (`CheckReport.multivariantPlaylists`): each folder is read once
/// per run, however many of its media playlists are checked, so checking N media playlists of
/// one folder reads the folder once, not N times.
package final class MultivariantPlaylistIndex: Sendable {
    struct Entry: Sendable {
        var path: String
        var standardPath: String
        var references: Set<String>
    }

    private let folders = Mutex<[String: [Entry]]>([:])

    package init() {}

    func playlists(in directory: String, maximumBytes: Int) -> [Entry] {
        let key = StreamDiscovery.standard(directory.isEmpty ? "." : directory) + "\u{0}\(maximumBytes)"
        if let known = folders.withLock({ $0[key] }) { return known }
        // Read outside the lock: two checks that ask at once may both read the folder, and keep
        // the same answer.
        let entries = StreamDiscovery.multivariantPlaylists(in: directory, maximumBytes: maximumBytes)
        folders.withLock { $0[key] = entries }
        return entries
    }
}
