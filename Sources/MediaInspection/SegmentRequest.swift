/// One segment to inspect: where its bytes are and, for fMP4, its EXT-X-MAP init section.
public struct SegmentRequest: Sendable, Hashable {
    /// The EXT-X-MAP resource: its URI and optional byte range.
    public struct InitSection: Sendable, Hashable {
        /// The resolved URI of the init section.
        public var uri: String
        /// The byte range inside it, nil for the whole resource.
        public var range: SegmentByteRange?

        /// Makes an init section.
        public init(uri: String, range: SegmentByteRange? = nil) {
            self.uri = uri
            self.range = range
        }
    }

    /// The resolved URI of the segment.
    public var uri: String
    /// The byte range inside it (EXT-X-BYTERANGE), nil for the whole resource.
    public var range: SegmentByteRange?
    /// EXT-X-MAP (RFC 8216 §4.3.2.5): demuxed together with the segment, concatenated in memory.
    public var initSection: InitSection?
    /// Run `avformat_find_stream_info` (≈0.3 ms audio, ≈2.5 ms video per segment): needed for
    /// exact profiles and sizes; worth it for the first segment of each variant, not for all.
    public var wantsStreamInfo: Bool
    /// EXT-X-KEY METHOD=AES-128: decrypt before inspecting (RFC 8216 §5.2).
    public var decryption: SegmentDecryption?
    /// Also decode every audio and video frame (`hlscheck check --decode`, SegmentDecoder).
    public var wantsDecode: Bool
    /// Why the segment must not be read (its bytes are unknown, e.g. an EXT-X-BYTERANGE that
    /// could not be read): inspecting it fails with this reason before any byte is opened.
    public var refusal: String?

    /// Makes a request; by default no init section, no stream info, no decryption, no decoding.
    public init(
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
