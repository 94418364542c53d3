package import MediaFormats

/// The container a segment was demuxed as (chosen from the URI extension, else sniffed).
/// The raw value is libavformat's name for the demuxer (`unknown` aside).
package enum SegmentContainer: String, Sendable, Hashable, Codable, CaseIterable {
    /// MPEG-2 transport stream (ISO/IEC 13818-1).
    case mpegTS = "mpegts"
    /// Packed audio (RFC 8216 §3.4): ADTS AAC, MP3, AC-3, E-AC-3.
    case adts = "aac"
    /// Packed MPEG audio (MP3).
    case mp3
    /// Packed AC-3.
    case ac3
    /// Packed E-AC-3.
    case eac3
    /// ISO BMFF / CMAF (fMP4, .m4s, .mp4, .m4a, .cmf*).
    case fragmentedMP4 = "mov"
    /// A WebVTT subtitle segment (RFC 8216 §3.5): text, measured for its bytes, not demuxed.
    case webVTT = "webvtt"
    /// Not recognised: libavformat probes the bytes itself.
    case unknown

    /// Packed audio is the only kind that must start with the timestamp ID3 tag.
    package var isPackedAudio: Bool {
        switch self {
        case .adts, .mp3, .ac3, .eac3: return true
        case .mpegTS, .fragmentedMP4, .webVTT, .unknown: return false
        }
    }
}

/// What one media segment contains, as measured by demuxing it.
package struct SegmentFacts: Sendable, Hashable, Codable {
    /// The segment's URI as requested.
    package var uri: String
    /// Bytes of the segment itself (without the EXT-X-MAP init section).
    package var byteCount: Int
    /// The container it was demuxed as.
    package var container: SegmentContainer
    /// Every track libavformat found, in stream order.
    package var tracks: [TrackFacts]
    /// Seconds covered by the longest audio or video track, from packet timestamps:
    /// max(pts + duration) − min(pts). Container estimates are wrong for TS and init+fragment.
    package var duration: Double?
    /// Earliest audio/video presentation timestamp, in seconds. For packed audio, the PRIV
    /// transport stream timestamp (nil without it), since the raw stream has no timestamps.
    package var firstPTS: Double?
    /// Every ID3 tag found in the segment (leading/packed, TS timed-metadata PES, …).
    package var id3: [ID3TagFacts]
    /// APIC pictures found in those tags (the image bytes are not kept; see `extractPictures`).
    package var artwork: [PictureFacts]
    /// For packed audio: the PTS (90 kHz) from the leading tag's
    /// `com.apple.streaming.transportStreamTimestamp` PRIV frame (RFC 8216 §3.4), nil when absent.
    package var transportStreamTimestamp: Int64?
    /// Why the segment could not be demuxed (fully), nil when it was fine.
    package var problem: String?
    /// MPEG-TS only: continuity_counter gaps inside the segment and each PID's edge counters.
    package var continuity: TransportStreamContinuity?
    /// Whether the first video packet is a keyframe (an IDR picture); nil without video.
    package var videoStartsWithKeyframe: Bool?
    /// H.264/HEVC carried in-band (MPEG-TS): whether the first keyframe is preceded by its
    /// parameter sets (SPS and PPS; VPS too for HEVC) in the segment. Nil where they live in the
    /// EXT-X-MAP init section (fMP4) or without such video.
    package var keyframeHasParameterSets: Bool?
    /// For a segment the request asked to decrypt: whether it was (nil: not encrypted).
    package var decryption: DecryptionOutcome?
    /// With `--decode`: what decoding each audio and video track found. Nil when the segment was
    /// not decoded (absent facts, not "no errors").
    package var decoding: [TrackDecodeFacts]?

    /// Makes facts; the fields not listed start nil.
    package init(
        uri: String, byteCount: Int, container: SegmentContainer, tracks: [TrackFacts] = [],
        duration: Double? = nil, firstPTS: Double? = nil, id3: [ID3TagFacts] = [],
        artwork: [PictureFacts] = [], transportStreamTimestamp: Int64? = nil, problem: String? = nil
    ) {
        self.uri = uri
        self.byteCount = byteCount
        self.container = container
        self.tracks = tracks
        self.duration = duration
        self.firstPTS = firstPTS
        self.id3 = id3
        self.artwork = artwork
        self.transportStreamTimestamp = transportStreamTimestamp
        self.problem = problem
    }

    /// RFC 8216 §3.4: a packed-audio segment MUST start with an ID3 tag carrying the PRIV
    /// transport stream timestamp.
    package var startsWithTimestampTag: Bool {
        guard let first = id3.first, first.offset == 0 else { return false }
        return first.transportStreamTimestamp != nil
    }

    /// The RFC 6381 codec strings of all tracks that have one, in track order.
    package var codecStrings: [String] { tracks.compactMap(\.codecString) }
}

