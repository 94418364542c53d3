import HLSPlaylist

/// One row of the variant table, and one entry of the JSON report's `variants` (design.md §4).
package struct VariantSummary: Sendable, Hashable, Codable {
    /// The codecs of the variant.
    package struct Codecs: Sendable, Hashable, Codable {
        /// CODECS as declared (joined with commas), nil when absent.
        package var declared: String?
        /// RFC 6381 strings found in the segments of every playable combination, sorted.
        package var detected: [String]
    }

    /// The poster as found in the variant's segments.
    package struct Artwork: Sendable, Hashable, Codable {
        /// Segments that carry a poster.
        package var segmentsWithArtwork: Int
        /// Largest image, in bytes.
        package var maxBytes: Int
        /// MIME type of the largest image.
        package var mimeType: String
        /// Width in pixels of the largest image, nil when it did not decode.
        package var width: Int?
        /// Height in pixels of the largest image, nil when it did not decode.
        package var height: Int?
        /// How much of the measured peak the poster accounts for, in bit/s.
        package var peakShare: Int?
    }

    /// The URI as written in the multivariant playlist.
    package var uri: String
    /// The media playlist the URI resolves to.
    package var playlist: String
    /// The line of the EXT-X-STREAM-INF in the input (1 for a media playlist given directly).
    package var line: Int
    /// The line of the variant's URI in the input (the line after its EXT-X-STREAM-INF; 1 for a
    /// media playlist given directly).
    package var uriLine: Int?
    /// Whether the variant is audio-only (by content when inspected, else by declaration).
    package var audioOnly: Bool
    /// The declared BANDWIDTH in bit/s, nil when absent.
    package var declaredBandwidth: Int?
    /// The declared AVERAGE-BANDWIDTH in bit/s, nil when absent.
    package var declaredAverageBandwidth: Int?
    /// The measured peak in bit/s of the variant with its renditions (the largest playable combination); nil when not measured.
    package var measuredPeakBitrate: Int?
    /// The measured average in bit/s of the largest playable combination; nil when not measured.
    package var measuredAverageBitrate: Int?
    /// RESOLUTION as `WxH`, nil when absent.
    package var resolution: String?
    /// Declared and detected codecs.
    package var codecs: Codecs
    /// Number of segments in the media playlist, nil when it could not be read.
    package var segmentCount: Int?
    /// Sum of EXTINF durations in seconds.
    package var duration: Double?
    /// Nil when no segment carries a poster (or segments were not read).
    package var artwork: Artwork?
    /// Segments of the variant's own playlist whose bytes were read whole (they count for bit
    /// rate); nil when segments were not read. Below `segmentCount`, the measurement is partial.
    package var segmentsMeasured: Int?
    /// Of those, the segments whose content was read too — tracks, codecs, durations, the poster:
    /// all but the encrypted ones hlscheck could not decrypt (SAMPLE-AES, a key it could not
    /// fetch). 0 means whether the variant carries a poster is unknown, not that it carries none.
    package var segmentsInspected: Int?
    /// Whether every segment of every playlist of every playable combination was measured;
    /// when false, measured values are lower bounds and rules give no numeric advice.
    package var measurementComplete: Bool?
    /// The playable combination that sets `measuredPeakBitrate`: resolved playlist URIs, the
    /// variant's own (or the VIDEO rendition played instead) first, then its AUDIO rendition.
    package var peakCombination: [String]?
    /// Audio-only variants: the largest poster (image bytes, JPEG) every segment can carry within
    /// the audio-only budget — the number artwork-over-budget and `hlscheck embed` give.
    package var largestPosterBytes: Int?

    /// Summarises `variant`; `audioOnlyBudget` (bit/s) is needed for `largestPosterBytes`.
    package init(_ variant: VariantAnalysis, audioOnlyBudget: Int? = nil) {
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
        // Counted over the segments measured, when there is a measurement: a live watch's records
        // are its whole timeline, the playlist only the first window it loaded (JSON said
        // segmentCount 2 beside segmentsMeasured 3).
        segmentCount = variant.measurement?.records.count ?? variant.playlist?.segments.count
        if let measurement = variant.measurement {
            segmentsMeasured = measurement.measuredSegmentCount
            segmentsInspected = measurement.inspectedRecords.count
            measurementComplete = variant.isMeasurementComplete
            peakCombination = variant.peakCombination
            if let budget = audioOnlyBudget, audioOnly {
                largestPosterBytes = variant.largestPoster(within: budget)
            }
        }
        // A sum of EXTINFs the parser accepted is finite; the check keeps JSON from ever seeing
        // anything else (JSONEncoder refuses non-finite numbers).
        let total =
            variant.measurement.map { $0.records.reduce(0) { $0 + $1.extinf } } ?? variant.playlist?.totalDuration
        duration = total.flatMap { $0.isFinite ? $0 : nil }
        if let measurement = variant.measurement {
            let pictures = measurement.records.lazy.compactMap(\.artwork)
            if let largest = pictures.max(by: { $0.byteCount < $1.byteCount }) {
                var share: Int?
                if let peak = measurement.peakBitrate, let audio = measurement.peakBitrateWithoutPoster {
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
