import HLSPlaylist

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
