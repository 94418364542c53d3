// The value model of an HLS playlist (RFC 8216 and draft-pantos-hls-rfc8216bis).
//
// Every element remembers the 1-based line it came from, so that every diagnostic downstream can
// point at the exact place in the file. Model types are plain Sendable values: the parser builds
// them once and nothing mutates them afterwards.

/// Where something is in a playlist file. `line` and `column` are 1-based; column 0 means "the
/// whole line".
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The playlist's URI as given to the parser (a path or URL string).
    public var uri: String
    /// 1-based line number; 0 means the whole file.
    public var line: Int
    /// 1-based column; 0 means the whole line.
    public var column: Int

    /// Makes a location; `column` defaults to 0, the whole line.
    public init(uri: String, line: Int, column: Int = 0) {
        self.uri = uri
        self.line = line
        self.column = column
    }

    /// `uri:line:column`, or `uri:line` when the column is 0.
    public var description: String {
        column > 0 ? "\(uri):\(line):\(column)" : "\(uri):\(line)"
    }
}

/// A content problem the parser found. Parsing never throws on content: it records a problem
/// and keeps going, like a compiler.
package struct PlaylistProblem: Sendable, Hashable {
    /// How serious a problem is: an error breaks a MUST of the specification, a warning a SHOULD or a
    /// likely mistake.
    package enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }

    /// What sort of rule a problem breaks, so that the rules layer can map each to its own rule id.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// A line, tag or attribute that breaks the grammar of RFC 8216 §4 (or a typed value).
        case syntax
        /// A structural rule that needs only this file: a missing or repeated tag, a tag of the
        /// wrong playlist kind, a URI line without its tag, …
        case structure
        /// EXT-X-VERSION is lower than a feature used in the file requires (RFC 8216 §7).
        case versionTooLow
        /// An EXT-X-DEFINE variable problem (rfc8216bis §4.3).
        case variable
        /// A rendition-group rule: references to undefined groups, duplicate NAMEs, several
        /// DEFAULT=YES members, DEFAULT=YES with AUTOSELECT=NO (RFC 8216 §4.3.4.1, §4.3.4.1.1, §4.3.4.2).
        case renditionGroup
    }

    /// Error or warning.
    package var severity: Severity
    /// What is wrong, for a person to read; names the tag or attribute involved.
    package var message: String
    /// Where the problem is, in the parsed playlist.
    package var location: SourceLocation
    /// Which kind of rule is broken; the rules layer maps it to a rule id.
    package var kind: Kind

    /// Makes a problem; `kind` defaults to `.syntax`.
    package init(_ severity: Severity, _ message: String, at location: SourceLocation, kind: Kind = .syntax) {
        self.severity = severity
        self.message = message
        self.location = location
        self.kind = kind
    }
}

/// A value of one attribute in an attribute list (RFC 8216 §4.2), with its raw text kept.
package enum AttributeValue: Sendable, Hashable {
    /// A decimal-integer (0 to 2^64-1, RFC 8216 §4.2).
    case decimalInteger(UInt64)
    /// A hexadecimal-sequence (`0x…`), as bytes.
    case hexadecimalSequence([UInt8])
    /// A non-negative decimal-floating-point.
    case decimalFloatingPoint(Double)
    /// A signed-decimal-floating-point.
    case signedDecimalFloatingPoint(Double)
    /// A quoted-string, quotes removed, after variable substitution.
    case quotedString(String)
    /// An enumerated-string (unquoted, e.g. `YES`, `AUDIO`).
    case enumeratedString(String)
    /// A decimal-resolution, `<width>x<height>`.
    case decimalResolution(Resolution)
}

/// A decimal-resolution attribute value (RFC 8216 §4.2), in pixels.
package struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int

    /// Makes a resolution from a width and height in pixels.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `<width>x<height>`, as written in a playlist.
    package var description: String { "\(width)x\(height)" }
}

