import HLSPlaylist

// Timelines and stream integrity (docs/measurement.md, "Timelines"): what the segments'
// timestamps, TS continuity counters and first video frames say about a stream that the
// playlists alone cannot. Each rule reads only segments that were demuxed; an unreadable segment
// is `segment-unreadable`'s business and never makes a neighbour look wrong.

private func hex(_ pid: UInt16) -> String {
    let digits = String(pid, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// MPEG-TS continuity counter gaps inside a segment or across the join of two segments.
package struct ContinuityErrorRule: Rule {
    package static let description = RuleDescription(
        id: "continuity-error", name: "TS continuity counter gap", defaultSeverity: .warning, scope: .variant,
        summary:
            "An MPEG-TS continuity_counter skips inside a segment, or does not continue across the join with the previous segment.",
        rationale:
            "ISO/IEC 13818-1 §2.4.3.3: the continuity_counter increments by one with each packet of a PID that carries payload; a gap means packets were lost or the segments were cut from different muxer runs, and demuxers drop the PES packet it interrupts. A join is only checked between segments that follow each other without EXT-X-DISCONTINUITY (RFC 8216 §4.3.2.3).",
        specItems: [
            .apple("7.2", .must, "In a transport stream, continuity counters and timestamps are sequential."),
            SpecItem(
                "ISO/IEC 13818-1 §2.4.3.3", .must,
                "continuity_counter increments by one with each packet of a PID that carries payload."),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.demuxedRecords.flatMap { measurement, records -> [Finding] in
            var findings: [Finding] = []
            for record in records {
                guard let continuity = record.continuity, continuity.errorCount > 0, let first = continuity.errors.first
                else { continue }
                let more = continuity.errorCount > 1 ? " (and \(continuity.errorCount - 1) more)" : ""
                findings.append(
                    Finding(
                        "segment \(record.uri): continuity_counter gap on PID \(hex(first.pid)) at packet \(first.packetIndex): expected \(first.expected), found \(first.found)\(more); packets were lost",
                        at: SourceLocation(uri: measurement.playlistURI, line: record.line)))
            }
            for (previous, next) in measurement.joins {
                guard let before = previous.continuity, let after = next.continuity else { continue }
                let broken = after.edges.compactMap { edge -> String? in
                    guard let end = before.edge(of: edge.pid), !edge.continues(end) else { return nil }
                    return "PID \(hex(edge.pid)) ends at \(end.lastCounter), then starts at \(edge.firstCounter)"
                }
                guard !broken.isEmpty else { continue }
                findings.append(
                    Finding(
                        "segment \(next.uri) does not continue the continuity counters of \(previous.uri) (\(broken.joined(separator: "; "))); if the segments come from different muxer runs, mark the join with EXT-X-DISCONTINUITY",
                        at: SourceLocation(uri: measurement.playlistURI, line: next.line)))
            }
            return findings
        }
    }
}
