// The tags the parser knows: each kind's traits (where it may appear, once or many times) and a
// look-up from the name's bytes without hashing.

/// Tags that only a multivariant playlist may contain (RFC 8216 §4.3.4).
let multivariantTags: Set<String> = [
    "#EXT-X-STREAM-INF", "#EXT-X-I-FRAME-STREAM-INF", "#EXT-X-MEDIA", "#EXT-X-SESSION-DATA",
    "#EXT-X-SESSION-KEY", "#EXT-X-CONTENT-STEERING",
]

/// Tags that only a media playlist may contain (RFC 8216 §4.3.2, §4.3.3, rfc8216bis §4.4.3–4).
let mediaTags: Set<String> = [
    "#EXTINF", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE",
    "#EXT-X-PLAYLIST-TYPE", "#EXT-X-ENDLIST", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-BYTERANGE",
    "#EXT-X-DISCONTINUITY", "#EXT-X-KEY", "#EXT-X-MAP", "#EXT-X-PROGRAM-DATE-TIME", "#EXT-X-DATERANGE",
    "#EXT-X-GAP", "#EXT-X-BITRATE", "#EXT-X-PART", "#EXT-X-PART-INF", "#EXT-X-SERVER-CONTROL",
    "#EXT-X-PRELOAD-HINT", "#EXT-X-RENDITION-REPORT", "#EXT-X-SKIP",
]

/// Tags that MUST NOT appear more than once in a playlist.
let singletonTags: Set<String> = [
    "#EXT-X-VERSION", "#EXT-X-TARGETDURATION", "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE",
    "#EXT-X-PLAYLIST-TYPE", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-START",
    "#EXT-X-PART-INF", "#EXT-X-SERVER-CONTROL", "#EXT-X-SKIP", "#EXT-X-CONTENT-STEERING", "#EXT-X-ENDLIST",
]

/// Every tag the parser knows, by name. Lines are dispatched on this value, found from the
/// name's bytes (`TagKind(ascii:)`), so a playlist of 100 000 segments costs no string hashing
/// or string comparison per tag.
enum TagKind: String, CaseIterable, Sendable {
    case bitrate = "#EXT-X-BITRATE"
    case byterange = "#EXT-X-BYTERANGE"
    case contentSteering = "#EXT-X-CONTENT-STEERING"
    case daterange = "#EXT-X-DATERANGE"
    case define = "#EXT-X-DEFINE"
    case discontinuity = "#EXT-X-DISCONTINUITY"
    case discontinuitySequence = "#EXT-X-DISCONTINUITY-SEQUENCE"
    case endlist = "#EXT-X-ENDLIST"
    case gap = "#EXT-X-GAP"
    case iFrameStreamInf = "#EXT-X-I-FRAME-STREAM-INF"
    case iFramesOnly = "#EXT-X-I-FRAMES-ONLY"
    case independentSegments = "#EXT-X-INDEPENDENT-SEGMENTS"
    case key = "#EXT-X-KEY"
    case map = "#EXT-X-MAP"
    case media = "#EXT-X-MEDIA"
    case mediaSequence = "#EXT-X-MEDIA-SEQUENCE"
    case part = "#EXT-X-PART"
    case partInf = "#EXT-X-PART-INF"
    case playlistType = "#EXT-X-PLAYLIST-TYPE"
    case preloadHint = "#EXT-X-PRELOAD-HINT"
    case programDateTime = "#EXT-X-PROGRAM-DATE-TIME"
    case renditionReport = "#EXT-X-RENDITION-REPORT"
    case serverControl = "#EXT-X-SERVER-CONTROL"
    case sessionData = "#EXT-X-SESSION-DATA"
    case sessionKey = "#EXT-X-SESSION-KEY"
    case skip = "#EXT-X-SKIP"
    case start = "#EXT-X-START"
    case streamInf = "#EXT-X-STREAM-INF"
    case targetduration = "#EXT-X-TARGETDURATION"
    case version = "#EXT-X-VERSION"
    case extinf = "#EXTINF"
    case extm3u = "#EXTM3U"

    /// The section of bis-22 §4.4 that defines the tag, which is how the parser dispatches it.
    enum Section {
        case basic, mediaPlaylist, mediaSegment, mediaMetadata, multivariant
    }

    var section: Section {
        switch self {
        case .extm3u, .version, .independentSegments, .start, .define: return .basic
        case .targetduration, .mediaSequence, .discontinuitySequence, .endlist, .playlistType, .iFramesOnly, .partInf,
            .serverControl:
            return .mediaPlaylist
        case .extinf, .byterange, .discontinuity, .key, .map, .programDateTime, .gap, .bitrate, .part:
            return .mediaSegment
        case .daterange, .skip, .preloadHint, .renditionReport: return .mediaMetadata
        case .streamInf, .iFrameStreamInf, .media, .sessionData, .sessionKey, .contentSteering: return .multivariant
        }
    }

    /// Membership in the three tables above.
    struct Traits: Sendable {
        var isMultivariant: Bool
        var isMedia: Bool
        var isSingleton: Bool
    }

    /// From the tables (string hashing: for the rare non-ASCII line).
    var traits: Traits {
        Traits(
            isMultivariant: multivariantTags.contains(rawValue), isMedia: mediaTags.contains(rawValue),
            isSingleton: singletonTags.contains(rawValue))
    }

    /// The kind whose name is exactly these bytes (an ASCII tag name), with its traits.
    static func lookup(ascii name: UnsafeBufferPointer<UInt8>) -> (kind: TagKind, traits: Traits, code: Int32)? {
        let byLength = tagKindsByLength
        guard name.count < byLength.count else { return nil }
        for candidate in byLength[name.count] {
            var equal = true
            for index in 0..<name.count where candidate.name[index] != name[index] {
                equal = false
                break
            }
            if equal { return (candidate.kind, candidate.traits, candidate.code) }
        }
        return nil
    }
}

/// Every kind's name bytes, traits and `TagStore` code, by name length, built once (the code
/// here, not a dictionary look-up per tag: a `String`-backed enum hashes its raw value).
let tagKindsByLength: [[(name: [UInt8], kind: TagKind, traits: TagKind.Traits, code: Int32)]] = {
    var byLength = Array(repeating: [(name: [UInt8], kind: TagKind, traits: TagKind.Traits, code: Int32)](), count: 32)
    for (code, kind) in TagKind.allCases.enumerated() {
        let name = Array(kind.rawValue.utf8)
        byLength[name.count].append((name, kind, kind.traits, Int32(code)))
    }
    return byLength
}()
