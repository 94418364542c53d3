public import HLSPlaylist

/// A rendition of an EXT-X-MEDIA group, with its playlist when it has one and it could be read.
public struct RenditionAnalysis: Sendable, Hashable {
    public var rendition: Rendition
    /// Resolved URI of the rendition's media playlist, nil when it has none (muxed into the variant).
    public var playlistURI: String?
    public var playlist: MediaPlaylist?
    public var measurement: PlaylistMeasurement?
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
    /// What the variant's own segments hold; nil with `--playlist-only` or when unreadable.
    public var measurement: PlaylistMeasurement?

    /// Audio-only by declaration: CODECS lists only audio codecs; without CODECS, no RESOLUTION
    /// and no VIDEO rendition group.
    public var isDeclaredAudioOnly: Bool {
        if let codecs = stream?.codecs, !codecs.isEmpty {
            let kinds = codecs.map(CodecKind.init(codec:))
            return kinds.contains(.audio) && !kinds.contains(.video)
        }
        if let stream { return stream.resolution == nil && videoRenditions.isEmpty }
        return false
    }

    /// Audio-only by content when the segments were inspected — audio and no video, in the
    /// variant and its renditions — else by declaration.
    public var isAudioOnly: Bool {
        let measured = ([measurement] + (audioRenditions + videoRenditions).map(\.measurement)).compactMap { $0 }
        guard measured.contains(where: { !$0.inspectedRecords.isEmpty }) else { return isDeclaredAudioOnly }
        return measured.contains(where: \.containsAudio) && !measured.contains(where: \.containsVideo)
    }

    public var declaredBandwidth: Int? { stream?.bandwidth }
    public var declaredAverageBandwidth: Int? { stream?.averageBandwidth }

    /// The rendition of the audio group with the highest peak (what BANDWIDTH must cover).
    var largestAudioRendition: PlaylistMeasurement? {
        audioRenditions.compactMap(\.measurement).max { ($0.peakBitrate ?? 0) < ($1.peakBitrate ?? 0) }
    }

    /// Peak of the variant's own segments plus the largest audio rendition (docs/measurement.md).
    public var measuredPeakBitrate: Int? {
        guard let own = measurement?.peakBitrate else { return nil }
        // Saturating: either may be Int.max after an absurd EXTINF (BitrateWindow).
        let (sum, overflow) = own.addingReportingOverflow(largestAudioRendition?.peakBitrate ?? 0)
        return overflow ? .max : sum
    }

    public var measuredAverageBitrate: Int? {
        guard let own = measurement?.averageBitrate else { return nil }
        // Saturating: either may be Int.max after an absurd EXTINF (BitrateWindow).
        let (sum, overflow) = own.addingReportingOverflow(largestAudioRendition?.averageBitrate ?? 0)
        return overflow ? .max : sum
    }

    /// RFC 6381 codec strings found in the variant's and its renditions' segments.
    public var detectedCodecs: [String] {
        let all = ([measurement] + (audioRenditions + videoRenditions).map(\.measurement)).compactMap { $0 }
        return Array(Set(all.flatMap(\.codecs))).sorted()
    }
}

/// The loaded stream seen as variants. Built once by the checker, read by every rule.
public struct StreamAnalysis: Sendable {
    public var loaded: LoadedStream
    public var variants: [VariantAnalysis]
    /// Measurements of every inspected media playlist, keyed by resolved URI.
    public var measurements: [String: PlaylistMeasurement]

    public var root: Playlist { loaded.root }
    public var multivariant: MultivariantPlaylist? { loaded.root.multivariant }

    /// Every playlist that was read, root first, then media playlists in URI order.
    public var playlists: [Playlist] {
        [loaded.root] + loaded.mediaPlaylists.keys.sorted().compactMap { loaded.mediaPlaylists[$0] }
    }

    /// The media playlists whose segments the checker measures: variants and their renditions.
    public static func playlistsToMeasure(_ loaded: LoadedStream) -> [String: MediaPlaylist] {
        let analysis = StreamAnalysis(loaded: loaded)
        var result: [String: MediaPlaylist] = [:]
        for variant in analysis.variants {
            if let playlist = variant.playlist { result[variant.playlistURI] = playlist }
            for rendition in variant.audioRenditions + variant.videoRenditions {
                if let uri = rendition.playlistURI, let playlist = rendition.playlist { result[uri] = playlist }
            }
        }
        return result
    }

    public init(loaded: LoadedStream, measurements: [String: PlaylistMeasurement] = [:]) {
        self.loaded = loaded
        self.measurements = measurements
        let root = loaded.root
        guard let master = root.multivariant else {
            variants = [
                VariantAnalysis(
                    uri: loaded.rootURI, playlistURI: loaded.rootURI, stream: nil,
                    location: root.location(line: 1), playlist: root.media,
                    audioRenditions: [], videoRenditions: [], measurement: measurements[loaded.rootURI])
            ]
            return
        }
        func renditions(_ type: MediaType, _ group: String?) -> [RenditionAnalysis] {
            guard let group else { return [] }
            return master.renditions(ofType: type, group: group).map { rendition in
                let uri = rendition.uri.map { URIResolver.resolve($0, against: loaded.rootURI) }
                return RenditionAnalysis(
                    rendition: rendition, playlistURI: uri,
                    playlist: uri.flatMap { loaded.mediaPlaylists[$0]?.media },
                    measurement: uri.flatMap { measurements[$0] })
            }
        }
        variants = master.variants.map { variant in
            let resolved = URIResolver.resolve(variant.uri, against: loaded.rootURI)
            return VariantAnalysis(
                uri: variant.uri, playlistURI: resolved, stream: variant,
                location: root.location(line: variant.line),
                playlist: loaded.mediaPlaylists[resolved]?.media,
                audioRenditions: renditions(.audio, variant.audioGroup),
                videoRenditions: renditions(.video, variant.videoGroup),
                measurement: measurements[resolved])
        }
    }
}
