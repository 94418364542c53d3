// The multivariant playlist's model: variant streams, renditions and the playlist-wide tags
// (rfc8216bis §4.4.6).

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

/// A multivariant playlist (RFC 8216 §4.3.4): variants, renditions and session data.
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