/// One `NAME=value` pair of an attribute list, in file order.
package struct Attribute: Sendable, Hashable {
    /// The attribute name, e.g. `BANDWIDTH`.
    package var name: String
    /// The value text exactly as written (quotes included for quoted strings).
    package var rawValue: String
    /// 1-based column of the attribute name on its line.
    package var column: Int
    /// The typed value, when the parser knows the attribute's type and the value is well formed.
    /// Quoted strings and hexadecimal sequences are stored after variable substitution.
    package var value: AttributeValue?

    /// Makes an attribute; `value` is nil when untyped or malformed.
    package init(name: String, rawValue: String, column: Int, value: AttributeValue? = nil) {
        self.name = name
        self.rawValue = rawValue
        self.column = column
        self.value = value
    }

    /// The text of the value: a quoted string without its quotes (after substitution), otherwise
    /// the raw text.
    package var stringValue: String {
        switch value {
        case .quotedString(let s)?: return s
        case .enumeratedString(let s)?: return s
        default:
            if rawValue.count >= 2, rawValue.hasPrefix("\""), rawValue.hasSuffix("\"") {
                return String(rawValue.dropFirst().dropLast())
            }
            return rawValue
        }
    }
}

/// An attribute list in file order. Typed accessors interpret a value on demand.
package struct AttributeList: Sendable, Hashable {
    /// The attributes in file order. A repeated name is kept once, the first time (the repeat is
    /// a syntax error).
    package var attributes: [Attribute]

    /// Makes a list from attributes in file order.
    package init(_ attributes: [Attribute] = []) {
        self.attributes = attributes
    }

    /// The first attribute named `name`, nil when absent.
    package subscript(name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// Whether an attribute named `name` is present (whatever its value).
    package func contains(_ name: String) -> Bool { self[name] != nil }

    /// A quoted-string or enumerated-string attribute's text (quotes removed).
    package func string(_ name: String) -> String? { self[name]?.stringValue }

    /// A decimal-integer attribute, nil when absent or malformed.
    package func decimalInteger(_ name: String) -> UInt64? {
        if case .decimalInteger(let v)? = self[name]?.value { return v }
        return nil
    }

    /// A decimal-floating-point (or signed, or integer) attribute, nil when absent or malformed.
    package func decimalFloatingPoint(_ name: String) -> Double? {
        switch self[name]?.value {
        case .decimalFloatingPoint(let v)?, .signedDecimalFloatingPoint(let v)?: return v
        case .decimalInteger(let v)?: return Double(v)
        default: return nil
        }
    }

    /// A decimal-resolution attribute, nil when absent or malformed.
    package func resolution(_ name: String) -> Resolution? {
        if case .decimalResolution(let r)? = self[name]?.value { return r }
        return nil
    }

    /// A hexadecimal-sequence attribute as bytes, nil when absent or malformed.
    package func hexadecimalSequence(_ name: String) -> [UInt8]? {
        if case .hexadecimalSequence(let v)? = self[name]?.value { return v }
        return nil
    }
}

/// Any `#EXT…` tag line, as written. Kept for every tag, known or not, so that vendor tags
/// (SCTE-35 cues, `#EXT-X-CUE-OUT`, …) are never dropped.
package struct Tag: Sendable, Hashable {
    /// Tag name including the leading `#`, e.g. `#EXT-X-STREAM-INF`.
    package var name: String
    /// Everything after the first `:`, or nil when the tag has no colon.
    package var value: String?
    /// 1-based line of the tag.
    package var line: Int

    /// Makes a tag; `name` includes the leading `#`.
    package init(name: String, value: String?, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

// MARK: - Multivariant (master) playlist

/// The HDCP-LEVEL attribute of `#EXT-X-STREAM-INF` (RFC 8216 §4.3.4.2, rfc8216bis adds TYPE-1).
package enum HDCPLevel: String, Sendable, Hashable, Codable {
    case type0 = "TYPE-0", type1 = "TYPE-1", none = "NONE"
}

/// `#EXT-X-STREAM-INF` followed by its URI line (RFC 8216 §4.3.4.2).
package struct VariantStream: Sendable, Hashable {
    /// The URI line after the tag, as written (after variable substitution); a relative reference
    /// resolves against the playlist's URI.
    package var uri: String
    /// Line of the `#EXT-X-STREAM-INF` tag.
    package var line: Int
    /// Line of the URI that follows the tag.
    package var uriLine: Int
    /// Every attribute of the `#EXT-X-STREAM-INF` tag, in file order.
    package var attributes: AttributeList
    /// BANDWIDTH: the peak segment bit rate in bit/s (RFC 8216 §4.3.4.2); nil when absent or not an integer.
    package var bandwidth: Int?
    /// AVERAGE-BANDWIDTH: the average segment bit rate in bit/s; nil when absent.
    package var averageBandwidth: Int?
    /// The CODECS attribute split at commas and trimmed, nil when absent.
    package var codecs: [String]?
    /// RESOLUTION in pixels, nil when absent or malformed.
    package var resolution: Resolution?
    /// FRAME-RATE in frames per second, nil when absent.
    package var frameRate: Double?
    /// HDCP-LEVEL as written (`TYPE-0`, `TYPE-1`, `NONE`), nil when absent.
    package var hdcpLevel: String?
    /// VIDEO-RANGE as written (`SDR`, `HLG`, `PQ`), nil when absent.
    package var videoRange: String?
    /// AUDIO: the GROUP-ID of the `#EXT-X-MEDIA` audio renditions this variant uses, nil when absent.
    package var audioGroup: String?
    /// VIDEO: the GROUP-ID of the video renditions, nil when absent.
    package var videoGroup: String?
    /// SUBTITLES: the GROUP-ID of the subtitle renditions, nil when absent.
    package var subtitlesGroup: String?
    /// The CLOSED-CAPTIONS attribute: a group id, or nil for absent or `NONE`.
    package var closedCaptionsGroup: String?
    /// Whether CLOSED-CAPTIONS is the enumerated string `NONE`.
    package var closedCaptionsNone: Bool
    /// PATHWAY-ID (rfc8216bis, content steering), nil when absent.
    package var pathwayID: String?
    /// STABLE-VARIANT-ID (rfc8216bis), nil when absent.
    package var stableVariantID: String?

    /// Makes a variant with only its URI, lines and attributes; the typed fields start nil.
    package init(uri: String, line: Int, uriLine: Int, attributes: AttributeList) {
        self.uri = uri
        self.line = line
        self.uriLine = uriLine
        self.attributes = attributes
        self.closedCaptionsNone = false
    }
}

/// `#EXT-X-I-FRAME-STREAM-INF` (RFC 8216 §4.3.4.3).
package struct IFrameVariantStream: Sendable, Hashable {
    /// The URI attribute as written (relative to the playlist or absolute); empty when missing (an
    /// error already reported).
    package var uri: String
    /// 1-based line of the tag.
    package var line: Int
    /// Every attribute of the tag, in file order.
    package var attributes: AttributeList
    /// BANDWIDTH in bit/s, nil when absent.
    package var bandwidth: Int?
    /// AVERAGE-BANDWIDTH in bit/s, nil when absent.
    package var averageBandwidth: Int?
    /// CODECS split at commas and trimmed, nil when absent.
    package var codecs: [String]?
    /// RESOLUTION in pixels, nil when absent.
    package var resolution: Resolution?
    /// VIDEO: the GROUP-ID of the video renditions, nil when absent.
    package var videoGroup: String?

    /// Makes an I-frame variant; the typed fields start nil.
    package init(uri: String, line: Int, attributes: AttributeList) {
        self.uri = uri
        self.line = line
        self.attributes = attributes
    }
}

/// The TYPE attribute of `#EXT-X-MEDIA` (RFC 8216 §4.3.4.1).
package enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
}

/// `#EXT-X-MEDIA` (RFC 8216 §4.3.4.1).
package struct Rendition: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// Every attribute of the tag, in file order.
    package var attributes: AttributeList
    /// TYPE, nil when absent or not one of the four types.
    package var type: MediaType?
    /// GROUP-ID, nil when absent.
    package var groupID: String?
    /// NAME, nil when absent.
    package var name: String?
    /// URI as written (relative to the playlist or absolute), nil when absent (the rendition is in
    /// the variant's own segments).
    package var uri: String?
    /// LANGUAGE (RFC 5646 tag), nil when absent.
    package var language: String?
    /// ASSOC-LANGUAGE, nil when absent.
    package var assocLanguage: String?
    /// DEFAULT=YES.
    package var isDefault: Bool
    /// AUTOSELECT=YES.
    package var autoselect: Bool
    /// FORCED=YES.
    package var forced: Bool
    /// INSTREAM-ID (closed captions: `CC1`…`CC4`, `SERVICE1`…), nil when absent.
    package var instreamID: String?
    /// CHARACTERISTICS as written (comma-separated UTIs), nil when absent.
    package var characteristics: String?
    /// CHANNELS, e.g. "2" or "16/JOC".
    package var channels: String?

    /// Makes a rendition; the typed fields start nil and the flags false.
    package init(line: Int, attributes: AttributeList) {
        self.line = line
        self.attributes = attributes
        self.isDefault = false
        self.autoselect = false
        self.forced = false
    }
}

/// `#EXT-X-SESSION-DATA` (RFC 8216 §4.3.4.4).
package struct SessionData: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// DATA-ID, nil when absent.
    package var dataID: String?
    /// VALUE, nil when absent.
    package var value: String?
    /// URI, nil when absent.
    package var uri: String?
    /// LANGUAGE, nil when absent.
    package var language: String?
    /// FORMAT (bis-22 §4.4.6.4: JSON or RAW), nil when absent, which means JSON.
    package var format: String?

    /// Makes an entry with only its line; the parser fills the attributes.
    package init(line: Int) {
        self.line = line
    }
}

