// The value model of an HLS playlist (RFC 8216 and draft-pantos-hls-rfc8216bis).
//
// Every element remembers the 1-based line it came from, so that every diagnostic downstream can
// point at the exact place in the file. Model types are plain Sendable values: the parser builds
// them once and nothing mutates them afterwards.

/// Where something is in a playlist file. `line` and `column` are 1-based; column 0 means "the
/// whole line".
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var uri: String
    public var line: Int
    public var column: Int

    public init(uri: String, line: Int, column: Int = 0) {
        self.uri = uri
        self.line = line
        self.column = column
    }

    public var description: String {
        column > 0 ? "\(uri):\(line):\(column)" : "\(uri):\(line)"
    }
}

/// A content problem the parser found. Parsing never throws on content: it records a problem
/// and keeps going, like a compiler.
public struct PlaylistProblem: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }

    /// What sort of rule a problem breaks, so that the rules layer can map each to its own rule id.
    public enum Kind: String, Sendable, Hashable, Codable {
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

    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var kind: Kind

    public init(_ severity: Severity, _ message: String, at location: SourceLocation, kind: Kind = .syntax) {
        self.severity = severity
        self.message = message
        self.location = location
        self.kind = kind
    }
}

/// A value of one attribute in an attribute list (RFC 8216 §4.2), with its raw text kept.
public enum AttributeValue: Sendable, Hashable {
    case decimalInteger(UInt64)
    case hexadecimalSequence([UInt8])
    case decimalFloatingPoint(Double)
    case signedDecimalFloatingPoint(Double)
    case quotedString(String)
    case enumeratedString(String)
    case decimalResolution(Resolution)
}

public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// One `NAME=value` pair of an attribute list, in file order.
public struct Attribute: Sendable, Hashable {
    public var name: String
    /// The value text exactly as written (quotes included for quoted strings).
    public var rawValue: String
    /// 1-based column of the attribute name on its line.
    public var column: Int
    /// The typed value, when the parser knows the attribute's type and the value is well formed.
    /// Quoted strings and hexadecimal sequences are stored after variable substitution.
    public var value: AttributeValue?

    public init(name: String, rawValue: String, column: Int, value: AttributeValue? = nil) {
        self.name = name
        self.rawValue = rawValue
        self.column = column
        self.value = value
    }

