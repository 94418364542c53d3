// The media playlist's model: segments, their byte ranges, keys, maps, date ranges and
// partial segments (rfc8216bis §4.4.3–4.4.5).

/// `#EXT-X-BYTERANGE` / BYTERANGE attribute, with the offset resolved: when the playlist omits
/// the offset, the range starts right after the previous range of the same resource (§4.3.2.2).
package struct ByteRange: Sendable, Hashable, Codable {
    /// Length in bytes.
    package var length: Int
    /// Offset of the first byte from the start of the resource.
    package var offset: Int

    /// Makes a range: `length` bytes from byte `offset`.
    package init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }
}

/// `#EXT-X-KEY` / `#EXT-X-SESSION-KEY` (RFC 8216 §4.3.2.4).
package struct EncryptionKey: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR, …
    package var method: String
    /// URI of the key as written (relative to the playlist or absolute); nil when absent (METHOD=NONE).
    package var uri: String?
    /// IV as bytes (should be 16), nil when absent.
    package var iv: [UInt8]?
    /// KEYFORMAT, nil when absent (meaning `identity`).
    package var keyFormat: String?
    /// KEYFORMATVERSIONS as written, nil when absent.
    package var keyFormatVersions: String?

    /// Makes a key with only its METHOD; the parser fills the attributes.
    package init(line: Int, method: String) {
        self.line = line
        self.method = method
    }

    /// Whether METHOD is anything but NONE.
    package var isEncrypting: Bool { method != "NONE" }
}

/// `#EXT-X-MAP` (RFC 8216 §4.3.2.5).
package struct MediaInitializationSection: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// The URI attribute as written (relative to the playlist or absolute); empty when missing (an
    /// error already reported).
    package var uri: String
    /// BYTERANGE of the resource, nil when absent (the whole resource); offset defaults to 0.
    package var byteRange: ByteRange?

    /// Makes a media initialization section.
    package init(line: Int, uri: String, byteRange: ByteRange?) {
        self.line = line
        self.uri = uri
        self.byteRange = byteRange
    }
}

/// `#EXT-X-DATERANGE` (RFC 8216 §4.3.2.7).
package struct DateRange: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// ID, nil when absent.
    package var id: String?
    /// Every attribute of the tag, in file order.
    package var attributes: AttributeList

    /// Makes a date range.
    package init(line: Int, id: String?, attributes: AttributeList) {
        self.line = line
        self.id = id
        self.attributes = attributes
    }
}

/// `#EXT-X-PART` (rfc8216bis §4.4.4.9).
package struct PartialSegment: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// URI as written (relative to the playlist or absolute).
    package var uri: String
    /// DURATION in seconds; 0 when absent or malformed.
    package var duration: Double
    /// INDEPENDENT=YES.
    package var independent: Bool
    /// BYTERANGE with its offset resolved, nil when absent.
    package var byteRange: ByteRange?
    /// GAP=YES.
    package var gap: Bool

    /// Makes a partial segment; `duration` in seconds.
    package init(line: Int, uri: String, duration: Double, independent: Bool, byteRange: ByteRange?, gap: Bool) {
        self.line = line
        self.uri = uri
        self.duration = duration
        self.independent = independent
        self.byteRange = byteRange
        self.gap = gap
    }
}

