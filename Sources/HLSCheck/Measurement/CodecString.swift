/// Classifies RFC 6381 codec strings as they appear in CODECS (RFC 8216 §4.3.4.2).
package enum CodecKind: String, Sendable, Hashable, Codable {
    case audio, video, text, unknown

    /// Classifies one RFC 6381 codec string by its sample entry (`mp4a`, `avc1`, `wvtt`, …); case-insensitive.
    package init(codec: String) {
        let fourCC = codec.split(separator: ".", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
        if Self.audioFourCCs.contains(fourCC) {
            self = .audio
        } else if Self.videoFourCCs.contains(fourCC) {
            self = .video
        } else if Self.textFourCCs.contains(fourCC) {
            self = .text
        } else {
            self = .unknown
        }
    }

    // ISO BMFF sample entry codes used in HLS CODECS (Apple HLS Authoring Spec, RFC 6381 §3).
    private static let audioFourCCs: Set<String> = [
        "mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "alac", "apac", "mhm1", "mhm2", "dtsc", "dtse", "dtsh",
        "dtsl", "dtsx", "mp3", ".mp3", "vorbis",
    ]
    private static let videoFourCCs: Set<String> = [
        "avc1", "avc2", "avc3", "avc4", "hvc1", "hev1", "dvh1", "dvhe", "dva1", "dvav", "av01", "dav1",
        "vp08", "vp09", "mp4v", "jpeg", "vvc1", "vvi1", "apch", "apcn",
    ]
    private static let textFourCCs: Set<String> = ["wvtt", "stpp", "tx3g", "c608", "c708"]
}