    /// The text of the value: a quoted string without its quotes (after substitution), otherwise
    /// the raw text.
    public var stringValue: String {
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
public struct AttributeList: Sendable, Hashable {
    public var attributes: [Attribute]

    public init(_ attributes: [Attribute] = []) {
        self.attributes = attributes
    }

    public subscript(name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// A quoted-string or enumerated-string attribute's text (quotes removed).
    public func string(_ name: String) -> String? { self[name]?.stringValue }

    /// A decimal-integer attribute, nil when absent or malformed.
    public func decimalInteger(_ name: String) -> UInt64? {
        if case .decimalInteger(let v)? = self[name]?.value { return v }
        return nil
    }

    /// A decimal-floating-point (or signed, or integer) attribute, nil when absent or malformed.
    public func decimalFloatingPoint(_ name: String) -> Double? {
        switch self[name]?.value {
        case .decimalFloatingPoint(let v)?, .signedDecimalFloatingPoint(let v)?: return v
        case .decimalInteger(let v)?: return Double(v)
        default: return nil
        }
    }

    public func resolution(_ name: String) -> Resolution? {
        if case .decimalResolution(let r)? = self[name]?.value { return r }
        return nil
    }

    public func hexadecimalSequence(_ name: String) -> [UInt8]? {
        if case .hexadecimalSequence(let v)? = self[name]?.value { return v }
        return nil
    }
}

/// Any `#EXT…` tag line, as written. Kept for every tag, known or not, so that vendor tags
/// (SCTE-35 cues, `#EXT-X-CUE-OUT`, …) are never dropped.
public struct Tag: Sendable, Hashable {
    /// Tag name including the leading `#`, e.g. `#EXT-X-STREAM-INF`.
    public var name: String
    /// Everything after the first `:`, or nil when the tag has no colon.
    public var value: String?
    public var line: Int

    public init(name: String, value: String?, line: Int) {
        self.name = name
        self.value = value
        self.line = line
    }
}

// MARK: - Multivariant (master) playlist

public enum HDCPLevel: String, Sendable, Hashable, Codable {
    case type0 = "TYPE-0", type1 = "TYPE-1", none = "NONE"
}

/// `#EXT-X-STREAM-INF` followed by its URI line (RFC 8216 §4.3.4.2).
public struct VariantStream: Sendable, Hashable {
    public var uri: String
    /// Line of the `#EXT-X-STREAM-INF` tag.
    public var line: Int
    /// Line of the URI that follows the tag.
    public var uriLine: Int
    public var attributes: AttributeList
    public var bandwidth: Int?
    public var averageBandwidth: Int?
    /// The CODECS attribute split at commas and trimmed, nil when absent.
    public var codecs: [String]?
    public var resolution: Resolution?
    public var frameRate: Double?
    public var hdcpLevel: String?
    public var videoRange: String?
    public var audioGroup: String?
    public var videoGroup: String?
    public var subtitlesGroup: String?
    /// The CLOSED-CAPTIONS attribute: a group id, or nil for absent or `NONE`.
    public var closedCaptionsGroup: String?
    public var closedCaptionsNone: Bool
    public var pathwayID: String?
    public var stableVariantID: String?

    public init(uri: String, line: Int, uriLine: Int, attributes: AttributeList) {
        self.uri = uri
        self.line = line
        self.uriLine = uriLine
        self.attributes = attributes
        self.closedCaptionsNone = false
    }
}

/// `#EXT-X-I-FRAME-STREAM-INF` (RFC 8216 §4.3.4.3).
public struct IFrameVariantStream: Sendable, Hashable {
    public var uri: String
    public var line: Int
    public var attributes: AttributeList
    public var bandwidth: Int?
    public var averageBandwidth: Int?
    public var codecs: [String]?
    public var resolution: Resolution?
    public var videoGroup: String?

    public init(uri: String, line: Int, attributes: AttributeList) {
        self.uri = uri
        self.line = line
        self.attributes = attributes
    }
}

public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case audio = "AUDIO", video = "VIDEO", subtitles = "SUBTITLES", closedCaptions = "CLOSED-CAPTIONS"
}

/// `#EXT-X-MEDIA` (RFC 8216 §4.3.4.1).
public struct Rendition: Sendable, Hashable {
    public var line: Int
    public var attributes: AttributeList
    public var type: MediaType?
    public var groupID: String?
    public var name: String?
    public var uri: String?
    public var language: String?
    public var assocLanguage: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var forced: Bool
    public var instreamID: String?
    public var characteristics: String?
    /// CHANNELS, e.g. "2" or "16/JOC".
    public var channels: String?

    public init(line: Int, attributes: AttributeList) {
        self.line = line
        self.attributes = attributes
        self.isDefault = false
        self.autoselect = false
        self.forced = false
    }
}

/// `#EXT-X-SESSION-DATA` (RFC 8216 §4.3.4.4).
public struct SessionData: Sendable, Hashable {
    public var line: Int
    public var dataID: String?
    public var value: String?
    public var uri: String?
    public var language: String?

    public init(line: Int) {
        self.line = line
    }
}

/// `#EXT-X-CONTENT-STEERING` (rfc8216bis §4.4.6.6).
public struct ContentSteering: Sendable, Hashable {
    public var line: Int
    public var serverURI: String?
    public var pathwayID: String?

    public init(line: Int) {
        self.line = line
    }
}

/// `#EXT-X-START` (RFC 8216 §4.3.5.2).
public struct StartPoint: Sendable, Hashable {
    public var line: Int
    public var timeOffset: Double?
    public var precise: Bool

    public init(line: Int, timeOffset: Double?, precise: Bool) {
        self.line = line
        self.timeOffset = timeOffset
        self.precise = precise
    }
}

/// `#EXT-X-DEFINE` (rfc8216bis §4.4.2.3): NAME/VALUE, IMPORT or QUERYPARAM.
public struct VariableDefinition: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case value(String)
        case imported
        case queryParameter
    }