/// What a track carries.
package enum TrackKind: String, Sendable, Hashable, Codable {
    /// An audio track, a video track, or timed metadata (e.g. timed ID3 in MPEG-TS).
    case audio, video, timedMetadata
    /// A cover image libavformat exposes as a one-frame video stream (ID3 APIC of packed audio).
    case attachedPicture
    /// Subtitles: the cues of a WebVTT segment, or an fMP4 track of IMSC (TTML, sample entry stpp).
    case subtitles
    /// Any other stream (data, subtitles, or one without codec parameters).
    case other
}

/// One track of a segment, as libavformat describes it.
package struct TrackFacts: Sendable, Hashable, Codable {
    /// Audio, video, timed metadata, an attached picture or something else.
    package var kind: TrackKind
    /// libavcodec's codec name ("aac", "h264", "timed_id3", …).
    package var codecName: String
    /// RFC 6381 codec string as used in CODECS (e.g. "mp4a.40.2", "avc1.64000d"), nil when
    /// not determinable.
    package var codecString: String?
    /// Audio channel count, nil for other tracks or when unknown.
    package var channels: Int?
    /// Audio sample rate in Hz, nil for other tracks or when unknown.
    package var sampleRate: Int?
    /// Video width in pixels, nil for other tracks or when unknown.
    package var width: Int?
    /// Video height in pixels, nil for other tracks or when unknown.
    package var height: Int?
    /// Packets demuxed from this track.
    package var packetCount: Int
    /// Seconds from this track's packet timestamps, nil without timestamps.
    package var duration: Double?
    /// Video: frames per second from the packets' presentation timestamps (frame intervals over
    /// their span, exact for a constant rate); nil for other tracks or without two timestamps.
    package var frameRate: Double?
    /// Video: the transfer characteristics the bitstream declares, as an ITU-T H.273 code point
    /// (1 BT.709, 16 PQ, 18 HLG, …); nil when it declares none or "unspecified" (2).
    package var transferCharacteristics: Int?
    /// Video: the colour primaries the bitstream declares (ITU-T H.273: 1 BT.709, 9 BT.2020);
    /// nil when it declares none or "unspecified".
    package var colourPrimaries: Int?
    /// Video: whether the bitstream codes interlaced pictures (H.264 frame_mbs_only_flag 0, HEVC
    /// general_interlaced_source_flag, or a field order libavcodec reports); nil when unknown.
    package var interlaced: Bool?
    /// Video: the Dolby Vision configuration record (dvcC/dvvC box, DOVI descriptor), nil without one.
    package var dolbyVision: DolbyVisionConfiguration?
    /// HEVC video: which HDR10 static metadata it carries; nil for other codecs.
    package var hdrStaticMetadata: HDRStaticMetadata?
    /// Video: bits per luma sample, from the pixel format libavcodec found; nil when unknown.
    package var bitDepth: Int?
    /// Audio: the channel layout as a mask of speaker positions (libavutil's AV_CH_* bits), nil
    /// when the layout is unknown or not a set of standard positions.
    package var channelMask: UInt64?
    /// AAC: how its AudioSpecificConfig (an fMP4 sample entry's esds) signals SBR; nil without one.
    package var sbrSignalling: AACSBRSignalling?
    /// Seconds: the track's earliest presentation timestamp, nil without timestamps (raw packed
    /// audio carries none: its segment's `firstPTS` comes from the ID3 PRIV tag).
    package var startTime: Double?
    /// The track's identifier in its container: the PID in MPEG-TS, the track_ID in ISO BMFF
    /// (libavformat's stream id); nil when the container gives none.
    package var id: Int?
    /// fMP4 only: the track's timescale (units a second), and from the segment's boxes
    /// (`MovieFragmentTiming`) the first fragment's decode time (tfdt) and the end of its last
    /// fragment (that tfdt plus its samples' durations), in those units; nil for other
    /// containers or when the boxes do not say.
    package var decodeTimeScale: Int?
    /// See `decodeTimeScale`.
    package var firstDecodeTime: Int64?
    /// See `decodeTimeScale`.
    package var decodeEndTime: Int64?

    /// What describes the track's format, without what varies from segment to segment.
    package var format: TrackFormat {
        TrackFormat(
            kind: kind, codecName: codecName, codecString: codecString, channels: channels, channelMask: channelMask,
            transferCharacteristics: transferCharacteristics, colourPrimaries: colourPrimaries, interlaced: interlaced,
            dolbyVision: dolbyVision, sbrSignalling: sbrSignalling, hdrStaticMetadata: hdrStaticMetadata,
            bitDepth: bitDepth)
    }

    /// Makes the facts of one track.
    package init(
        kind: TrackKind, codecName: String, codecString: String? = nil, channels: Int? = nil,
        sampleRate: Int? = nil, width: Int? = nil, height: Int? = nil, packetCount: Int = 0,
        duration: Double? = nil
    ) {
        self.kind = kind
        self.codecName = codecName
        self.codecString = codecString
        self.channels = channels
        self.sampleRate = sampleRate
        self.width = width
        self.height = height
        self.packetCount = packetCount
        self.duration = duration
    }
}

