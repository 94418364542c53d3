import HLSPlaylist

/// EXT-X-BITRATE off the measured bit rate of a segment it applies to.
package struct BitrateTagMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "bitrate-tag-mismatch", name: "EXT-X-BITRATE off the measured segment bit rate", defaultSeverity: .error,
        summary:
            "A segment that EXT-X-BITRATE applies to (one without EXT-X-BYTERANGE) has a measured bit rate (bytes × 8 / EXTINF) outside 90–110 % of the tag's value.",
        rationale:
            "bis-22 §4.4.4.8: EXT-X-BITRATE gives the approximate bit rate of the segments after it, to within 10 % of each one's actual rate; clients use it to estimate how long a segment will take to fetch without fetching it (I-frame and low-latency playback). A value off by more misleads that estimate.",
        specItems: [
            .bis(
                "4.4.4.8", .must,
                "EXT-X-BITRATE is within 90–110 % of the measured bit rate of every segment it applies to.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            var off: [(record: SegmentRecord, declared: Int, rate: Double)] = []
            for (index, record) in measurement.records.enumerated() {
                // The tag applies to segments without a byte range; unread ones have no rate.
                guard !record.sampledOut, record.problem == nil, record.bytes > 0, record.extinf > 0 else { continue }
                let segment = measurement.records.segment(at: index)
                guard let declared = segment.bitrate, declared > 0, segment.byteRange == nil else { continue }
                let rate = Double(record.bytes) * 8 / record.extinf
                let bits = Double(declared) * 1000
                if rate < 0.9 * bits || rate > 1.1 * bits { off.append((record, declared, rate)) }
            }
            guard let first = off.first else { return nil }
            let kbits = Int((first.rate / 1000).rounded())
            return Finding(
                "EXT-X-BITRATE:\(first.declared) applies to \(first.record.uri), which measures \(kbits) kbit/s (\(percent(Int(first.rate.rounded()), of: first.declared * 1000)) off)\(off.count > 1 ? " (\(off.count) such segments)" : ""); the tag must be within 10 % of each segment's bit rate: declare EXT-X-BITRATE:\(kbits) before it",
                at: SourceLocation(uri: measurement.playlistURI, line: first.record.line))
        }
    }
}
