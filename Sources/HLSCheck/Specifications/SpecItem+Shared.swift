// Requirements that more than one rule enforces, each rule a part of it: declared once, so that
// every rule, `hlscheck rules` and docs/coverage.md quote the requirement in the same words.

extension SpecItem {
    /// QA1767: artwork-missing (no poster at all) and artwork-inconsistent (not in every segment).
    static let audioOnlyPoster = SpecItem(
        "QA1767", .should, "The audio-only variant carries a still image for players to show while it plays.")

    /// AS 9.15: frame-rate-missing (no FRAME-RATE) and frame-rate-mismatch (the wrong one).
    static let frameRateOnVideoVariants = SpecItem.apple(
        "9.15", .must, "Each EXT-X-STREAM-INF tag that includes video content has a FRAME-RATE attribute.")

    /// bis-22 §6.2.1: one live rule for each sequence number a reload may only increment.
    static let liveUpdatesOnlyAppendAndRemove = SpecItem.bis(
        "6.2.1", rfc: "6.2.1", .must,
        "A server changes a media playlist only by appending, removing from the front and incrementing EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE."
    )

    /// AS 8.3: judged from the playlists (duration-mismatch) and from the media (media-end-misaligned).
    static let audioAndVideoCoverSameDuration = SpecItem.apple(
        "8.3", .must, "Audio and video playlists cover the same duration of content.")

    /// AS 2.15: judged from the playlists (duration-mismatch) and from the media (media-end-misaligned).
    static let alternativeAudioLastsWholeContent = SpecItem.apple(
        "2.15", .must, "Alternative audio and audio description last the whole content.")

    /// bis-22 §4.4.6.2: BANDWIDTH is the peak, neither below it (bandwidth-below-peak) nor far
    /// above it (bandwidth-above-peak).
    static let bandwidthIsMeasuredPeak = SpecItem.bis(
        "4.4.6.2", rfc: "4.3.4.2", .must,
        "Once every segment exists, BANDWIDTH is the largest sum of peak segment bit rates over the playable combinations of renditions."
    )

    /// AS 1.27: the 10 % both bandwidth-below-peak and bandwidth-above-peak allow.
    static let vodPeakWithinTenPercentOfBandwidth = SpecItem.apple(
        "1.27", .must, "For VOD, the measured peak bit rate is within 10 % of BANDWIDTH.")
}