/// `#EXT-X-CONTENT-STEERING` (rfc8216bis §4.4.6.6).
package struct ContentSteering: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// SERVER-URI, nil when absent.
    package var serverURI: String?
    /// PATHWAY-ID, nil when absent.
    package var pathwayID: String?

    /// Makes an entry with only its line; the parser fills the attributes.
    package init(line: Int) {
        self.line = line
    }
}

/// `#EXT-X-START` (RFC 8216 §4.3.5.2).
package struct StartPoint: Sendable, Hashable {
    /// 1-based line of the tag.
    package var line: Int
    /// TIME-OFFSET in seconds (negative: from the end of the playlist), nil when absent or malformed.
    package var timeOffset: Double?
    /// PRECISE=YES.
    package var precise: Bool

    /// Makes a start point; `timeOffset` in seconds.
    package init(line: Int, timeOffset: Double?, precise: Bool) {
        self.line = line
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// `#EXT-X-DEFINE` (rfc8216bis §4.4.2.3): NAME/VALUE, IMPORT or QUERYPARAM.
package struct VariableDefinition: Sendable, Hashable {
    /// Where the variable's value comes from.
    package enum Kind: Sendable, Hashable {
        /// NAME/VALUE: the value given in the tag.
        case value(String)
        /// IMPORT: taken from the multivariant playlist.
        case imported
        /// QUERYPARAM: taken from the playlist URI's query.
        case queryParameter
    }

    /// 1-based line of the tag.
    package var line: Int
    /// The variable name (NAME, IMPORT or QUERYPARAM value).
    package var name: String
    /// Where the value comes from.
    package var kind: Kind

    /// Makes a definition.
    package init(line: Int, name: String, kind: Kind) {
        self.line = line
        self.name = name
        self.kind = kind
    }
}

/// A multivariant (master) playlist (RFC 8216 §4.3.4): variants, renditions and session data.
package struct MultivariantPlaylist: Sendable, Hashable {
    /// EXT-X-VERSION, from the first such tag; nil when absent (meaning version 1).
    package var version: Int?
    /// 1-based line of that EXT-X-VERSION tag, nil when absent.
    package var versionLine: Int?
    /// Whether `#EXT-X-INDEPENDENT-SEGMENTS` is present.
    package var independentSegments: Bool
    /// `#EXT-X-STREAM-INF` variants, in file order.
    package var variants: [VariantStream]
    /// `#EXT-X-I-FRAME-STREAM-INF` variants, in file order.
    package var iFrameVariants: [IFrameVariantStream]
    /// `#EXT-X-MEDIA` renditions, in file order.
    package var renditions: [Rendition]
    /// `#EXT-X-SESSION-DATA` tags, in file order.
    package var sessionData: [SessionData]
    /// `#EXT-X-SESSION-KEY` tags, same attributes as `#EXT-X-KEY`.
    package var sessionKeys: [EncryptionKey]
    /// `#EXT-X-CONTENT-STEERING`, the last one when repeated; nil when absent.
    package var contentSteering: ContentSteering?
    /// `#EXT-X-START`, the first one; nil when absent.
    package var start: StartPoint?
    /// `#EXT-X-DEFINE` tags, in file order.
    package var definitions: [VariableDefinition]

    /// Makes an empty playlist.
    package init() {
        self.independentSegments = false
        self.variants = []
        self.iFrameVariants = []
        self.renditions = []
        self.sessionData = []
        self.sessionKeys = []
        self.definitions = []
    }

    /// The renditions of one group of one type, in file order.
    package func renditions(ofType type: MediaType, group: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }
}

// MARK: - Media playlist

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

/// Where a segment's URI text is.
enum URISource: Sendable {
    /// A numbered URI of a run.
    case template(URITemplate)
    /// Bytes in a buffer (one per playlist for the parser's URIs).
    case text(URIText)
}

/// URI bytes, one after the other: the parser keeps every URI that is no template's in one of
/// these per playlist, 16 bytes a segment instead of a `String` (and its allocation) each.
final class URIText: Sendable {
    let bytes: [UInt8]

    /// The payload for "every byte of the buffer".
    static let whole: UInt64 = 0xFF_FFFF

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The payload for `length` bytes from `offset`, nil when it does not fit.
    static func payload(offset: Int, length: Int) -> UInt64? {
        guard length < Int(whole), offset < 1 << 40 else { return nil }
        return UInt64(offset) << 24 | UInt64(length)
    }

    /// The text a payload names.
    func string(_ payload: UInt64) -> String {
        let length = Int(payload & Self.whole), offset = Int(payload >> 24)
        return bytes.withUnsafeBufferPointer { buffer in
            let end = length == Int(Self.whole) ? buffer.count : min(offset + length, buffer.count)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[min(offset, end)..<end]), as: UTF8.self)
        }
    }
}

