import HLSPlaylist

extension StreamAnalysis {
    /// Every measured media playlist, in URI order: variants, renditions and I-frame playlists.
    var measuredPlaylists: [PlaylistMeasurement] { measurements.values.sorted { $0.playlistURI < $1.playlistURI } }

    /// The measured playlists whose segments follow each other in time, in URI order: all but
    /// I-frame playlists, whose segments are single frames far apart.
    var timedPlaylists: [PlaylistMeasurement] {
        measuredPlaylists.filter { loaded.mediaPlaylists[$0.playlistURI]?.media?.iFramesOnly != true }
    }

    /// Every measured media playlist with its records, in URI order, for per-segment rules: made
    /// as they are read, never gathered (a stream of hours has many).
    var measuredRecords: some Sequence<(PlaylistMeasurement, SegmentRecord)> {
        measuredPlaylists.lazy.flatMap { measurement in measurement.records.lazy.map { (measurement, $0) } }
    }

    /// The measured playlists in URI order, each with its demuxed records in playlist order (made
    /// as they are read, never gathered: a stream of hours has many).
    var demuxedRecords: [(PlaylistMeasurement, LazyFilterSequence<SegmentRecords>)] {
        measuredPlaylists.map { ($0, $0.inspectedRecords) }
    }

    /// The measured audio-only playlists: the variants that are audio-only, each with its measurement.
    var audioOnlyMeasurements: [(VariantAnalysis, PlaylistMeasurement)] {
        variants.filter(\.isAudioOnly).compactMap { variant in
            variant.measurement.map { (variant, $0) }
        }
    }
}
