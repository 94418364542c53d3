import HLSPlaylist

extension VariantAnalysis {
    /// " over video.m3u8 + audio/en.m3u8": the playable combination that sets the peak, when it
    /// is more than the variant's own playlist.
    var combinationPhrase: String {
        guard let combination = peakCombination, combination != [playlistURI] else { return "" }
        let names = combination.map { uri in uri == playlistURI ? self.uri : renditionName(uri) }
        return " over \(names.joined(separator: " + "))"
    }

    /// A rendition playlist as its EXT-X-MEDIA wrote it.
    func renditionName(_ playlistURI: String) -> String {
        (allRenditions.first { $0.playlistURI == playlistURI }
            ?? subtitleRenditions.first { $0.playlistURI == playlistURI })?.rendition.uri
            ?? playlistURI
    }

    /// "measured 4 of 6 segments" over the combinations' playlists, and the playlists that were
    /// not read at all ("subs/en.m3u8 was not read"), nil when complete.
    var partialMeasurementPhrase: String? {
        guard !isMeasurementComplete else { return nil }
        let measurements = combinationMeasurements
        let measured = measurements.reduce(0) { $0 + $1.measuredSegmentCount }
        let total = measurements.reduce(0) { $0 + $1.records.count }
        let unread = combinationPlaylists.filter { measurement(of: $0) == nil }.map(renditionName)
        let playlists =
            unread.isEmpty ? "" : " (\(unread.joined(separator: ", ")) \(unread.count == 1 ? "was" : "were") not read)"
        return "measured \(measured) of \(total) segments\(playlists)"
    }

    /// Whether the variant's media playlist is live (no EXT-X-ENDLIST): its bit rates are held
    /// to AS 1.28–1.29, not to VOD's 1.26–1.27.
    var isLive: Bool { playlist.map { !$0.endList && $0.playlistType != .vod } ?? false }
}
