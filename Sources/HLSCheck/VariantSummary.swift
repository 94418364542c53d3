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
    /// The line of the variant's URI in the input (the line after its EXT-X-STREAM-INF; 1 for a
    /// media playlist given directly).
    public var uriLine: Int?
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
    /// Segments of the variant's own playlist whose bytes were read whole (they count for bit
    /// rate); nil when segments were not read. Below `segmentCount`, the measurement is partial.
    public var segmentsMeasured: Int?
    /// Whether every segment of every playlist of every playable combination was measured;
    /// when false, measured values are lower bounds and rules give no numeric advice.
    public var measurementComplete: Bool?
    /// The playable combination that sets `measuredPeakBitrate`: resolved playlist URIs, the
    /// variant's own (or the VIDEO rendition played instead) first, then its AUDIO rendition.
    public var peakCombination: [String]?
    /// Audio-only variants: the largest poster (image bytes, JPEG) every segment can carry within
    /// the audio-only budget — the number artwork-over-budget and `hlscheck embed` give.
    public var largestPosterBytes: Int?

    public init(_ variant: VariantAnalysis, audioOnlyBudget: Int? = nil) {
        uri = variant.uri
        playlist = variant.playlistURI
        line = variant.location.line
        uriLine = variant.stream?.uriLine ?? variant.location.line
        audioOnly = variant.isAudioOnly
        declaredBandwidth = variant.declaredBandwidth
        declaredAverageBandwidth = variant.declaredAverageBandwidth
        measuredPeakBitrate = variant.measuredPeakBitrate
        measuredAverageBitrate = variant.measuredAverageBitrate
        resolution = variant.stream?.resolution?.description
        codecs = Codecs(declared: variant.stream?.codecs?.joined(separator: ","), detected: variant.detectedCodecs)
        segmentCount = variant.playlist?.segments.count
        if let measurement = variant.measurement {
            segmentsMeasured = measurement.measuredSegmentCount
            measurementComplete = variant.isMeasurementComplete
            peakCombination = variant.peakCombination
            if let budget = audioOnlyBudget, audioOnly {
                largestPosterBytes = variant.largestPoster(within: budget)
            }
        }
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