/// Dolby Vision's decoder configuration record (Dolby Vision streams within ISO BMFF §3.2 /
/// within MPEG-2 TS §2.2), as libavformat reads it.
package struct DolbyVisionConfiguration: Sendable, Hashable, Codable {
    /// dv_profile: 5, 8, 10, …
    package var profile: Int
    /// dv_level: 1 to 13.
    package var level: Int
    /// dv_bl_signal_compatibility_id: what the base layer is without the enhancement (1 HDR10, 2 SDR, 4 HLG).
    package var compatibility: Int

    /// Makes a configuration.
    package init(profile: Int, level: Int, compatibility: Int = 0) {
        self.profile = profile
        self.level = level
        self.compatibility = compatibility
    }
}

/// How an AAC AudioSpecificConfig signals spectral band replication, the "HE" of HE-AAC
/// (ISO/IEC 14496-3 §1.6.5): a decoder that is told of SBR before the first frame outputs at
/// the full rate from the start; told nothing, it finds SBR only in the frames (implicit).
package enum AACSBRSignalling: String, Sendable, Hashable, Codable {
    /// Object type 5 or 29 first, then the core's (hierarchical signalling).
    case hierarchical
    /// An AAC-LC config followed by the sync extension 0x2b7 with sbrPresentFlag set.
    case backwardCompatible
    /// An AAC-LC config that does not signal SBR: any SBR in the frames is implicit.
    case notSignalled
    /// An AAC-LC config that does not signal SBR, over frames that carry it: libavcodec's
    /// decoder found SBR in the frames `avformat_find_stream_info` decoded (HE-AAC profile).
    case implicit
}

/// A track's format: codec, channels, colour, field coding. The same from segment to segment
/// of one rendition, so a playlist's records keep one copy per distinct format.
package struct TrackFormat: Sendable, Hashable, Codable {
    /// Audio, video, timed metadata, an attached picture or something else.
    package var kind: TrackKind
    /// libavcodec's codec name ("aac", "h264", "hevc", "av1", "flac", …).
    package var codecName: String
    /// RFC 6381 codec string, nil when not determinable.
    package var codecString: String?
    /// Audio: channel count.
    package var channels: Int?
    /// Audio: speaker positions (AV_CH_* bits).
    package var channelMask: UInt64?
    /// Video: ITU-T H.273 transfer characteristics.
    package var transferCharacteristics: Int?
    /// Video: ITU-T H.273 colour primaries.
    package var colourPrimaries: Int?
    /// Video: interlaced coding.
    package var interlaced: Bool?
    /// Video: Dolby Vision configuration.
    package var dolbyVision: DolbyVisionConfiguration?
    /// AAC: how its AudioSpecificConfig signals SBR; nil without one.
    package var sbrSignalling: AACSBRSignalling?
    /// HEVC video: which HDR10 static metadata it carries; nil for other codecs.
    package var hdrStaticMetadata: HDRStaticMetadata?
    /// Video: bits per luma sample; nil when unknown.
    package var bitDepth: Int?
}

/// One ID3v2 tag found in a segment, summarised (frame IDs and small text values, no images).
package struct ID3TagFacts: Sendable, Hashable, Codable {
    /// Byte offset in the segment where the tag (or the PES carrying it) starts.
    package var offset: Int
    /// 90 kHz PTS of the PES packet carrying the tag (MPEG-TS timed metadata), if any.
    package var pts90k: Int64?
    /// The ID3v2 major version (3 or 4), nil when the tag could not be read.
    package var majorVersion: Int?
    /// The tag's frames, in tag order.
    package var frames: [ID3FrameFacts]
    /// The PRIV `com.apple.streaming.transportStreamTimestamp` value (33-bit 90 kHz PTS).
    package var transportStreamTimestamp: Int64?
    /// Why the tag could not be read, nil when it was fine.
    package var problem: String?

    /// Makes the facts of one tag.
    package init(
        offset: Int, pts90k: Int64? = nil, majorVersion: Int? = nil, frames: [ID3FrameFacts] = [],
        transportStreamTimestamp: Int64? = nil, problem: String? = nil
    ) {
        self.offset = offset
        self.pts90k = pts90k
        self.majorVersion = majorVersion
        self.frames = frames
        self.transportStreamTimestamp = transportStreamTimestamp
        self.problem = problem
    }
}