/// A segment's context alone (most segments), or with its rare fields.
enum SegmentTail: Sendable {
    case shared(SegmentContext)
    case own(SegmentExtras)
}

/// What few segments have: a title, a byte range, partial segments, a date-time that is not
/// packed, a line that does not fit the compact fields.
struct SegmentRareFields: Sendable, Hashable {
    var title: String?
    var byteRange: ByteRange?
    var parts: [PartialSegment] = []
    var writtenDateTime: String?
    var uriLine: Int?
    var extinfLine: Int?
    var unreadableByteRangeLine: Int?

    var isEmpty: Bool {
        title == nil && byteRange == nil && parts.isEmpty && writtenDateTime == nil && uriLine == nil
            && extinfLine == nil
            && unreadableByteRangeLine == nil
    }
}

/// A segment's rare fields with its context.
final class SegmentExtras: Sendable {
    let fields: SegmentRareFields
    let context: SegmentContext

    init(_ fields: SegmentRareFields, context: SegmentContext) {
        self.fields = fields
        self.context = context
    }
}

/// A date-time as most playlists write it, `YYYY-MM-DDThh:mm:ss[.f[f[f]]]Z`, in one integer rather
/// than a 24-byte string per segment: its 14 to 17 digits and how many of them are fractional.
/// Nothing else is packed, so the text comes back exactly as written.
enum PackedDateTime {
    /// The packed value (never 0), nil when `bytes` is not of that form.
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        // "2022-06-10T03:31:00Z" is 20 bytes; with ".fff", 24.
        let count = bytes.count
        guard count >= 20, count <= 24, count != 21, bytes[count - 1] == UInt8(ascii: "Z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        let fraction = count == 20 ? 0 : count - 21
        if fraction > 0, bytes[19] != UInt8(ascii: ".") { return nil }
        var digits: UInt64 = 0
        // Every byte but the separators (4, 7, 10, 13, 16, 19) and the final Z is a digit.
        var index = 0
        while index < count - 1 {
            switch index {
            case 4, 7, 10, 13, 16, 19: break
            default:
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                digits = digits &* 10 &+ UInt64(digit)
            }
            index += 1
        }
        return (digits << 2 | UInt64(fraction)) | (1 << 63)
    }

