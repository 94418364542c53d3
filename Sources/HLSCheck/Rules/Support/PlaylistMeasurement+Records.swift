import HLSPlaylist
import MediaInspection

extension PlaylistMeasurement {
    /// The first inspected segment with a track whose format satisfies `matches`, and that
    /// format; each distinct format is judged once, however many segments share it.
    func firstTrack(where matches: (TrackFormat) -> Bool) -> (record: SegmentRecord, format: TrackFormat)? {
        guard let record = records.firstInspected(where: matches),
            let format = record.trackFormats.first(where: matches)
        else { return nil }
        return (record, format)
    }

    /// Where a finding about `record` points: its EXTINF line in this playlist.
    func location(of record: SegmentRecord) -> SourceLocation {
        SourceLocation(uri: playlistURI, line: record.line)
    }

    /// Consecutive pairs of demuxed records that follow each other in the playlist (media sequence
    /// numbers one apart): the joins a player crosses without being told of a discontinuity.
    var joins: some Sequence<(previous: SegmentRecord, next: SegmentRecord)> {
        let records = inspectedRecords
        return zip(records, records.dropFirst()).lazy.compactMap { previous, next in
            next.mediaSequence == previous.mediaSequence + 1 && !next.discontinuity ? (previous, next) : nil
        }
    }
}
