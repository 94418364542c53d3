import HLSPlaylist

/// An I-frame resource without EXT-X-MAP that does not start with its Media Initialization Section.
package struct IFrameInitializationMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframe-initialization-missing", name: "I-frame resource without initialization section",
        defaultSeverity: .error,
        summary:
            "A resource that holds I-frame segments has no EXT-X-MAP and does not start with its Media Initialization Section (a PAT and PMT for MPEG-TS, an ftyp and moov for fMP4) before its first I-frame.",
        rationale:
            "bis-22 §4.4.3.6: a player scrubbing fetches I-frames in any order, each alone; it finds the tables that describe them in EXT-X-MAP or, without it, at the start of the resource, up to the first I-frame. A resource that starts with media (the PAT and PMT cut off, or in the middle of a range) leaves every I-frame of it undecodable. The first bytes of each resource, up to its first I-frame, are read, and decrypted when METHOD=AES-128 encrypts the resource (one CBC run from its start, bis-22 §6.2.3).",
        specItems: [
            .bis(
                "4.4.3.6", rfc: "4.3.3.6", .must,
                "A resource holding I-frame segments starts with a Media Initialization Section or has EXT-X-MAP.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.iFramePlaylists.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { inspection in
            inspection.missingInitialization.map { problem in
                Finding(
                    "the resource of this I-frame segment has no EXT-X-MAP, and \(problem.message): begin the resource with its PAT and PMT (or ftyp and moov) before the first I-frame, or declare them with EXT-X-MAP",
                    at: SourceLocation(uri: inspection.playlistURI, line: problem.line))
            }
        }
    }
}

