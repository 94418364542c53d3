import HLSPlaylist

/// One row of the variant table, and one entry of the JSON report's `variants` (design.md §4).
public struct VariantSummary: Sendable, Hashable, Codable {
    public struct Codecs: Sendable, Hashable, Codable {
        public var declared: String?
        public var detected: [String]
    }

    /// The poster as found in the variant's segments.
    public struct Artwork: Sendable, Hashable, Codable {
        public var segmentsWithArtwork: Int
        /// Largest image, in bytes.
        public var maxBytes: Int
        public var mimeType: String
        public var width: Int?
        public var height: Int?
        /// How much of the measured peak the poster accounts for, in bit/s.
        public var peakShare: Int?
    }

    /// The URI as written in the multivariant playlist.
    public var uri: String
    /// The media playlist the URI resolves to.
    public var playlist: String
    /// The line of the EXT-X-STREAM-INF in the input (1 for a media playlist given directly).
    public var line: Int
    public var audioOnly: Bool
    public var declaredBandwidth: Int?
    public var declaredAverageBandwidth: Int?
    public var measuredPeakBitrate: Int?
    public var measuredAverageBitrate: Int?
    public var resolution: String?
    public var codecs: Codecs
    /// Number of segments in the media playlist, nil when it could not be read.
    public var segmentCount: Int?
    /// Sum of EXTINF durations in seconds.
    public var duration: Double?
    /// Nil when no segment carries a poster (or segments were not read).
    public var artwork: Artwork?

    public init(_ variant: VariantAnalysis) {
        uri = variant.uri
        playlist = variant.playlistURI
        line = variant.location.line
        audioOnly = variant.isAudioOnly
        declaredBandwidth = variant.declaredBandwidth
        declaredAverageBandwidth = variant.declaredAverageBandwidth
        measuredPeakBitrate = variant.measuredPeakBitrate
        measuredAverageBitrate = variant.measuredAverageBitrate
        resolution = variant.stream?.resolution?.description
        codecs = Codecs(declared: variant.stream?.codecs?.joined(separator: ","), detected: variant.detectedCodecs)
        segmentCount = variant.playlist?.segments.count
        // A sum of EXTINFs the parser accepted is finite; the check keeps JSON from ever seeing
        // anything else (JSONEncoder refuses non-finite numbers).
        duration = variant.playlist.map(\.totalDuration).flatMap { $0.isFinite ? $0 : nil }
        if let measurement = variant.measurement {
            let pictures = measurement.records.compactMap(\.artwork)
            if let largest = pictures.max(by: { $0.byteCount < $1.byteCount }) {
                var share: Int?
                if let peak = measurement.peakBitrate, let audio = measurement.peakBitrateWithoutArtwork {
                    let difference = peak.subtractingReportingOverflow(audio)
                    share = difference.overflow ? nil : difference.partialValue
                }
                artwork = Artwork(
                    segmentsWithArtwork: pictures.count, maxBytes: largest.byteCount, mimeType: largest.mimeType,
                    width: largest.width, height: largest.height, peakShare: share)
            }
        }
    }
}
