import HLSPlaylist

/// Every measured media playlist with its records, in URI order, for per-segment rules.
private func measuredRecords(_ stream: StreamAnalysis) -> [(PlaylistMeasurement, SegmentRecord)] {
    stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { measurement in
        measurement.records.map { (measurement, $0) }
    }
}

/// A segment that is missing, truncated or cannot be demuxed.
public struct SegmentUnreadableRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "segment-unreadable", name: "Segment unreadable", defaultSeverity: .error,
        summary: "A segment is missing, truncated or cannot be demuxed.",
        rationale: "A player that reaches this segment stalls or skips (RFC 8216 §3).",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        measuredRecords(stream).compactMap { measurement, record in
            guard let problem = record.problem, !record.encrypted else { return nil }
            return Finding("segment \(record.uri): \(problem)", at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
    }
}

/// EXTINF far from the duration measured from packet timestamps.
public struct ExtinfDurationMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "extinf-duration-mismatch", name: "EXTINF differs from the media", defaultSeverity: .warning,
        summary: "A segment's EXTINF differs from its duration measured from packet timestamps by more than 0.5 s.",
        rationale: "RFC 8216 §4.3.2.1: EXTINF is the segment's duration; wrong values shift seeking, the timeline and every bit rate computed from them.",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        measuredRecords(stream).compactMap { measurement, record in
            guard let measured = record.measuredDuration, record.problem == nil,
                  abs(measured - record.extinf) > configuration.durationTolerance
            else { return nil }
            return Finding(
                "segment \(record.uri) lasts \(seconds(measured)) s by its timestamps but EXTINF says \(seconds(record.extinf)) s",
                at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
    }
}

/// Packed audio without the PRIV timestamp tag at its start.
public struct PackedAudioTimestampMissingRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "packed-audio-timestamp-missing", name: "Packed audio without timestamp", defaultSeverity: .error,
        summary: "A packed-audio segment (AAC, MP3, AC-3, E-AC-3) does not start with an ID3 PRIV transportStreamTimestamp.",
        rationale: "RFC 8216 §3.4: each packed-audio segment MUST signal the timestamp of its first sample with an ID3 PRIV tag at the beginning of the segment.",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        measuredRecords(stream).compactMap { measurement, record in
            guard record.container?.isPackedAudio == true, record.problem == nil, !record.encrypted,
                  !record.startsWithTimestampTag
            else { return nil }
            return Finding(
                "packed-audio segment \(record.uri) does not start with an ID3 tag carrying the com.apple.streaming.transportStreamTimestamp PRIV frame",
                at: SourceLocation(uri: measurement.playlistURI, line: record.line))
        }
    }
}

/// A variant declared audio-only whose segments carry video.
public struct AudioOnlyContainsVideoRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "audio-only-contains-video", name: "Audio-only variant carries video", defaultSeverity: .error,
        summary: "A variant declared audio-only (by CODECS) carries a video track.",
        rationale: "Players pick the audio-only variant by its CODECS; video inside it wastes the cellular budget and contradicts the declaration (RFC 8216 §4.3.4.2).",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard variant.isDeclaredAudioOnly, let measurement = variant.measurement, measurement.containsVideo,
                  let first = measurement.records.first(where: \.hasVideo)
            else { return nil }
            return Finding(
                "variant \(variant.uri) is declared audio-only (CODECS=\"\(variant.stream?.codecs?.joined(separator: ",") ?? "")\") but \(first.uri) carries video",
                at: variant.location)
        }
    }
}

/// CODECS that does not match what the segments contain.
public struct CodecsMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "codecs-mismatch", name: "CODECS differs from the media", defaultSeverity: .error,
        summary: "CODECS does not match the RFC 6381 codec strings of what the segments contain.",
        rationale: "RFC 8216 §4.3.4.2: CODECS MUST list every media format present in the variant's segments; players use it to skip variants they cannot decode.",
        needsMedia: true)

    /// AVC strings are compared on profile and level: encoders set constraint flags freely.
    static func comparable(_ codec: String) -> String {
        let lower = codec.lowercased()
        if (lower.hasPrefix("avc1.") || lower.hasPrefix("avc3.")), lower.count == 11 {
            let hex = Array(lower.dropFirst(5))
            return "avc.\(hex[0])\(hex[1])..\(hex[4])\(hex[5])"
        }
        return lower
    }

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream?.codecs, !declared.isEmpty else { return nil }
            let detected = variant.detectedCodecs
            guard !detected.isEmpty else { return nil }
            let declaredKeys = Set(declared.map(Self.comparable))
            let undeclared = detected.filter { !declaredKeys.contains(Self.comparable($0)) }
            let detectedKinds = Set(detected.map(CodecKind.init(codec:)))
            let absent = declared.filter {
                let kind = CodecKind(codec: $0)
                return (kind == .audio || kind == .video) && !detectedKinds.contains(kind)
            }
            guard !undeclared.isEmpty || !absent.isEmpty else { return nil }
            var parts: [String] = []
            if !undeclared.isEmpty { parts.append("the segments hold \(undeclared.joined(separator: ", ")), not declared") }
            if !absent.isEmpty { parts.append("\(absent.joined(separator: ", ")) is declared but absent") }
            let column = variant.stream?.attributes["CODECS"]?.column ?? 0
            return Finding(
                "CODECS=\"\(declared.joined(separator: ","))\" of \(variant.uri): \(parts.joined(separator: "; ")) (detected: \(detected.joined(separator: ",")))",
                at: SourceLocation(uri: variant.location.uri, line: variant.location.line, column: column))
        }
    }
}

/// RESOLUTION that does not match the decoded video.
public struct ResolutionMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        id: "resolution-mismatch", name: "RESOLUTION differs from the video", defaultSeverity: .warning,
        summary: "RESOLUTION differs from the width × height of the video in the segments.",
        rationale: "RFC 8216 §4.3.4.2: RESOLUTION is the optimal pixel resolution of the video; players use it to pick a variant for the screen.",
        needsMedia: true)

    public func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            guard let declared = variant.stream?.resolution,
                  let actual = variant.measurement?.records.lazy.compactMap(\.videoResolution).first,
                  actual != declared
            else { return nil }
            let column = variant.stream?.attributes["RESOLUTION"]?.column ?? 0
            return Finding(
                "RESOLUTION=\(declared) but the video of \(variant.uri) is \(actual)",
                at: SourceLocation(uri: variant.location.uri, line: variant.location.line, column: column))
        }
    }
}

func seconds(_ value: Double) -> String {
    // Saturating, and the fraction from the magnitude: EXTINF may be 1e300, a measured duration
    // negative, and neither may trap.
    let thousandths = Int(saturating: (value * 1000).rounded())
    let fraction = String(thousandths.magnitude % 1000)
    let sign = thousandths < 0 ? "-" : ""
    return "\(sign)\(thousandths.magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