/// An I-frame byte range that includes its Media Initialization Section.
package struct IFrameRangeIncludesInitializationRule: Rule {
    static func stream(_ media: String) -> [String: String] {
        Examples.stream(Examples.videoVariant, Examples.iFrameStream()).merging(["iframes.m3u8": media]) { $1 }
    }

    static let mapped = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-I-FRAMES-ONLY
        #EXT-X-MAP:URI="video.mp4",BYTERANGE="800@0"
        #EXTINF:6,
        #EXT-X-BYTERANGE:12000@0
        video.mp4
        #EXTINF:6,
        #EXT-X-BYTERANGE:11000@30000
        video.mp4
        #EXT-X-ENDLIST

        """

    package static let description = RuleDescription(
        id: "iframe-range-includes-initialization", name: "I-frame byte range includes the initialization section",
        defaultSeverity: .error,
        summary:
            "An I-frame segment's EXT-X-BYTERANGE overlaps the EXT-X-MAP byte range of the same resource, or, without EXT-X-MAP, starts at byte 0 of its resource, where the Media Initialization Section must be.",
        rationale:
            "bis-22 §4.4.3.6: an I-frame's byte range must not include the Media Initialization Section; a player takes the section from EXT-X-MAP or from the start of the resource up to the first I-frame, and fetches it once. A range that includes it makes every scrub to that I-frame download the section again, and is counted into the I-frame peak (BANDWIDTH). ffmpeg's `-hls_flags iframes_only` writes such a first range.",
        specItems: [
            .bis(
                "4.4.3.6", rfc: "4.3.3.6", .must,
                "An I-frame segment's byte range does not include its resource's initialization section (EXT-X-MAP's, or the bytes before the first I-frame)."
            )
        ],
        triggering: [
            RuleExample("first I-frame range from byte 0 without EXT-X-MAP", files: stream(Examples.iFrameMedia))
                .expecting(line: 6, "starts at byte 0 of seg0.ts"),
            RuleExample("first I-frame range over the EXT-X-MAP section", files: stream(mapped))
                .expecting(line: 7, "overlaps the initialization section 800@0"),
        ],
        nonTriggering: [
            RuleExample(
                "I-frame ranges after the PAT and PMT",
                files: stream(Examples.iFrameMedia.replacing("5000@0", with: "5000@376"))),
            RuleExample(
                "I-frame ranges after the EXT-X-MAP section",
                files: stream(mapped.replacing("12000@0", with: "11200@800"))),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media, media.iFramesOnly else { return [] }
            var findings: [Finding] = []
            for segment in media.segments {
                guard let range = segment.byteRange, segment.unreadableByteRangeLine == nil else { continue }
                let line = segment.extinfLine ?? segment.uriLine
                let location = playlist.location(line: line)
                if let map = segment.map {
                    guard
                        URIResolver.resolve(map.uri, against: playlist.uri)
                            == URIResolver.resolve(segment.uri, against: playlist.uri)
                    else { continue }
                    let section = map.byteRange.map { "\($0.length)@\($0.offset)" } ?? "(the whole resource)"
                    let overlaps =
                        map.byteRange.map {
                            range.offset < $0.offset + $0.length && $0.offset < range.offset + range.length
                        } ?? true
                    guard overlaps else { continue }
                    let after = map.byteRange.map { " (from byte \($0.offset + $0.length))" } ?? ""
                    findings.append(
                        Finding(
                            "the I-frame byte range \(range.length)@\(range.offset) overlaps the initialization section \(section) that EXT-X-MAP (line \(map.line)) gives in the same resource: start the range at the I-frame's moof, after the section\(after)",
                            at: location))
                } else if range.offset == 0 {
                    findings.append(
                        Finding(
                            "the I-frame byte range \(range.length)@0 starts at byte 0 of \(segment.uri), where the resource's Media Initialization Section (its PAT and PMT) must be: start the range at the I-frame, after the section, or declare the section with EXT-X-MAP",
                            at: location))
                }
            }
            return findings
        }
    }
}

/// An fMP4 I-frame whose byte range holds no movie fragment box.
package struct IFrameMovieFragmentMissingRule: Rule {
    package static let description = RuleDescription(
        id: "iframe-moof-missing", name: "fMP4 I-frame without its moof", defaultSeverity: .error, settings: .appleOnly,
        summary:
            "The EXT-X-BYTERANGE of an fMP4 I-frame segment holds no moof box before its media data: it starts in the mdat, or not at a box boundary.",
        rationale:
            "Apple's authoring specification 6.10: an fMP4 I-frame segment includes the moof of its I-frame, since the moof's track run says where the frame's bytes are and how long it lasts; a range of sample bytes alone cannot be decoded. Each I-frame's range is read (as many as `--sample` reads of segments); the ranges of an encrypted resource are not.",
        specItems: [.apple("6.10", .must, "In fMP4, I-frame segments include the moof of their I-frame.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.iFramePlaylists.values.sorted { $0.playlistURI < $1.playlistURI }.flatMap { inspection in
            inspection.missingMovieFragment.map { problem in
                Finding(
                    "fMP4 I-frame segment: \(problem.message): start the range at the moof of the I-frame's fragment and end it after the I-frame's sample",
                    at: SourceLocation(uri: inspection.playlistURI, line: problem.line))
            }
        }
    }
}

extension CodecsMismatchRule {
    /// bis-22 §6.2.4 for I-frame streams: the CODECS of each EXT-X-I-FRAME-STREAM-INF against the
    /// codecs of its I-frames (IFramePlaylistInspection), judged as a variant's are (CodecsVerdict).
    static func iFrameFindings(_ stream: StreamAnalysis) -> [Finding] {
        guard let master = stream.multivariant else { return [] }
        return master.iFrameVariants.compactMap { iFrame in
            guard let declared = iFrame.codecs, !declared.isEmpty,
                let inspection = stream.iFramePlaylists[stream.loaded.resolvedURI(of: iFrame)],
                let verdict = CodecsVerdict(
                    declared: declared, detected: inspection.codecs, complete: inspection.isComplete),
                verdict.isWrong
            else { return nil }
            return Finding(
                "CODECS=\"\(declared.joined(separator: ","))\" of I-frame stream \(iFrame.uri): \(verdict.phrase.replacing("the segments hold", with: "the I-frames hold")) (detected: \(inspection.codecs.joined(separator: ",")))",
                at: stream.root.location(line: iFrame.line, column: iFrame.attributes["CODECS"]?.column ?? 0))
        }
    }
}
