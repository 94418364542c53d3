/// One segment to inspect: where its bytes are and, for fMP4, its EXT-X-MAP init section.
package struct SegmentRequest: Sendable, Hashable {
    /// The EXT-X-MAP resource: its URI and optional byte range.
    package struct InitSection: Sendable, Hashable {
        /// The resolved URI of the init section.
        package var uri: String
        /// The byte range inside it, nil for the whole resource.
        package var range: SegmentByteRange?

        /// Makes an init section.
        package init(uri: String, range: SegmentByteRange? = nil) {
            self.uri = uri
            self.range = range
        }
    }

    /// The resolved URI of the segment.
    package var uri: String
    /// The byte range inside it (EXT-X-BYTERANGE), nil for the whole resource.
    package var range: SegmentByteRange?
    /// EXT-X-MAP (RFC 8216 §4.3.2.5): demuxed together with the segment, concatenated in memory.
    package var initSection: InitSection?
    /// Run `avformat_find_stream_info` (≈0.3 ms audio, ≈2.5 ms video per segment): needed for
    /// exact profiles and sizes; worth it for the first segment of each variant, not for all.
    package var wantsStreamInfo: Bool
    /// EXT-X-KEY METHOD=AES-128: decrypt before inspecting (RFC 8216 §5.2).
    package var decryption: SegmentDecryption?
    /// Also decode every audio and video frame (`hlscheck check --decode`, SegmentDecoder).
    package var wantsDecode: Bool
    /// Why the segment must not be read (its bytes are unknown, e.g. an EXT-X-BYTERANGE that
    /// could not be read): inspecting it fails with this reason before any byte is opened.
    package var refusal: String?

    /// Makes a request; by default no init section, no stream info, no decryption, no decoding.
    package init(
        uri: String, range: SegmentByteRange? = nil, initSection: InitSection? = nil, wantsStreamInfo: Bool = false,
        decryption: SegmentDecryption? = nil, wantsDecode: Bool = false
    ) {
        self.wantsDecode = wantsDecode
        self.uri = uri
        self.decryption = decryption
        self.range = range
        self.initSection = initSection
        self.wantsStreamInfo = wantsStreamInfo
    }
}
