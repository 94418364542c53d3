import HLSPlaylist

/// A segment that is missing, truncated or cannot be demuxed.
package struct SegmentUnreadableRule: Rule {
    package static let description = RuleDescription(
        id: "segment-unreadable", name: "Segment unreadable", defaultSeverity: .error, scope: .variant,
        summary:
            "A segment (I-frame segments included) is missing, truncated or cannot be demuxed; a missing one not marked EXT-X-GAP; an encrypted-looking one without EXT-X-KEY; a clear one under an AES-128 key.",
        rationale:
            "A player that reaches this segment stalls or skips (RFC 8216 §3). bis-22 §6.2.1: a segment whose media the server does not have is a gap segment and carries EXT-X-GAP, so that clients skip it without asking; one that is missing (no such file, HTTP 404 or 410) without the tag is either a gap segment without EXT-X-GAP or a broken URI, and the finding says both. EXT-X-GAP segments are never read. bis-22 §6.2.3: an encrypted segment has an EXT-X-KEY and a clear one is under METHOD=NONE or before the first key; bytes that do not demux and look like AES-128 ciphertext (whole 16-byte blocks, no container structure, byte values as evenly spread as random ones) without a key, and an AES-128 segment whose bytes are plain MPEG-TS, fMP4 or packed audio before decryption, are told apart from other unreadable segments.",
        specItems: [
            SpecItem(
                "RFC 8216 §3", .must,
                "Each media segment is a resource of one of the supported formats, at the URI its playlist gives."),
            .bis(
                "6.2.1", .must,
                "Gap segments carry EXT-X-GAP: a segment that does not exist and is not marked EXT-X-GAP is reported as missing, with EXT-X-GAP named as the fix if it is a gap."
            ),
            .bis(
                "6.2.3", .must,
                "Every encrypted segment has an EXT-X-KEY with a URI to its key: a keyless segment that does not demux and looks like AES-128 ciphertext is reported as encrypted."
            ),
            .bis(
                "6.2.3", .must,
                "Every unencrypted segment is under METHOD=NONE or before the first key tag: an AES-128 segment whose bytes plainly are MPEG-TS, fMP4 or packed audio before decryption is reported as clear."
            ),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // Segments outside the stream's root were never read: uri-outside-root reports them.
        let outside = stream.loaded.outsideRootURIs
        var listed: Set<String> = []
        let media = stream.measuredRecords.compactMap { measurement, record -> Finding? in
            let resolved = URIResolver.resolve(record.uri, against: measurement.playlistURI)
            listed.insert(resolved)
            guard let problem = record.problem, !outside.contains(resolved) else { return nil }
            return Finding(
                "segment \(record.uri): \(problem); it is left out of this playlist's bit-rate measurement\(Self.gapAdvice(problem))",
                at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
        // I-frame resources of their own: a resource a media playlist lists too is judged there
        // (by its record, which may stand in for a read this check did not make).
        let iFrames = stream.iFramePlaylists.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { inspection in
            inspection.unreadable.sorted { $0.value.line < $1.value.line }.compactMap { uri, resource -> Finding? in
                guard !listed.contains(uri), !outside.contains(uri) else { return nil }
                return Finding(
                    "I-frame segment \(resource.uri): \(resource.reason); it is left out of this I-frame playlist's bit-rate measurement\(Self.gapAdvice(resource.reason))",
                    at: SourceLocation(uri: inspection.playlistURI, line: resource.line))
            }
                // A range past the end of its resource is this I-frame's own problem, whoever
                // else lists the resource.
                + inspection.unreadableRanges.sorted { $0.value.line < $1.value.line }.compactMap {
                    uri, resource -> Finding? in
                    guard !outside.contains(uri) else { return nil }
                    return Finding(
                        "I-frame segment \(resource.uri): \(resource.reason); it is left out of this I-frame playlist's bit-rate measurement",
                        at: SourceLocation(uri: inspection.playlistURI, line: resource.line))
                }
        }
        return media + iFrames
    }

    /// For a resource that does not exist: the two fixes.
    static func gapAdvice(_ problem: String) -> String {
        isMissingResource(problem)
            ? "; if its media is missing from the source, mark it with EXT-X-GAP (bis-22 §6.2.1), otherwise publish it at this URI"
            : ""
    }

    /// Whether a read failed because the resource does not exist: a local file that is not
    /// there (LocalSegmentSource: the names it tried, or the system's ENOENT text), an HTTP 404
    /// or 410 (the remote reason leads with its status).
    static func isMissingResource(_ problem: String) -> Bool {
        ["no such file", "No such file", "HTTP 404", "HTTP 410"].contains { problem.hasPrefix($0) }
    }
}
