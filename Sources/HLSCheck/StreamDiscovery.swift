import Foundation
import HLSPlaylist
internal import MediaFormats

/// Finds the streams to check in the paths a user gives: a playlist is checked as given; a folder
/// is searched for multivariant ("master") playlists — playlists that no other playlist in the
/// tree references — skipping hidden folders and the ignore patterns of the configuration.
public enum StreamDiscovery {
    /// The playlists to check for `paths`, each once: a file as given, a URL as given, a folder's
    /// multivariant playlists (see `masters(in:ignore:)`) minus those `ignore` matches. Throws
    /// `CheckError` for a local path that does not exist.
    public static func inputs(_ paths: [String], ignore: (String) -> Bool = { _ in false }) throws(CheckError) -> [String] {
        var result: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if path.contains("://") { result.append(path); continue }
                throw CheckError("\(TerminalText.escaped(path)): no such file or folder")
            }
            result += isDirectory.boolValue ? try masters(in: path, ignore: ignore) : [path]
        }
        // The same playlist named twice (or found twice) is checked once.
        var seen = Set<String>()
        return result.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The playlists under `folder` that no other playlist there references, sorted. Only
    /// regular files count (a FIFO named `live.m3u8` is skipped, never opened for reading);
    /// symbolic links to folders are not followed, so a link loop cannot make the walk endless.
    public static func masters(in folder: String, ignore: (String) -> Bool) throws(CheckError) -> [String] {
        let root = URL(fileURLWithPath: folder)
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey, .isDirectoryKey],
            options: [.skipsHiddenFiles])
        else { throw CheckError("\(TerminalText.escaped(folder)): cannot list the folder") }
        var playlists: [String] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isSymbolicLinkKey, .isDirectoryKey])
            if values?.isSymbolicLink == true, values?.isDirectory == true || isFolder(url.path) {
                walker.skipDescendants()
                continue
            }
            let ext = url.pathExtension.lowercased()
            guard ext == "m3u8" || ext == "m3u" else { continue }
            // Keep the user's spelling of the folder so report paths read like their input.
            let relative = String(url.path.dropFirst(root.standardizedFileURL.path.count).drop { $0 == "/" })
            let path = (folder as NSString).appendingPathComponent(relative)
            if !ignore(path) && isRegularFile(path) { playlists.append(path) }
        }
        var referenced = Set<String>()
        for path in playlists {
            guard let bytes = try? RegularFile(path: path).readAll(maximumBytes: maximumPlaylistSize, limitHint: "--max-playlist-bytes")
            else { continue }
            let playlist = PlaylistParser.parse(bytes, uri: path)
            guard let master = playlist.multivariant else { continue }
            let uris = master.variants.map(\.uri) + master.iFrameVariants.map(\.uri) + master.renditions.compactMap(\.uri)
            for uri in uris {
                referenced.insert(standard(URIResolver.resolve(uri, against: path)))
            }
        }
        return playlists.filter { !referenced.contains(standard($0)) }.sorted()
    }

    /// A regular file, or a symlink to one (stat follows the link).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a folder (following links).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func standard(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The K-th of N deterministic slices (K from 1): every N-th input starting at the K-th, so a
    /// CI matrix of N jobs checks each input exactly once.
    public static func shard(_ inputs: [String], index: Int, count: Int) -> [String] {
        inputs.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}

/// Glob patterns as in `.gitignore`-style configuration: `*` and `?` within a path component,
/// `**` across components. Patterns are relative to `base`.
public struct IgnorePatterns: Sendable {
    /// The folder the patterns are relative to.
    public var base: String
    /// The glob patterns.
    public var patterns: [String]

    /// Makes a matcher for `patterns` relative to `base`.
    public init(base: String, patterns: [String]) {
        self.base = base
        self.patterns = patterns
    }

    /// Whether `path` lies under `base` and one of the patterns matches its path relative to `base`.
    public func matches(_ path: String) -> Bool {
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: base).standardizedFileURL.path
        guard full.hasPrefix(root + "/") else { return false }
        let relative = Array(full.dropFirst(root.count + 1).split(separator: "/").map(String.init))
        return patterns.contains { pattern in
            Self.match(Array(pattern.split(separator: "/").map(String.init)), relative[...])
        }
    }

    static func match(_ pattern: [String], _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        let rest = Array(pattern.dropFirst())
        if first == "**" {
            // `**` matches zero or more components.
            return path.indices.contains { match(rest, path[$0...]) } || match(rest, path[path.endIndex...])
        }
        guard let component = path.first, fnmatch(first, component, 0) == 0 else { return false }
        return match(rest, path.dropFirst())
    }
}
