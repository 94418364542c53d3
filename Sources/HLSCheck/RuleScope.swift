/// What one finding of a rule is about: the stream as a whole, or one variant. A JUnit report
/// gives a per-variant rule one test case per variant, and every other rule one per stream, so
/// that a stream of eight variants does not list eight copies of `audio-only-variant-missing`.
public enum RuleScope: String, Sendable, Hashable, Codable {
    case stream, variant
}

extension RuleDescription {
    /// The rules whose findings each concern one variant: its declaration (EXT-X-STREAM-INF and
    /// URI lines), its media playlist, its segments or its renditions. Kept here, in one table,
    /// rather than in each rule; a test checks that every id is in the catalogue.
    public static let perVariantRuleIDs: Set<String> = [
        "playlist-unreadable", "target-duration-exceeded", "codecs-missing", "audio-only-over-budget",
        "artwork-over-budget", "artwork-missing", "artwork-inconsistent", "artwork-invalid", "bandwidth-below-peak",
        "bandwidth-above-peak", "average-bandwidth-mismatch", "codecs-mismatch", "codecs-sample-entry-mismatch",
        "audio-only-contains-video", "resolution-mismatch", "extinf-duration-mismatch", "packed-audio-timestamp-missing",
        "segment-unreadable", "continuity-error", "segment-starts-without-keyframe", "discontinuity-missing",
        "segment-encrypted", "decode-error", "average-bandwidth-missing", "resolution-missing", "frame-rate-missing",
        "frame-rate-mismatch",
        "video-codec-unsupported", "codec-container-unsupported", "video-profile-level-unsupported", "video-interlaced",
        "frame-rate-too-high", "hdr-format-unsupported", "video-range-mismatch", "audio-streams-multiple",
        "multichannel-audio-muxed", "format-change-without-discontinuity",
    ]

    public var scope: RuleScope { Self.perVariantRuleIDs.contains(id) ? .variant : .stream }
}
