import HLSPlaylist

/// Every measured media playlist with its records, in URI order, for per-segment rules: made
/// as they are read, never gathered (a stream of hours has many).
private func measuredRecords(_ stream: StreamAnalysis) -> some Sequence<(PlaylistMeasurement, SegmentRecord)> {
    stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.lazy.flatMap { measurement in
        measurement.records.lazy.map { (measurement, $0) }
    }
}

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
        let media = measuredRecords(stream).compactMap { measurement, record -> Finding? in
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

/// Encrypted segments whose content hlscheck cannot see: their bytes count, their content is
/// unchecked. One note per media playlist.
package struct SegmentEncryptedRule: Rule {
    package static let description = RuleDescription(
        id: "segment-encrypted", name: "Encrypted content not inspected", defaultSeverity: .note, scope: .variant,
        summary:
            "Encrypted segments could not be decrypted (no reachable AES-128 key, or SAMPLE-AES): their bytes count for bit rate, but codecs, poster and durations are not checked.",
        rationale:
            "RFC 8216 §4.3.2.4, §5.2: AES-128 segments decrypt with the key at the EXT-X-KEY URI; hlscheck decrypts them when it can read the key, as Apple's mediastreamvalidator does, and says so when it cannot.",
        needsMedia: true,
        triggering: [
            RuleExample(
                "AES-128 key file missing",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                    "audio.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"missing.key\"\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
                    "seg0.ts": String(repeating: "encrypted bytes.", count: 2),
                ]
            ).expecting(line: 5, "are encrypted and were not decrypted")
        ],
        nonTriggering: [
            RuleExample(
                "clear segment",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.audioVariant(),
                    "audio.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n",
                    "seg0.ts": "not a transport stream",
                ])
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            var hidden = 0
            var first: SegmentRecord?
            for record in measurement.records where record.isMeasured && record.hiddenContentReason != nil {
                hidden += 1
                if first == nil { first = record }
            }
            guard let first, let reason = first.hiddenContentReason else { return nil }
            return Finding(
                "\(hidden) of \(measurement.records.count) segments of this playlist are encrypted and were not decrypted (\(reason)): their bytes count for bit rate; codecs, poster and durations are not checked",
                at: SourceLocation(uri: measurement.playlistURI, line: first.line))
        }
    }
}

