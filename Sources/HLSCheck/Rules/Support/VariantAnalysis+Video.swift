import HLSPlaylist

extension VariantAnalysis {
    /// Whether the variant carries video: by CODECS, by a VIDEO rendition group, or by its
    /// measured segments. Without CODECS and without measurement, RESOLUTION says so.
    var carriesVideo: Bool {
        if let codecs = stream?.codecs, codecs.contains(where: { CodecKind(codec: $0) == .video }) { return true }
        if !videoRenditions.isEmpty { return true }
        if measurement?.containsVideo == true { return true }
        return stream?.codecs == nil && measurement == nil && stream?.resolution != nil
    }
}
