import HLSPlaylist

extension StreamAnalysis {
    /// The media playlists of the stream that were read, with their resolved URIs, in URI order:
    /// the variants', the renditions' and the I-frame streams'. Each file once, however many
    /// spellings name it (`LoadedStream.distinctMediaPlaylists`): a rule judges a file once.
    var mediaPlaylists: [(uri: String, playlist: Playlist, media: MediaPlaylist)] {
        if let media = root.media { return [(loaded.rootURI, root, media)] }
        return loaded.distinctMediaPlaylists.compactMap { uri, playlist in
            playlist.media.map { (uri, playlist, $0) }
        }
    }

    /// The media playlists the multivariant playlist names (variants, renditions, I-frame
    /// streams) that were read, in URI order; empty when the input is a media playlist, whose
    /// siblings hlscheck does not see.
    var siblingMediaPlaylists: [(uri: String, playlist: Playlist, media: MediaPlaylist)] {
        multivariant == nil ? [] : mediaPlaylists
    }

    /// Whether every media playlist is complete (EXT-X-ENDLIST): all of them then start at the
    /// start of the presentation and can be compared position by position.
    var isEnded: Bool {
        let playlists = siblingMediaPlaylists
        return !playlists.isEmpty && playlists.allSatisfy(\.media.endList)
    }

    /// A short name for a media playlist in a message: its URI as resolved, relative to the root's
    /// folder where it lies below it.
    func shortName(ofPlaylist uri: String) -> String {
        // Resolved URIs drop a leading "./" that the root's may keep.
        var root = Substring(loaded.rootURI)
        while root.hasPrefix("./") { root = root.dropFirst(2) }
        guard let slash = root.lastIndex(of: "/") else { return uri }
        let folder = root[...slash]
        return uri.hasPrefix(folder) ? String(uri.dropFirst(folder.count)) : uri
    }
}