/// EXTINF far from the duration measured from packet timestamps.
package struct ExtinfDurationMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "extinf-duration-mismatch", name: "EXTINF differs from the media", defaultSeverity: .warning,
        scope: .variant, settings: .errorForApple,
        summary: "A segment's EXTINF differs from its duration measured from packet timestamps by more than 0.5 s.",
        rationale:
            "RFC 8216 §4.3.2.1: EXTINF is the segment's duration; wrong values shift seeking, the timeline and every bit rate computed from them.",
        specItems: [
            .bis(
                "4.4.4.1", rfc: "4.3.2.1", .should,
                "EXTINF gives the segment's duration, accurately enough that summed durations add no perceptible error."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
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
package struct PackedAudioTimestampMissingRule: Rule {
    package static let description = RuleDescription(
        id: "packed-audio-timestamp-missing", name: "Packed audio without timestamp", defaultSeverity: .error,
        scope: .variant,
        summary:
            "A packed-audio segment (AAC, MP3, AC-3, E-AC-3) does not start with an ID3 PRIV transportStreamTimestamp.",
        rationale:
            "RFC 8216 §3.4: each packed-audio segment MUST signal the timestamp of its first sample with an ID3 PRIV tag at the beginning of the segment.",
        specItems: [
            SpecItem(
                "RFC 8216 §3.4", .must,
                "Each packed-audio segment signals the timestamp of its first sample with an ID3 PRIV transportStreamTimestamp at its start."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
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
package struct AudioOnlyContainsVideoRule: Rule {
    package static let description = RuleDescription(
        id: "audio-only-contains-video", name: "Audio-only variant carries video", defaultSeverity: .error,
        scope: .variant,
        summary: "A variant declared audio-only (by CODECS) carries a video track.",
        rationale:
            "Players pick the audio-only variant by its CODECS; video inside it wastes the cellular budget and contradicts the declaration (RFC 8216 §4.3.4.2).",
        specItems: [
            .bis("6.2.4", .must, "CODECS lists every media format present in any segment of the variant stream.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
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

/// How RFC 6381 codec strings compare: the same format written two ways is the same codec.
enum CodecEquivalence {
    /// The codec with its sample entry folded: `avc1`/`avc3` and `hvc1`/`hev1` differ only in
    /// where the parameter sets live (ISO/IEC 14496-15 §5.4.2, §8.4.1); AVC is compared on
    /// profile and level, as encoders set constraint flags freely. MP3 has three spellings
    /// (MP4 registration authority object types 0x6B MPEG-1 audio and 0x69 MPEG-2 audio, and
    /// ISO/IEC 14496-3 audio object type 34 "Layer-3").
    static func format(_ codec: String) -> String {
        let lower = codec.lowercased()
        if ["mp4a.6b", "mp4a.69", "mp4a.40.34", "mp3", ".mp3"].contains(lower) { return "mp3" }
        if (lower.hasPrefix("avc1.") || lower.hasPrefix("avc3.")), lower.count == 11 {
            let hex = Array(lower.dropFirst(5))
            return "avc.\(hex[0])\(hex[1])..\(hex[4])\(hex[5])"
        }
        if lower.hasPrefix("hev1.") || lower.hasPrefix("hvc1.") { return "hevc." + lower.dropFirst(5) }
        // IMSC in ISO BMFF: `stpp.ttml.im1t` refines `stpp` with the TTML profile, which the
        // segments name only when their document carries a profile designator.
        if lower == "stpp" || lower.hasPrefix("stpp.") { return "stpp" }
        return lower
    }

    /// The sample entry (four-character code) of an ISO BMFF codec string.
    static func sampleEntry(_ codec: String) -> String {
        String(codec.lowercased().prefix { $0 != "." })
    }
}

/// CODECS that does not match what the segments contain.
package struct CodecsMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "codecs-mismatch", name: "CODECS differs from the media", defaultSeverity: .error, scope: .variant,
        summary:
            "CODECS does not match the RFC 6381 codec strings of what the segments of the playable combinations contain, or, for an I-frame stream, what its I-frames contain.",
        rationale:
            "RFC 8216 §4.3.4.2: CODECS MUST list every media format present in the variant's segments; players use it to skip variants they cannot decode. An I-frame stream's formats are read from the first I-frame of each resource and of each run after EXT-X-DISCONTINUITY, the only places where a format may change.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "CODECS lists every media format present in any segment of the variant stream, and nothing else."),
            .bis(
                "4.4.6.2", rfc: "4.3.4.2", .must,
                "CODECS of a variant with IMSC subtitle renditions (fMP4 with the stpp sample entry) names them, such as stpp.ttml.im1t."
            ),
        ],
        needsMedia: true)

    /// Codec strings compared by format (sample entry folded, MP3 spellings merged).
    static func comparable(_ codec: String) -> String { CodecEquivalence.format(codec) }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // The verdict `hlscheck fix` acts on too (FixPlan).
            guard let declared = variant.stream?.codecs, let verdict = variant.codecsVerdict, verdict.isWrong else {
                return nil
            }
            return Finding(
                "CODECS=\"\(declared.joined(separator: ","))\" of \(variant.uri): \(verdict.phrase) (detected: \(variant.detectedCodecs.joined(separator: ",")))",
                at: variant.location(ofAttribute: "CODECS"))
        } + Self.iFrameFindings(stream)
    }
}

/// CODECS names the right format with the other sample entry (avc1 for avc3, hvc1 for hev1).
package struct CodecsSampleEntryMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "codecs-sample-entry-mismatch", name: "CODECS names the other sample entry", defaultSeverity: .warning,
        scope: .variant,
        summary: "CODECS declares avc1 where the fMP4 segments use avc3 (or hvc1 for hev1, and the reverse).",
        rationale:
            "RFC 6381 §3.3 and ISO/IEC 14496-15: avc3/hev1 carry parameter sets in band, avc1/hvc1 in the sample entry; some players (Apple's among them for HEVC) accept only the one they were told about.",
        specItems: [
            SpecItem(
                "RFC 6381 §3.3", .must,
                "avc1/hvc1 and avc3/hev1 name different sample entries (parameter sets in the sample entry or in band); the codec string names the one used."
            )
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant in
            // Only fMP4 has sample entries; in MPEG-TS both spellings describe the same stream.
            let pairs = variant.sampleEntryMismatches
            guard !pairs.isEmpty else { return nil }
            return Finding(
                "CODECS of \(variant.uri): \(pairs.joined(separator: "; ")): declare the sample entry the segments use",
                at: variant.location(ofAttribute: "CODECS"))
        }
    }
}

/// RESOLUTION that does not match the decoded video.
package struct ResolutionMismatchRule: Rule {
    package static let description = RuleDescription(
        id: "resolution-mismatch", name: "RESOLUTION differs from the video", defaultSeverity: .warning,
        scope: .variant,
        summary:
            "RESOLUTION differs from the width × height of the video in the segments of the variant or of a video rendition of its VIDEO group.",
        rationale:
            "RFC 8216 §4.3.4.2: RESOLUTION is the optimal pixel resolution of the video; players use it to pick a variant for the screen. bis-22 §4.4.6.2.1: with a VIDEO group, every video rendition of the group has that resolution, since a player that switches angle keeps the variant it chose for the screen.",
        specItems: [
            .bis(
                "4.4.6.2.1", rfc: "4.3.4.2.1", .must,
                "The video of a variant has the optimal pixel resolution its RESOLUTION declares."),
            .bis(
                "4.4.6.2.1", rfc: "4.3.4.2.1", .must,
                "With RESOLUTION and VIDEO, every video rendition of the group has the optimal resolution RESOLUTION declares."
            ),
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var findings: [Finding] = []
        var renditionsSeen: Set<String> = []
        for variant in stream.variants {
            guard let declared = variant.stream?.resolution else { continue }
            if let actual = variant.measuredResolution, actual != declared {
                findings.append(
                    Finding(
                        "RESOLUTION=\(declared) but the video of \(variant.uri) is \(actual)",
                        at: variant.location(ofAttribute: "RESOLUTION")))
            }
            // bis-22 §4.4.6.2.1: each video rendition of the VIDEO group, told once per
            // rendition and declared resolution, at its EXT-X-MEDIA line.
            for rendition in variant.videoRenditions {
                guard let uri = rendition.playlistURI, uri != variant.playlistURI,
                    let actual = rendition.measurement?.records.lazy.compactMap(\.videoResolution).first,
                    actual != declared,
                    renditionsSeen.insert("\(rendition.rendition.line) \(declared)").inserted
                else { continue }
                findings.append(
                    Finding(
                        "the video of rendition \"\(rendition.rendition.name ?? "")\" (\(rendition.rendition.uri ?? uri)) is \(actual), but the variant on line \(variant.location.line) that uses its VIDEO group \"\(rendition.rendition.groupID ?? "")\" declares RESOLUTION=\(declared); every video rendition of a group must have the variant's resolution: move it to a group of its own",
                        at: stream.root.location(line: rendition.rendition.line)))
            }
        }
        return findings
    }
}

/// "6.013": seconds with three decimals, for messages. Total on any Double: a negative value
/// keeps one sign ("-1.500", not "-1.-500"); an infinite, NaN or huge one prints as Swift writes it.
func seconds(_ value: Double) -> String {
    guard value.isFinite, value.magnitude < 1e12 else { return "\(value)" }
    let thousandths = Int((value.magnitude * 1000).rounded())
    let fraction = String(thousandths % 1000)
    let sign = value < 0 && thousandths > 0 ? "-" : ""
    return "\(sign)\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
