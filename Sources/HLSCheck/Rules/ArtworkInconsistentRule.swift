import HLSPlaylist

/// The poster is missing from some segments or changes between them.
package struct ArtworkInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-inconsistent", name: "Poster inconsistent", defaultSeverity: .warning, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "The still image is absent from some segments of an audio-only variant, or differs between segments.",
        rationale:
            "A player joining at any segment shows that segment's image: an image in only some segments leaves a black screen after a seek or a switch.",
        specItems: [.audioOnlyPoster],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant -> Finding? in
            guard let measurement = variant.measurement else { return nil }
            // One pass: how many carry a poster, the first without, the first with, the first
            // whose poster differs from that one.
            var inspected = 0, withPoster = 0
            var missing: SegmentRecord?, first: SegmentRecord?, different: SegmentRecord?
            // A final runt may go without the poster: no peak window measures it alone, and a
            // poster in it would only weigh twice in its neighbour's (docs/measurement.md,
            // "Runt segments"); `hlscheck embed` leaves it out there.
            let runt = measurement.finalRuntIndex
            for (index, record) in measurement.records.enumerated() where record.isInspected {
                if index == runt, record.artwork == nil { continue }
                inspected += 1
                guard let artwork = record.artwork else {
                    if missing == nil { missing = record }
                    continue
                }
                withPoster += 1
                if let first {
                    if different == nil, artwork.contentHash != first.artwork?.contentHash { different = record }
                } else {
                    first = record
                }
            }
            guard let first else { return nil }
            let playlist = measurement.playlistURI
            if let missing {
                let count = inspected - withPoster
                return Finding(
                    "\(count) of \(inspected) segments carry no poster, the first being \(missing.uri)",
                    at: SourceLocation(uri: playlist, line: missing.line))
            }
            if let different {
                return Finding(
                    "the poster in \(different.uri) differs from the one in \(first.uri)",
                    at: SourceLocation(uri: playlist, line: different.line))
            }
            return nil
        }
    }
}
