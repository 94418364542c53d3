public import HLSPlaylist

/// One row of the variant table, and one entry of the JSON report's `variants` (design.md §4).
public struct VariantSummary: Sendable, Hashable, Codable {
    public struct Codecs: Sendable, Hashable, Codable {
        public var declared: String?
        public var detected: [String]
    }

    /// The URI as written in the multivariant playlist.
    public var uri: String
    /// The media playlist the URI resolves to.
    public var playlist: String
    public var audioOnly: Bool
    public var declaredBandwidth: Int?
    public var declaredAverageBandwidth: Int?
    public var resolution: String?
    public var codecs: Codecs
    /// Number of segments in the media playlist, nil when it could not be read.
    public var segmentCount: Int?
    /// Sum of EXTINF durations in seconds.
    public var duration: Double?

    public init(_ variant: VariantAnalysis) {
        uri = variant.uri
        playlist = variant.playlistURI
        audioOnly = variant.isAudioOnly
        declaredBandwidth = variant.declaredBandwidth
        declaredAverageBandwidth = variant.declaredAverageBandwidth
        resolution = variant.stream?.resolution?.description
        codecs = Codecs(declared: variant.stream?.codecs?.joined(separator: ","), detected: [])
        segmentCount = variant.playlist?.segments.count
        duration = variant.playlist?.totalDuration
    }
}