    /// The text `pack` read.
    static func text(_ packed: UInt64) -> String {
        let fraction = Int(packed & 3)
        var digits = (packed & ~(1 << 63)) >> 2
        let count = fraction == 0 ? 20 : 21 + fraction
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = count - 1
            buffer[index] = UInt8(ascii: "Z")
            while index > 0 {
                index -= 1
                switch index {
                case 4, 7: buffer[index] = UInt8(ascii: "-")
                case 10: buffer[index] = UInt8(ascii: "T")
                case 13, 16: buffer[index] = UInt8(ascii: ":")
                case 19: buffer[index] = UInt8(ascii: ".")
                default:
                    buffer[index] = UInt8(ascii: "0") + UInt8(digits % 10)
                    digits /= 10
                }
            }
            return count
        }
    }
}

/// A URI as `prefix`, a decimal number (no leading zero) and `suffix`: one string for a run of
/// numbered segments rather than one each.
final class URITemplate: Sendable {
    let prefix: [UInt8]
    let suffix: [UInt8]

    init(prefix: [UInt8], suffix: [UInt8]) {
        self.prefix = prefix
        self.suffix = suffix
    }

    /// Where the last number of `bytes` lies, when it is one this can hold (1 to 18 digits,
    /// no leading zero but "0" itself), and its value.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int, number: UInt64)? {
        var end = bytes.count
        while end > 0, !(bytes[end - 1] >= UInt8(ascii: "0") && bytes[end - 1] <= UInt8(ascii: "9")) { end -= 1 }
        guard end > 0 else { return nil }
        var start = end
        while start > 0, bytes[start - 1] >= UInt8(ascii: "0"), bytes[start - 1] <= UInt8(ascii: "9") { start -= 1 }
        guard end - start <= 18, bytes[start] != UInt8(ascii: "0") || end - start == 1 else { return nil }
        var number: UInt64 = 0
        for index in start..<end { number = number * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
        return (start, end, number)
    }

