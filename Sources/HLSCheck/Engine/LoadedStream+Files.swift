import HLSPlaylist

extension LoadedStream {
    /// The local files a check of this stream reads, by path: its playlists, and the segments,
    /// initialization sections (EXT-X-MAP) and keys (EXT-X-KEY) its media playlists name,
    /// resolved against the playlist that names them (where it was found). URLs are left out.
    /// One pass over the playlists; a key or map in force for many segments is listed once.
    package var localFilesRead: [String] {
        var seen: Set<String> = []
        var files: [String] = []
        func add(_ uri: String) {
            guard let path = LocalPath.path(of: uri), seen.insert(path).inserted else { return }
            files.append(path)
        }
        for playlist in [root] + mediaPlaylists.keys.sorted().compactMap({ mediaPlaylists[$0] }) {
            add(playlist.uri)
            guard let media = playlist.media else { continue }
            var lastKey: String?
            var lastMap: String?
            for segment in media.segments {
                add(URIResolver.resolve(segment.uri, against: playlist.uri))
                if let key = segment.key?.uri, key != lastKey {
                    lastKey = key
                    add(URIResolver.resolve(key, against: playlist.uri))
                }
                if let map = segment.map?.uri, map != lastMap {
                    lastMap = map
                    add(URIResolver.resolve(map, against: playlist.uri))
                }
            }
        }
        return files
    }
}
