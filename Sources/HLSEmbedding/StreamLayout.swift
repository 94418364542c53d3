import Foundation
import HLSCheck
import HLSPlaylist

/// Every local file a stream consists of — its playlists, segments, initialization sections and
/// keys — relative to the folder that holds them all (their nearest common ancestor).
struct StreamLayout: Sendable {
    /// Absolute, standardized path of the common folder.
    var root: String
    /// The smallest folder holding the input playlist and every file the rewrite changes: what
    /// `--in-place` stages and swaps (files outside it, such as variants the input shares with
    /// other streams through `../`, are not touched).
    var changeRoot: String
    /// The input playlist, relative to `root`.
    var rootPlaylist: String
    /// Every file, relative to `root`, sorted.
    var files: [String]

    init(_ analysis: StreamAnalysis, changing: [String]) throws(EmbedError) {
        let loaded = analysis.loaded
        var paths = [loaded.rootURI]
        for (uri, playlist) in loaded.mediaPlaylists {
            paths.append(uri)
            guard let media = playlist.media else { continue }
            for segment in media.segments where !segment.gap {
                paths.append(URIResolver.resolve(segment.uri, against: uri))
                if let map = segment.map { paths.append(URIResolver.resolve(map.uri, against: uri)) }
                if let key = segment.key?.uri { paths.append(URIResolver.resolve(key, against: uri)) }
            }
        }
        if let remote = paths.first(where: { $0.contains("://") }) {
            throw EmbedError("\(remote): embed rewrites local streams only; download the stream first")
        }
        let absolute = Set(paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        for path in absolute where !FileManager.default.fileExists(atPath: path) {
            throw EmbedError("\(path): missing; embed writes complete streams only (hlscheck \(loaded.rootURI) shows what is missing)")
        }
        root = Self.commonFolder(absolute)
        changeRoot = Self.commonFolder(([loaded.rootURI] + changing).map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let prefix = root == "/" ? "/" : root + "/"
        files = absolute.map { String($0.dropFirst(prefix.count)) }.sorted()
        rootPlaylist = String(URL(fileURLWithPath: loaded.rootURI).standardizedFileURL.path.dropFirst(prefix.count))
    }

    /// The nearest folder that holds all `paths` (absolute, standardized).
    static func commonFolder<Paths: Collection<String>>(_ paths: Paths) -> String {
        let folders = paths.map { ($0 as NSString).deletingLastPathComponent.split(separator: "/").map(String.init) }
        var common = folders.first ?? []
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
    }

    func absolute(_ relative: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }
}