    /// Whether `bytes` is this template's prefix and suffix around `start..<end`.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        guard start == prefix.count, bytes.count - end == suffix.count else { return false }
        for index in 0..<start where bytes[index] != prefix[index] { return false }
        for index in 0..<suffix.count where bytes[end + index] != suffix[index] { return false }
        return true
    }

    /// The URI with `number`.
    func uri(_ number: UInt64) -> String {
        var digits = 1, rest = number / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = prefix.count + digits + suffix.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for byte in prefix { buffer[index] = byte; index += 1 }
            var value = number
            for k in stride(from: index + digits - 1, through: index, by: -1) {
                buffer[k] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            index += digits
            for byte in suffix { buffer[index] = byte; index += 1 }
            return count
        }
    }
}

/// The key, map and bitrate in force for a run of segments, and the run's media sequence base:
/// one reference shared by the run.
final class SegmentContext: Sendable {
    let key: EncryptionKey?
    let map: MediaInitializationSection?
    let bitrate: Int?
    /// A segment's media sequence number is this plus its own 24-bit delta.
    let sequenceBase: Int

    init(key: EncryptionKey?, map: MediaInitializationSection?, bitrate: Int?, sequenceBase: Int) {
        self.key = key
        self.map = map
        self.bitrate = bitrate
        self.sequenceBase = sequenceBase
    }