/// One media segment (RFC 8216 §3): its URI line and the tags in force for it.
///
/// Stored compactly, in 48 bytes (a playlist of 100 000 segments is a model of 100 000
/// of these): the key, the map, the bitrate and the media sequence base in force are one shared
/// reference for a run of segments (each segment keeps a 24-bit delta), the title, byte range
/// and partial segments, rare, one reference only when present; a numbered URI is its run's
/// template and its number, any other URI a range of one buffer of URI bytes per playlist; the
/// EXTINF line is a small delta from the URI line. The public properties read and write through
/// them as if they were stored. Cost trap: `uri` makes a `String` on each read.
package struct MediaSegment: Sendable, Hashable, CustomReflectable {
    /// Where the URI's text is: a run's template with `uriPayload` as the number, or a buffer of
    /// URI bytes with `uriPayload` as `offset << 24 | length`.
    var uriSource: URISource
    /// See `uriSource`.
    var uriPayload: UInt64
    /// EXTINF duration in seconds.
    package var duration: Double
    /// The `#EXT-X-PROGRAM-DATE-TIME` value, packed (`PackedDateTime`); 0 when it is not.
    var packedDateTime: UInt64 = 0
    /// The key, map, bitrate and media sequence base in force (shared by a run of segments),
    /// alone or with what few segments have (title, byte range, parts, …).
    var tail: SegmentTail
    /// Line of the URI; `UInt32.max`: in the extras.
    var storedURILine: UInt32
    /// Bits 0–23: media sequence number minus the context's base; 24–29: URI line minus EXTINF
    /// line (0: no EXTINF; 63: in the extras); 30: discontinuity; 31: gap.
    var bits: UInt32

    static let sequenceMask: UInt32 = 0xFF_FFFF
    static let extinfShift: UInt32 = 24
    static let extinfMask: UInt32 = 0x3F << 24
    static let extinfInExtras: UInt32 = 63
    static let discontinuityBit: UInt32 = 1 << 30
    static let gapBit: UInt32 = 1 << 31

    /// Makes a segment; `duration` in seconds; the other fields start empty.
    package init(uri: String, uriLine: Int, duration: Double, mediaSequence: Int) {
        let text = URIText(Array(uri.utf8))
        self.uriSource = .text(text)
        self.uriPayload = URIText.whole
        self.duration = duration
        self.tail = .shared(SegmentContext(key: nil, map: nil, bitrate: nil, sequenceBase: mediaSequence))
        self.storedURILine = 0
        self.bits = 0
        self.uriLine = uriLine
    }

    /// A parsed segment: the parser has every field at hand.
    init(
        source: URISource, payload: UInt64, uriLine: Int, extinfLine: Int?, duration: Double, context: SegmentContext,
        sequenceDelta: Int
    ) {
        self.uriSource = source
        self.uriPayload = payload
        self.duration = duration
        self.tail = .shared(context)
        self.storedURILine = 0
        self.bits = UInt32(truncatingIfNeeded: sequenceDelta) & Self.sequenceMask
        if let line = UInt32(exactly: uriLine), line != .max {
            storedURILine = line
            guard let extinfLine else { return }
            let delta = uriLine &- extinfLine
            if delta > 0, delta < Int(Self.extinfInExtras) {
                bits |= UInt32(delta) << Self.extinfShift
                return
            }
        } else {
            self.uriLine = uriLine
        }
        self.extinfLine = extinfLine
    }

    /// The URI as written (after variable substitution). Made on each read (a numbered URI from
    /// its template, another from the playlist's buffer of URI bytes): a loop over 100 000
    /// segments that only compares them can use `uriTemplate` first.
    package var uri: String {
        get {
            switch uriSource {
            case .template(let template): return template.uri(uriPayload)
            case .text(let text): return text.string(uriPayload)
            }
        }
        set {
            uriSource = .text(URIText(Array(newValue.utf8)))
            uriPayload = URIText.whole
        }
    }

    /// The template of a numbered URI, nil for another.
    var uriTemplate: URITemplate? {
        if case .template(let template) = uriSource { return template }
        return nil
    }

    /// Line of the URI.
    package var uriLine: Int {
        get { storedURILine == .max ? rare.uriLine ?? 0 : Int(storedURILine) }
        set {
            if let small = UInt32(exactly: newValue), small != .max {
                let extinf = extinfLine
                storedURILine = small
                if rare.uriLine != nil { rare.uriLine = nil }
                extinfLine = extinf
            } else {
                let extinf = extinfLine
                rare.uriLine = newValue
                storedURILine = .max
                extinfLine = extinf
            }
        }
    }

    /// Line of the `#EXTINF` tag, nil when it is missing (a syntax error already reported).
    package var extinfLine: Int? {
        get {
            let delta = (bits & Self.extinfMask) >> Self.extinfShift
            if delta == 0 { return nil }
            if delta == Self.extinfInExtras { return rare.extinfLine }
            return uriLine - Int(delta)
        }
        set {
            var delta: UInt32 = 0
            if let newValue {
                let difference = uriLine.subtractingReportingOverflow(newValue)
                if !difference.overflow, difference.partialValue > 0, difference.partialValue < Int(Self.extinfInExtras)
                {
                    delta = UInt32(difference.partialValue)
                } else {
                    delta = Self.extinfInExtras
                }
            }
            if delta == Self.extinfInExtras {
                rare.extinfLine = newValue
            } else if rare.extinfLine != nil {
                rare.extinfLine = nil
            }
            bits = bits & ~Self.extinfMask | delta << Self.extinfShift
        }
    }

    /// Preceded by `#EXT-X-DISCONTINUITY`.
    package var discontinuity: Bool {
        get { bits & Self.discontinuityBit != 0 }
        set { bits = newValue ? bits | Self.discontinuityBit : bits & ~Self.discontinuityBit }
    }

    /// Preceded by `#EXT-X-GAP`.
    package var gap: Bool {
        get { bits & Self.gapBit != 0 }
        set { bits = newValue ? bits | Self.gapBit : bits & ~Self.gapBit }
    }

    /// Media sequence number of this segment.
    package var mediaSequence: Int {
        get { context.sequenceBase &+ Int(bits & Self.sequenceMask) }
        set {
            let delta = newValue.subtractingReportingOverflow(context.sequenceBase)
            if !delta.overflow, delta.partialValue >= 0, delta.partialValue <= Int(Self.sequenceMask) {
                bits = bits & ~Self.sequenceMask | UInt32(delta.partialValue)
            } else {
                context = context.with(sequenceBase: newValue)
                bits &= ~Self.sequenceMask
            }
        }
    }

    /// The key, map, bitrate and media sequence base in force.
    var context: SegmentContext {
        get {
            switch tail {
            case .shared(let context): return context
            case .own(let extras): return extras.context
            }
        }
        set {
            if case .own(let extras) = tail {
                tail = .own(SegmentExtras(extras.fields, context: newValue))
            } else {
                tail = .shared(newValue)
            }
        }
    }

    /// What few segments have.
    var rare: SegmentRareFields {
        get {
            if case .own(let extras) = tail { return extras.fields }
            return SegmentRareFields()
        }
        set {
            let context = self.context
            tail = newValue.isEmpty ? .shared(context) : .own(SegmentExtras(newValue, context: context))
        }
    }

    /// `#EXT-X-PROGRAM-DATE-TIME` value as written, when the tag precedes this segment; nil otherwise.
    package var programDateTime: String? {
        get { packedDateTime != 0 ? PackedDateTime.text(packedDateTime) : rare.writtenDateTime }
        set {
            var text = newValue
            let packed = text?.withUTF8 { PackedDateTime.pack($0) }
            packedDateTime = packed ?? 0
            let written = packed == nil ? newValue : nil
            if rare.writtenDateTime != written { rare.writtenDateTime = written }
        }
    }

    /// The EXTINF title (after the comma), nil when absent or empty.
    package var title: String? {
        get { rare.title }
        set { rare.title = newValue }
    }
    /// `#EXT-X-BYTERANGE` with its offset resolved, nil when the segment is the whole resource.
    package var byteRange: ByteRange? {
        get { rare.byteRange }
        set { rare.byteRange = newValue }
    }
    /// The line of an `#EXT-X-BYTERANGE` for this segment that could not be read (a malformed or
    /// out-of-range value, reported as playlist-syntax): which bytes are the segment is unknown,
    /// so nothing is measured from it. Nil when there is none.
    package var unreadableByteRangeLine: Int? {
        get { rare.unreadableByteRangeLine }
        set { rare.unreadableByteRangeLine = newValue }
    }
    /// Partial segments that make up this segment (low-latency HLS).
    package var parts: [PartialSegment] {
        get { rare.parts }
        set { rare.parts = newValue }
    }
    /// The key in force for this segment, nil when none or METHOD=NONE.
    package var key: EncryptionKey? {
        get { context.key }
        set { context = SegmentContext(key: newValue, map: map, bitrate: bitrate, sequenceBase: context.sequenceBase) }
    }
    /// The EXT-X-MAP in force for this segment.
    package var map: MediaInitializationSection? {
        get { context.map }
        set { context = SegmentContext(key: key, map: newValue, bitrate: bitrate, sequenceBase: context.sequenceBase) }
    }
    /// `#EXT-X-BITRATE` in force, kbit/s.
    package var bitrate: Int? {
        get { context.bitrate }
        set { context = SegmentContext(key: key, map: map, bitrate: newValue, sequenceBase: context.sequenceBase) }
    }

    /// The same key, map and bitrate as `other`'s, known without comparing (one shared
    /// reference): what looks at each key and map once can skip the rest of a run.
    func sharesContext(with other: MediaSegment) -> Bool { context === other.context }

    /// Whether the URIs are equal, without making them when both are of one template or buffer.
    private static func sameURI(_ lhs: MediaSegment, _ rhs: MediaSegment) -> Bool {
        switch (lhs.uriSource, rhs.uriSource) {
        case (.template(let a), .template(let b)) where a === b: return lhs.uriPayload == rhs.uriPayload
        case (.text(let a), .text(let b)) where a === b && lhs.uriPayload == rhs.uriPayload: return true
        default: return lhs.uri == rhs.uri
        }
    }

    package static func == (lhs: MediaSegment, rhs: MediaSegment) -> Bool {
        let lhsContext = lhs.context, rhsContext = rhs.context
        return sameURI(lhs, rhs)
            && lhs.uriLine == rhs.uriLine && lhs.extinfLine == rhs.extinfLine
            && lhs.discontinuity == rhs.discontinuity && lhs.gap == rhs.gap && lhs.duration == rhs.duration
            && lhs.mediaSequence == rhs.mediaSequence && lhs.packedDateTime == rhs.packedDateTime
            && (lhsContext === rhsContext
                || (lhsContext.key == rhsContext.key && lhsContext.map == rhsContext.map
                    && lhsContext.bitrate == rhsContext.bitrate))
            && lhs.title == rhs.title && lhs.byteRange == rhs.byteRange && lhs.parts == rhs.parts
            && lhs.rare.writtenDateTime == rhs.rare.writtenDateTime
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(uriLine)
        hasher.combine(extinfLine)
        hasher.combine(duration)
        hasher.combine(title)
        hasher.combine(byteRange)
        hasher.combine(discontinuity)
        hasher.combine(key)
        hasher.combine(map)
        hasher.combine(programDateTime)
        hasher.combine(gap)
        hasher.combine(bitrate)
        hasher.combine(parts)
        hasher.combine(mediaSequence)
    }

    /// The public fields, in the order they were declared when each was stored.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "uri": uri as Any, "uriLine": uriLine as Any, "extinfLine": extinfLine as Any,
                "duration": duration as Any,
                "title": title as Any, "byteRange": byteRange as Any, "discontinuity": discontinuity as Any,
                "key": key as Any,
                "map": map as Any, "programDateTime": programDateTime as Any, "gap": gap as Any,
                "bitrate": bitrate as Any,
                "parts": parts as Any, "mediaSequence": mediaSequence as Any,
            ], displayStyle: .struct)
    }
}

