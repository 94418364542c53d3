import HLSPlaylist

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