    /// The same key, map and bitrate, another base.
    func with(sequenceBase: Int) -> SegmentContext {
        SegmentContext(key: key, map: map, bitrate: bitrate, sequenceBase: sequenceBase)
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
package enum PlaylistContent: Sendable, Hashable {
    /// A multivariant playlist.
    case multivariant(MultivariantPlaylist)
    /// A media playlist.
    case media(MediaPlaylist)
}

/// A comment line: `#` not followed by `EXT` (RFC 8216 §4.1). Kept for in-file directives such
/// as `# hlscheck-disable-next-line RULE`.
package struct Comment: Sendable, Hashable {
    /// 1-based line of the comment.
    package var line: Int
    /// The whole line, `#` included.
    package var text: String

    /// Makes a comment.
    package init(line: Int, text: String) {
        self.line = line
        self.text = text
    }
}

/// One parsed playlist file: its model, every tag as written, and the problems found.
package struct Playlist: Sendable, Hashable, CustomReflectable {
    /// The URI the playlist was read from (a path or URL string), used in every location.
    package var uri: String
    /// The playlist's model: multivariant or media.
    package var content: PlaylistContent
    /// The tags, compactly: one small record each and their text in one buffer.
    var tagStore: TagStore
    /// Every problem the parser found, errors and warnings, in the order found.
    package var problems: [PlaylistProblem]
    /// Comment lines in file order.
    package var comments: [Comment] = []
    /// The variables in force after parsing (EXT-X-DEFINE NAME/VALUE, IMPORT and QUERYPARAM), so
    /// that a loader can pass a multivariant playlist's variables to its media playlists.
    package var variables: [String: String] = [:]
    /// The bytes it was parsed from, as a digest: embed compares it with the file before
    /// replacing the file, so that a change another program made meanwhile is never overwritten.
    package var sourceDigest = PlaylistSourceDigest([])
    /// The lowest EXT-X-VERSION the features the playlist uses require (RFC 8216 §7); 1 when
    /// nothing needs more. `version-too-low` reports a declared version below it.
    package var requiredVersion = 1

    /// Every `#EXT` tag in file order, known or not. Made on each read from compact storage (a
    /// playlist of 100 000 segments has 300 000 tags): to find tags by name, `tagLines(named:)`
    /// costs no string per tag.
    package var tags: [Tag] {
        get { tagStore.tags }
        set { tagStore = TagStore(newValue) }
    }

    /// The 1-based lines of the tags named `name` (leading `#` included), in file order.
    package func tagLines(named name: String) -> [Int] { tagStore.lines(named: name) }

    /// The problems with severity `.error`.
    package var errors: [PlaylistProblem] { problems.filter { $0.severity == .error } }
    /// The problems with severity `.warning`.
    package var warnings: [PlaylistProblem] { problems.filter { $0.severity == .warning } }

    /// Makes a playlist; `comments` and `variables` start empty.
    package init(uri: String, content: PlaylistContent, tags: [Tag], problems: [PlaylistProblem]) {
        self.init(uri: uri, content: content, tagStore: TagStore(tags), problems: problems)
    }

    init(uri: String, content: PlaylistContent, tagStore: TagStore, problems: [PlaylistProblem]) {
        self.uri = uri
        self.content = content
        self.tagStore = tagStore
        self.problems = problems
    }

    /// The public fields, in the order they were declared when each was stored.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "uri": uri as Any, "content": content as Any, "tags": tags as Any, "problems": problems as Any,
                "comments": comments as Any, "variables": variables as Any,
            ], displayStyle: .struct)
    }

    /// The multivariant model, nil for a media playlist.
    package var multivariant: MultivariantPlaylist? {
        if case .multivariant(let m) = content { return m }
        return nil
    }

    /// The media model, nil for a multivariant playlist.
    package var media: MediaPlaylist? {
        if case .media(let m) = content { return m }
        return nil
    }

    /// A location in this playlist: `column` 0 means the whole line.
    package func location(line: Int, column: Int = 0) -> SourceLocation {
        SourceLocation(uri: uri, line: line, column: column)
    }
}