/// `#EXT-X-PLAYLIST-TYPE` (RFC 8216 §4.3.3.5).
package enum PlaylistType: String, Sendable, Hashable, Codable {
    case event = "EVENT", vod = "VOD"
}

/// A media playlist (RFC 8216 §4.3.3): its segments and the tags that apply to them.
package struct MediaPlaylist: Sendable, Hashable {
    /// EXT-X-VERSION, from the first such tag; nil when absent (meaning version 1).
    package var version: Int?
    /// 1-based line of that EXT-X-VERSION tag, nil when absent.
    package var versionLine: Int?
    /// EXT-X-TARGETDURATION in seconds, nil when absent or malformed.
    package var targetDuration: Int?
    /// 1-based line of the EXT-X-TARGETDURATION tag, nil when absent.
    package var targetDurationLine: Int?
    /// EXT-X-MEDIA-SEQUENCE; 0 when absent.
    package var mediaSequence: Int
    /// 1-based line of the EXT-X-MEDIA-SEQUENCE tag, nil when absent.
    package var mediaSequenceLine: Int?
    /// EXT-X-DISCONTINUITY-SEQUENCE; 0 when absent.
    package var discontinuitySequence: Int
    /// 1-based line of the EXT-X-DISCONTINUITY-SEQUENCE tag, nil when absent.
    package var discontinuitySequenceLine: Int?
    /// EXT-X-PLAYLIST-TYPE, nil when absent.
    package var playlistType: PlaylistType?
    /// Whether `#EXT-X-ENDLIST` is present.
    package var endList: Bool
    /// Whether `#EXT-X-I-FRAMES-ONLY` is present.
    package var iFramesOnly: Bool
    /// Whether `#EXT-X-INDEPENDENT-SEGMENTS` is present.
    package var independentSegments: Bool
    /// The media segments in file order.
    package var segments: [MediaSegment]
    /// `#EXT-X-DATERANGE` tags in file order.
    package var dateRanges: [DateRange]
    /// `#EXT-X-PART-INF:PART-TARGET`.
    package var partTarget: Double?
    /// `#EXT-X-SERVER-CONTROL` attributes.
    package var serverControl: AttributeList?
    /// `#EXT-X-PRELOAD-HINT` tags.
    package var preloadHints: [AttributeList]
    /// `#EXT-X-RENDITION-REPORT` tags.
    package var renditionReports: [AttributeList]
    /// `#EXT-X-SKIP:SKIPPED-SEGMENTS`.
    package var skippedSegments: Int?
    /// Partial segments after the last complete segment.
    package var trailingParts: [PartialSegment]
    /// `#EXT-X-START`, the first one; nil when absent.
    package var start: StartPoint?
    /// `#EXT-X-DEFINE` tags, in file order.
    package var definitions: [VariableDefinition]

    /// Makes an empty playlist.
    package init() {
        self.mediaSequence = 0
        self.discontinuitySequence = 0
        self.endList = false
        self.iFramesOnly = false
        self.independentSegments = false
        self.segments = []
        self.dateRanges = []
        self.preloadHints = []
        self.renditionReports = []
        self.trailingParts = []
        self.definitions = []
    }

    /// Sum of EXTINF durations.
    package var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// What a playlist is: decided by which kind of tag it has more of.
