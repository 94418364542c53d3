import HLSPlaylist

/// An I-frame stream whose BANDWIDTH is not the peak segment bit rate of its I-frame playlist.
///
/// An I-frame segment is a byte range of a larger resource, whose size is the length the
/// playlist gives, so the peak comes from the playlist alone, as a player would fetch it; or,
/// without EXT-X-BYTERANGE, a whole resource, whose size reading it tells (IFramePlaylistInspection).
package struct IFrameBandwidthMismatchRule: Rule {
    static func stream(bandwidth: Int) -> [String: String] {
        // Two I-frames of 45 000 bytes each per 6 s: 60 000 bit/s.
        Examples.stream(
            Examples.videoVariant, Examples.iFrameStream().replacing("BANDWIDTH=90000", with: "BANDWIDTH=\(bandwidth)")
        ).merging(["iframes.m3u8": Examples.iFrameMedia.replacing("5000@0", with: "45000@0")]) { $1 }
    }

    package static let description = RuleDescription(
        id: "iframe-bandwidth-mismatch", name: "I-frame BANDWIDTH is not the I-frame peak", defaultSeverity: .error,
        summary:
            "The BANDWIDTH of an EXT-X-I-FRAME-STREAM-INF differs by more than the tolerance (10 %) from the peak segment bit rate of its I-frame playlist, computed from the size (its byte range, or its whole resource where it has none) and EXTINF of each I-frame.",
        rationale:
            "bis-22 §4.4.6.3: BANDWIDTH of an I-frame stream means what it means for a variant, the peak segment bit rate of its playlist; Apple's authoring specification asks for the I-frame peak computed that way. Players pick the I-frame stream they can fetch fast enough while scrubbing: a BANDWIDTH of half the peak makes them pick one that stalls. An I-frame with EXT-X-BYTERANGE weighs its range, known from the playlist; one without is its whole resource, whose size is read (not with --playlist-only).",
        specItems: [
            .apple(
                "6.9", .must,
                "The peak segment bit rate of I-frame playlists is computed as the HLS specification defines it and declared as BANDWIDTH."
            ),
            .apple(
                "1.27", .must, "For VOD, the measured peak bit rate of an I-frame playlist is within 10 % of BANDWIDTH."
            ),
        ],
        triggering: [
            RuleExample("BANDWIDTH half the I-frame peak", files: stream(bandwidth: 30000))
                .expecting(line: 5, column: 27, "declares BANDWIDTH=30000, but its I-frames peak at 60000 bit/s"),
            RuleExample("BANDWIDTH twice the I-frame peak", files: stream(bandwidth: 120_000)),
        ],
        nonTriggering: [RuleExample("BANDWIDTH at the I-frame peak", files: stream(bandwidth: 60000))])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        return multivariant.iFrameVariants.compactMap { iFrame in
            guard let declared = iFrame.bandwidth, declared > 0,
                let media = stream.loaded.playlist(for: iFrame)?.media, media.iFramesOnly,
                let target = media.targetDuration, !media.segments.isEmpty
            else { return nil }
            // Without a byte range the I-frame is a whole resource, whose size only reading tells:
            // without it (--playlist-only, an unreadable resource) the peak is not known.
            let playlistURI = stream.loaded.resolvedURI(of: iFrame)
            let base = stream.loaded.mediaPlaylists[playlistURI]?.uri ?? playlistURI
            let wholes = stream.iFramePlaylists[playlistURI]?.wholeResourceBytes ?? [:]
            var segments: [BitrateWindow.Segment] = []
            for segment in media.segments {
                guard
                    let bytes = segment.byteRange?.length
                        ?? wholes[URIResolver.resolve(segment.uri, against: base)]
                else { return nil }
                segments.append(BitrateWindow.Segment(bytes: bytes, duration: segment.duration))
            }
            guard let peak = BitrateWindow.peak(segments, targetDuration: target), peak > 0 else { return nil }
            let tolerance = configuration.bandwidthTolerance
            let below = Double(peak) > Double(declared) * (1 + tolerance)
            let above = Double(declared) > Double(peak) * (1 + tolerance)
            guard below || above else { return nil }
            let column = iFrame.attributes["BANDWIDTH"]?.column ?? 0
            let comparison =
                below
                ? "its I-frames peak at \(peak) bit/s, \(percent(peak, of: declared)) over it"
                : "its I-frames peak at only \(peak) bit/s, which BANDWIDTH exceeds by \(percent(declared, of: peak))"
            let ranged = media.segments.filter { $0.byteRange != nil }.count
            let sizes =
                ranged == media.segments.count
                ? "each I-frame's byte range"
                : ranged == 0
                    ? "the size of each I-frame's whole resource" : "each I-frame's byte range, or its whole resource,"
            return Finding(
                "I-frame stream \(iFrame.uri) declares BANDWIDTH=\(declared), but \(comparison) (\(sizes) over its EXTINF): declare BANDWIDTH=\(peak)",
                at: stream.root.location(line: iFrame.line, column: column))
        }
    }
}