/// One ID3 frame, kept small: its ID, a short human-readable value and its body size.
package struct ID3FrameFacts: Sendable, Hashable, Codable {
    /// The four-character frame ID, e.g. `APIC`, `PRIV`, `TXXX`.
    package var id: String
    /// Text value, PRIV owner, APIC MIME type — whatever identifies the frame; at most 256 chars.
    package var summary: String
    /// Bytes of the frame's payload: the image (APIC), the private data (PRIV), the UTF-8 text
    /// (text frames), or the whole body (other frames).
    package var byteCount: Int
    /// The whole frame (10-byte header and body) as ID3v2.4 writes it: what the frame costs a
    /// tag (poster budget arithmetic). Nil when unknown.
    package var frameByteCount: Int?
    /// APIC only: the picture type (3 = front cover, the poster's; 4 = back cover, …); nil for
    /// other frames and for an APIC frame that cannot be read.
    package var pictureType: Int?

    /// Makes the facts of one frame.
    package init(id: String, summary: String, byteCount: Int, frameByteCount: Int? = nil, pictureType: Int? = nil) {
        self.id = id
        self.summary = summary
        self.byteCount = byteCount
        self.frameByteCount = frameByteCount
        self.pictureType = pictureType
    }

    /// An APIC frame `hlscheck embed` replaces with its poster: a front cover, or a picture that
    /// cannot be read. Other pictures (a back cover, an artist photo) stay beside the poster.
    package var isReplacedByPoster: Bool { id == "APIC" && (pictureType ?? 3) == 3 }
}

/// An APIC picture, measured but not kept.
///
/// Its fields (`PictureFacts.Fields`, read and written as if they were its own properties) sit
/// behind one shared reference: the record of every segment that carries the poster holds these
/// facts, and a record is copied for each rule that reads it — one retain then, not one per
/// string. Encoded, compared and hashed by its fields, as a plain struct is.
@dynamicMemberLookup
package struct PictureFacts: Sendable, Hashable, Codable {
    package struct Fields: Sendable, Hashable, Codable {
        /// The APIC MIME type as written, e.g. "image/jpeg".
        package var mimeType: String
        /// ID3 picture type (3 = front cover).
        package var pictureType: Int
        /// Size of the image bytes.
        package var byteCount: Int
        /// SHA-256 of the image bytes, lowercase hex: the same poster in every segment has one hash.
        package var contentHash: String
        /// Width in pixels when the image decoded, else nil (see `decodeProblem`).
        package var width: Int?
        /// Height in pixels when the image decoded, else nil.
        package var height: Int?
        /// Why the image did not decode, nil when it did.
        package var decodeProblem: String?
        /// What the image bytes are by their signature ("image/jpeg", "image/png", "image/gif"),
        /// whatever `mimeType` says; nil when they start like none of them.
        package var contentType: String?
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    package subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set {
            var fields = box.fields
            fields[keyPath: field] = newValue
            box = Box(fields)
        }
    }

    /// Makes the facts of one picture.
    package init(
        mimeType: String, pictureType: Int, byteCount: Int, contentHash: String,
        width: Int? = nil, height: Int? = nil, decodeProblem: String? = nil, contentType: String? = nil
    ) {
        box = Box(
            Fields(
                mimeType: mimeType, pictureType: pictureType, byteCount: byteCount, contentHash: contentHash,
                width: width, height: height, decodeProblem: decodeProblem, contentType: contentType))
    }

    package static func == (lhs: PictureFacts, rhs: PictureFacts) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    package func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }

    package init(from decoder: any Decoder) throws {
        box = Box(try Fields(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try box.fields.encode(to: encoder)
    }
}

extension PictureFacts {
    /// The image format `bytes` start with: JPEG's SOI marker and APP segment (FF D8 FF), PNG's
    /// eight-byte signature, or GIF's "GIF8"; nil for anything else.
    package static func contentType(of bytes: some Collection<UInt8>) -> String? {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        return nil
    }
}