    public var line: Int
    public var name: String
    public var kind: Kind

    public init(line: Int, name: String, kind: Kind) {
        self.line = line
        self.name = name
        self.kind = kind
    }
}

public struct MultivariantPlaylist: Sendable, Hashable {
    public var version: Int?
    public var versionLine: Int?
    public var independentSegments: Bool
    public var variants: [VariantStream]
    public var iFrameVariants: [IFrameVariantStream]
    public var renditions: [Rendition]
    public var sessionData: [SessionData]
    /// `#EXT-X-SESSION-KEY` tags, same attributes as `#EXT-X-KEY`.
    public var sessionKeys: [EncryptionKey]
    public var contentSteering: ContentSteering?
    public var start: StartPoint?
    public var definitions: [VariableDefinition]

    public init() {
        self.independentSegments = false
        self.variants = []
        self.iFrameVariants = []
        self.renditions = []
        self.sessionData = []
        self.sessionKeys = []
        self.definitions = []
    }

    /// The renditions of one group of one type, in file order.
    public func renditions(ofType type: MediaType, group: String) -> [Rendition] {
        renditions.filter { $0.type == type && $0.groupID == group }
    }
}

// MARK: - Media playlist

/// `#EXT-X-BYTERANGE` / BYTERANGE attribute, with the offset resolved: when the playlist omits
/// the offset, the range starts right after the previous range of the same resource (§4.3.2.2).
public struct ByteRange: Sendable, Hashable, Codable {
    public var length: Int
    public var offset: Int

    public init(length: Int, offset: Int) {
        self.length = length
        self.offset = offset
    }
}

/// `#EXT-X-KEY` / `#EXT-X-SESSION-KEY` (RFC 8216 §4.3.2.4).
public struct EncryptionKey: Sendable, Hashable {
    public var line: Int
    /// NONE, AES-128, SAMPLE-AES, SAMPLE-AES-CTR, …
    public var method: String
    public var uri: String?
    public var iv: [UInt8]?
    public var keyFormat: String?
    public var keyFormatVersions: String?

    public init(line: Int, method: String) {
        self.line = line
        self.method = method
    }

    public var isEncrypting: Bool { method != "NONE" }
}

/// `#EXT-X-MAP` (RFC 8216 §4.3.2.5).
public struct MediaInitializationSection: Sendable, Hashable {
    public var line: Int
    public var uri: String
    public var byteRange: ByteRange?

    public init(line: Int, uri: String, byteRange: ByteRange?) {
        self.line = line
        self.uri = uri
        self.byteRange = byteRange
    }
}

/// `#EXT-X-DATERANGE` (RFC 8216 §4.3.2.7).
public struct DateRange: Sendable, Hashable {
    public var line: Int
    public var id: String?
    public var attributes: AttributeList

    public init(line: Int, id: String?, attributes: AttributeList) {
        self.line = line
        self.id = id
        self.attributes = attributes
    }
}

/// `#EXT-X-PART` (rfc8216bis §4.4.4.9).
public struct PartialSegment: Sendable, Hashable {
    public var line: Int
    public var uri: String
    public var duration: Double
    public var independent: Bool
    public var byteRange: ByteRange?
    public var gap: Bool

    public init(line: Int, uri: String, duration: Double, independent: Bool, byteRange: ByteRange?, gap: Bool) {
        self.line = line
        self.uri = uri
        self.duration = duration
        self.independent = independent
        self.byteRange = byteRange
        self.gap = gap
    }
}

