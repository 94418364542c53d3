public import HLSPlaylist

/// A rendition of an EXT-X-MEDIA group, with its playlist when it has one and it could be read.
public struct RenditionAnalysis: Sendable, Hashable {
    public var rendition: Rendition
    /// Resolved URI of the rendition's media playlist, nil when it has none (muxed into the variant).
    public var playlistURI: String?
    public var playlist: MediaPlaylist?
}

/// One variant stream of the multivariant playlist — or the single media playlist that was given
/// as input — with everything the rules need to judge it.
public struct VariantAnalysis: Sendable, Hashable {
    /// The URI as written in the multivariant playlist (or as given on the command line).
    public var uri: String
    /// The URI resolved against its referrer; the key of `LoadedStream.mediaPlaylists`.
    public var playlistURI: String
    /// The EXT-X-STREAM-INF, nil when the input is a media playlist.
    public var stream: VariantStream?
    /// Where the variant is declared: its EXT-X-STREAM-INF line, or line 1 of a media playlist.
    public var location: SourceLocation
    /// The media playlist, nil when it could not be read.
    public var playlist: MediaPlaylist?
    public var audioRenditions: [RenditionAnalysis]
    public var videoRenditions: [RenditionAnalysis]

    /// Audio-only by declaration: CODECS lists only audio codecs; without CODECS, no RESOLUTION
    /// and no VIDEO rendition group. Media inspection refines this with what the segments hold.
    public var isAudioOnly: Bool {
        guard let stream else { return false }
        if let codecs = stream.codecs, !codecs.isEmpty {
            let kinds = codecs.map(CodecKind.init(codec:))
            return kinds.contains(.audio) && !kinds.contains(.video)
        }
        return stream.resolution == nil && videoRenditions.isEmpty
    }

    public var declaredBandwidth: Int? { stream?.bandwidth }
    public var declaredAverageBandwidth: Int? { stream?.averageBandwidth }
}

/// The loaded stream seen as variants. Built once by the checker, read by every rule.
public struct StreamAnalysis: Sendable {
    public var loaded: LoadedStream
    public var variants: [VariantAnalysis]

    public var root: Playlist { loaded.root }
    public var multivariant: MultivariantPlaylist? { loaded.root.multivariant }

    /// Every playlist that was read, root first, then media playlists in URI order.
    public var playlists: [Playlist] {
        [loaded.root] + loaded.mediaPlaylists.keys.sorted().compactMap { loaded.mediaPlaylists[$0] }
    }

    public init(loaded: LoadedStream) {
        self.loaded = loaded
        let root = loaded.root
        guard let master = root.multivariant else {
            variants = [
                VariantAnalysis(
                    uri: loaded.rootURI, playlistURI: loaded.rootURI, stream: nil,
                    location: root.location(line: 1), playlist: root.media,
                    audioRenditions: [], videoRenditions: [])
            ]
            return
        }
        func renditions(_ type: MediaType, _ group: String?) -> [RenditionAnalysis] {
            guard let group else { return [] }
            return master.renditions(ofType: type, group: group).map { rendition in
                let uri = rendition.uri.map { URIResolver.resolve($0, against: loaded.rootURI) }
                return RenditionAnalysis(
                    rendition: rendition, playlistURI: uri,
                    playlist: uri.flatMap { loaded.mediaPlaylists[$0]?.media })
            }
        }
        variants = master.variants.map { variant in
            let resolved = URIResolver.resolve(variant.uri, against: loaded.rootURI)
            return VariantAnalysis(
                uri: variant.uri, playlistURI: resolved, stream: variant,
                location: root.location(line: variant.line),
                playlist: loaded.mediaPlaylists[resolved]?.media,
                audioRenditions: renditions(.audio, variant.audioGroup),
                videoRenditions: renditions(.video, variant.videoGroup))
        }
    }
}
