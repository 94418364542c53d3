import HLSPlaylist

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