public struct MediaSegment: Sendable, Hashable {
    /// The URI as written (after variable substitution).
    public var uri: String
    /// Line of the URI.
    public var uriLine: Int
    /// Line of the `#EXTINF` tag, nil when it is missing (a syntax error already reported).
    public var extinfLine: Int?
    /// EXTINF duration in seconds.
    public var duration: Double
    public var title: String?
    public var byteRange: ByteRange?
    /// Preceded by `#EXT-X-DISCONTINUITY`.
    public var discontinuity: Bool
    /// The key in force for this segment, nil when none or METHOD=NONE.
    public var key: EncryptionKey?
    /// The EXT-X-MAP in force for this segment.
    public var map: MediaInitializationSection?
    public var programDateTime: String?
    public var gap: Bool
    /// `#EXT-X-BITRATE` in force, kbit/s.
    public var bitrate: Int?
    /// Partial segments that make up this segment (low-latency HLS).
    public var parts: [PartialSegment]
    /// Media sequence number of this segment.
    public var mediaSequence: Int

    public init(uri: String, uriLine: Int, duration: Double, mediaSequence: Int) {
        self.uri = uri
        self.uriLine = uriLine
        self.duration = duration
        self.discontinuity = false
        self.gap = false
        self.parts = []
        self.mediaSequence = mediaSequence
    }
}

public enum PlaylistType: String, Sendable, Hashable, Codable {
    case event = "EVENT", vod = "VOD"
}

public struct MediaPlaylist: Sendable, Hashable {
    public var version: Int?
    public var versionLine: Int?
    public var targetDuration: Int?
    public var targetDurationLine: Int?
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    public var playlistType: PlaylistType?
    public var endList: Bool
    public var iFramesOnly: Bool
    public var independentSegments: Bool
    public var segments: [MediaSegment]
    public var dateRanges: [DateRange]
    /// `#EXT-X-PART-INF:PART-TARGET`.
    public var partTarget: Double?
    /// `#EXT-X-SERVER-CONTROL` attributes.
    public var serverControl: AttributeList?
    /// `#EXT-X-PRELOAD-HINT` tags.
    public var preloadHints: [AttributeList]
    /// `#EXT-X-RENDITION-REPORT` tags.
    public var renditionReports: [AttributeList]
    /// `#EXT-X-SKIP:SKIPPED-SEGMENTS`.
    public var skippedSegments: Int?
    /// Partial segments after the last complete segment.
    public var trailingParts: [PartialSegment]
    public var start: StartPoint?
    public var definitions: [VariableDefinition]

    public init() {
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
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }
}

public enum PlaylistContent: Sendable, Hashable {
    case multivariant(MultivariantPlaylist)
    case media(MediaPlaylist)
}

/// A comment line: `#` not followed by `EXT` (RFC 8216 §4.1). Kept for in-file directives such
/// as `# hlscheck-disable-next-line RULE`.
public struct Comment: Sendable, Hashable {
    public var line: Int
    /// The whole line, `#` included.
    public var text: String

    public init(line: Int, text: String) {
        self.line = line
        self.text = text
    }
}

/// One parsed playlist file: its model, every tag as written, and the problems found.
public struct Playlist: Sendable, Hashable {
    /// The URI the playlist was read from (a path or URL string), used in every location.
    public var uri: String
    public var content: PlaylistContent
    /// Every `#EXT` tag in file order, known or not.
    public var tags: [Tag]
    public var problems: [PlaylistProblem]
    /// Comment lines in file order.
    public var comments: [Comment] = []
    /// The variables in force after parsing (EXT-X-DEFINE NAME/VALUE, IMPORT and QUERYPARAM), so
    /// that a loader can pass a multivariant playlist's variables to its media playlists.
    public var variables: [String: String] = [:]

    public var errors: [PlaylistProblem] { problems.filter { $0.severity == .error } }
    public var warnings: [PlaylistProblem] { problems.filter { $0.severity == .warning } }

    public init(uri: String, content: PlaylistContent, tags: [Tag], problems: [PlaylistProblem]) {
        self.uri = uri
        self.content = content
        self.tags = tags
        self.problems = problems
    }

    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let m) = content { return m }
        return nil
    }

    public var media: MediaPlaylist? {
        if case .media(let m) = content { return m }
        return nil
    }

    public func location(line: Int, column: Int = 0) -> SourceLocation {
        SourceLocation(uri: uri, line: line, column: column)
    }
}
