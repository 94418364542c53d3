// The tolerant playlist parser (RFC 8216 §4, draft-pantos-hls-rfc8216bis).
//
// One pass over the lines, linear in the size of the input. Every content problem becomes a
// PlaylistProblem with a line and a column; the parser never throws and never stops early.

/// The playlist parser: bytes or text in, a `Playlist` with its problems out; never throws.
package enum PlaylistParser {
    /// Parses one playlist file.
    /// - Parameters:
    ///   - importedVariables: the variables of the multivariant playlist, for `EXT-X-DEFINE:IMPORT`.
    ///   - queryParameters: the query parameters of the playlist's URI, for `EXT-X-DEFINE:QUERYPARAM`.
    package static func parse(
        _ bytes: [UInt8], uri: String,
        importedVariables: [String: String] = [:], queryParameters: [String: String] = [:]
    ) -> Playlist {
        var parser = ParserState(uri: uri, importedVariables: importedVariables, queryParameters: queryParameters)
        parser.run(bytes)
        var playlist = parser.finish()
        playlist.sourceDigest = PlaylistSourceDigest(bytes)
        return playlist
    }

    /// Parses one playlist file from text (see `parse(_:uri:importedVariables:queryParameters:)` for bytes).
    package static func parse(
        _ text: String, uri: String,
        importedVariables: [String: String] = [:], queryParameters: [String: String] = [:]
    ) -> Playlist {
        parse(Array(text.utf8), uri: uri, importedVariables: importedVariables, queryParameters: queryParameters)
    }
}

// MARK: - Tag tables

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

private let yesNo: AttributeType = .enumeratedString(["YES", "NO"])

private let keySchema: [String: AttributeType] = [
    "METHOD": .openEnumeratedString(["NONE", "AES-128", "AES-256-GCM", "SAMPLE-AES", "SAMPLE-AES-CTR"]),
    "URI": .quotedString, "IV": .hexadecimalSequence, "KEYFORMAT": .quotedString,
    "KEYFORMATVERSIONS": .quotedString,
]

private let schemas: [String: [String: AttributeType]] = [
    "#EXT-X-STREAM-INF": [
        "BANDWIDTH": .decimalInteger, "AVERAGE-BANDWIDTH": .decimalInteger, "SCORE": .decimalFloatingPoint,
        "CODECS": .quotedString, "SUPPLEMENTAL-CODECS": .quotedString, "RESOLUTION": .decimalResolution,
        "FRAME-RATE": .decimalFloatingPoint, "HDCP-LEVEL": .openEnumeratedString(["TYPE-0", "TYPE-1", "NONE"]),
        "ALLOWED-CPC": .quotedString, "VIDEO-RANGE": .openEnumeratedString(["SDR", "HLG", "PQ"]),
        "REQ-VIDEO-LAYOUT": .quotedString, "STABLE-VARIANT-ID": .quotedString, "AUDIO": .quotedString,
        "VIDEO": .quotedString, "SUBTITLES": .quotedString, "CLOSED-CAPTIONS": .quotedStringOrNone,
        "PATHWAY-ID": .quotedString, "PROGRAM-ID": .decimalInteger,
    ],
    "#EXT-X-I-FRAME-STREAM-INF": [
        "URI": .quotedString, "BANDWIDTH": .decimalInteger, "AVERAGE-BANDWIDTH": .decimalInteger,
        "SCORE": .decimalFloatingPoint, "CODECS": .quotedString, "SUPPLEMENTAL-CODECS": .quotedString,
        "RESOLUTION": .decimalResolution, "HDCP-LEVEL": .openEnumeratedString(["TYPE-0", "TYPE-1", "NONE"]),
        "ALLOWED-CPC": .quotedString, "VIDEO-RANGE": .openEnumeratedString(["SDR", "HLG", "PQ"]),
        "REQ-VIDEO-LAYOUT": .quotedString, "STABLE-VARIANT-ID": .quotedString, "VIDEO": .quotedString,
        "PATHWAY-ID": .quotedString, "PROGRAM-ID": .decimalInteger,
    ],
    "#EXT-X-MEDIA": [
        "TYPE": .enumeratedString(MediaType.allCases.map(\.rawValue)), "URI": .quotedString,
        "GROUP-ID": .quotedString, "LANGUAGE": .quotedString, "ASSOC-LANGUAGE": .quotedString,
        "NAME": .quotedString, "STABLE-RENDITION-ID": .quotedString, "DEFAULT": yesNo, "AUTOSELECT": yesNo,
        "FORCED": yesNo, "INSTREAM-ID": .quotedString, "BIT-DEPTH": .decimalInteger,
        "SAMPLE-RATE": .decimalInteger, "CHARACTERISTICS": .quotedString, "CHANNELS": .quotedString,
    ],
    "#EXT-X-SESSION-DATA": [
        "DATA-ID": .quotedString, "VALUE": .quotedString, "URI": .quotedString,
        "FORMAT": .openEnumeratedString(["JSON", "RAW"]), "LANGUAGE": .quotedString,
    ],
    "#EXT-X-SESSION-KEY": keySchema,
    "#EXT-X-KEY": keySchema,
    "#EXT-X-CONTENT-STEERING": ["SERVER-URI": .quotedString, "PATHWAY-ID": .quotedString],
    "#EXT-X-START": ["TIME-OFFSET": .signedDecimalFloatingPoint, "PRECISE": yesNo],
    "#EXT-X-DEFINE": [
        "NAME": .quotedString, "VALUE": .quotedString, "IMPORT": .quotedString, "QUERYPARAM": .quotedString,
    ],
    "#EXT-X-MAP": ["URI": .quotedString, "BYTERANGE": .quotedString],
    "#EXT-X-DATERANGE": [
        "ID": .quotedString, "CLASS": .quotedString, "START-DATE": .quotedString, "CUE": .quotedString,
        "END-DATE": .quotedString, "DURATION": .decimalFloatingPoint, "PLANNED-DURATION": .decimalFloatingPoint,
        "SCTE35-CMD": .hexadecimalSequence, "SCTE35-OUT": .hexadecimalSequence, "SCTE35-IN": .hexadecimalSequence,
        "END-ON-NEXT": .enumeratedString(["YES"]),
    ],
    "#EXT-X-PART": [
        "URI": .quotedString, "DURATION": .decimalFloatingPoint, "INDEPENDENT": yesNo,
        "BYTERANGE": .quotedString, "GAP": yesNo,
    ],
    "#EXT-X-PART-INF": ["PART-TARGET": .decimalFloatingPoint],
    "#EXT-X-SERVER-CONTROL": [
        "CAN-SKIP-UNTIL": .decimalFloatingPoint, "CAN-SKIP-DATERANGES": yesNo, "HOLD-BACK": .decimalFloatingPoint,
        "PART-HOLD-BACK": .decimalFloatingPoint, "CAN-BLOCK-RELOAD": yesNo,
    ],
    "#EXT-X-PRELOAD-HINT": [
        "TYPE": .openEnumeratedString(["PART", "MAP"]), "URI": .quotedString,
        "BYTERANGE-START": .decimalInteger, "BYTERANGE-LENGTH": .decimalInteger,
    ],
    "#EXT-X-RENDITION-REPORT": ["URI": .quotedString, "LAST-MSN": .decimalInteger, "LAST-PART": .decimalInteger],
    "#EXT-X-SKIP": ["SKIPPED-SEGMENTS": .decimalInteger, "RECENTLY-REMOVED-DATERANGES": .quotedString],
]

// MARK: - Parser state

/// A tag name without its `#`, as messages print it.
func bare(_ tagName: String) -> String { tagName.hasPrefix("#") ? String(tagName.dropFirst()) : tagName }

/// One line of the file, with the 1-based column of its first non-blank character.
struct SourceLine {
    var number: Int
    var text: Substring
    var column: Int
}

struct ParserState {
    let uri: String
    let importedVariables: [String: String]
    let queryParameters: [String: String]

    var sink: ProblemSink
    var tags = TagStore()
    var comments: [Comment] = []
    var master = MultivariantPlaylist()
    var media = MediaPlaylist()
    var variables: [String: String] = [:]

    var sawHeader = false
    var sawContent = false
    var firstMultivariantTag: (name: String, line: Int)?
    var firstMediaTag: (name: String, line: Int)?
    var multivariantTagCount = 0
    var mediaTagCount = 0
    var singletonLines: [String: Int] = [:]

    /// Features that need a minimum EXT-X-VERSION (RFC 8216 §7), first use of each.
    var versionRequirements: [(version: Int, feature: String, line: Int, column: Int)] = []
    var versionFeaturesSeen: Set<String> = []
    var firstMapUse: (line: Int, column: Int)?
    /// The decimal-EXTINF version requirement is recorded (saves a set lookup per segment).
    var requiredDecimalExtinfVersion = false

    // Media playlist state
    /// The IDs of the EXT-X-DATERANGE tags so far: a later tag with one of them continues that
    /// range and may leave out START-DATE (bis-22 §4.4.5.1).
    var dateRangeIDs: Set<String> = []
    var pendingExtinf: (line: Int, duration: Double, title: String?)?
    var pendingByteRange: (length: Int, offset: Int?, line: Int, column: Int)?
    /// The line of an EXT-X-BYTERANGE for the next segment whose value could not be read.
    var pendingUnreadableByteRange: Int?
    var pendingDiscontinuity = false
    var pendingGap = false
    var pendingProgramDateTime: String?
    /// The pending date-time packed (`PackedDateTime`), when it is of that form: 0 otherwise.
    var pendingPackedDateTime: UInt64 = 0
    var pendingParts: [PartialSegment] = []
    var currentKey: EncryptionKey? { didSet { currentContextIsStale = true } }
    var currentMap: MediaInitializationSection? { didSet { currentContextIsStale = true } }
    var currentBitrate: Int? { didSet { currentContextIsStale = true } }
    /// The three above, as the one reference the segments share until one of them changes.
    var currentContext: SegmentContext?
    var currentContextIsStale = false
    var previousSegmentRangeEnd: Int?
    var partRangeEnds: [String: Int] = [:]
    var previousSegmentURI: SegmentURI?
    /// The bytes of every segment URI that is no template's, one after the other.
    var uriBytes: [UInt8] = []
    /// Stands for the buffer `uriBytes` becomes at the end, in the segments made until then.
    let pendingURIText = URIText([])
    /// The template of the last numbered segment URI.
    var currentURITemplate: URITemplate?
    /// The last segment URI kept as a string, to spot the start of a run.
    var lastTextURI: [UInt8] = []
    var previousSegmentHadRange = false
    var firstPartLine: Int?
    var sawDiscontinuity = false
    var commalessExtinfCount = 0
    var commalessExtinfProblemIndex: Int?
    /// An EXT-X-TARGETDURATION was present, even if its value was rejected.
    var sawTargetDuration = false
    /// Bytes that variable substitution may still add (ValueLimits.substitutionAllowance).
    var substitutionBudget = ValueLimits.substitutionAllowance
    var substitutionBudgetReported = false

    // Multivariant state
    var pendingStreamInf: (line: Int, attributes: AttributeList)?

    init(uri: String, importedVariables: [String: String], queryParameters: [String: String]) {
        self.uri = uri
        self.importedVariables = importedVariables
        self.queryParameters = queryParameters
        self.sink = ProblemSink(uri: uri)
    }

    // MARK: Lines

    mutating func run(_ bytes: [UInt8]) {
        let (scaled, overflow) = bytes.count.multipliedReportingOverflow(by: 4)
        substitutionBudget =
            overflow ? .max : scaled.addingReportingOverflow(ValueLimits.substitutionAllowance).partialValue
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = 3
            // Read past, as most players do, but RFC 8216 §4.1 says MUST NOT and that clients
            // SHOULD refuse such a playlist.
            sink.warning(
                "the playlist starts with a UTF-8 byte order mark (BOM), which RFC 8216 §4.1 forbids and clients may refuse; save it as UTF-8 without BOM",
                line: 1, column: 1)
        }
        bytes.withUnsafeBufferPointer { buffer in
            // Room for the segments and tags up front (a line each at most): growing arrays of
            // 100 000 segments copies them over and over. Unused room is never touched.
            let lines = Self.lineFeedCount(in: buffer) + 1
            // Capped near the loader's default segment limit: a file of blank lines reserves
            // some address space, never more.
            media.segments.reserveCapacity(min(lines / 2, 1 << 17))
            tags.reserve(tags: min(lines, 1 << 18), bytes: min(buffer.count, 1 << 24))
            var lineNumber = 0
            while start < buffer.count || (lineNumber == 0 && start == buffer.count) {
                lineNumber += 1
                let (end, isASCII) = Self.lineEnd(in: buffer, from: start)
                var contentEnd = end
                if contentEnd > start, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if isASCII {
                    // Nearly every line: handled on its bytes, valid UTF-8 by construction.
                    handle(ascii: UnsafeBufferPointer(rebasing: buffer[start..<contentEnd]), number: lineNumber)
                } else {
                    let slice = buffer[start..<contentEnd]
                    let text: String
                    if let valid = String(validating: slice, as: UTF8.self) {
                        text = valid
                    } else {
                        sink.error("line is not valid UTF-8 (RFC 8216 §4.1)", line: lineNumber, column: 0)
                        text = String(decoding: slice, as: UTF8.self)
                    }
                    handle(line: text, number: lineNumber)
                }
                start = end + 1
                if end >= buffer.count { break }
            }
        }
    }

    /// How many line feeds `buffer` holds, eight bytes at a time.
    static func lineFeedCount(in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, feeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        var count = 0, i = 0
        while i + 8 <= buffer.count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ feeds
            // A byte's high bit ends up clear exactly when the byte was a line feed (no carries
            // between bytes: each sum stays below 0x100).
            let nonzero = ((x & lows) &+ lows) | x
            count &+= (~nonzero & ~lows).nonzeroBitCount
            i += 8
        }
        while i < buffer.count {
            if base[i] == 0x0A { count &+= 1 }
            i += 1
        }
        return count
    }

    /// The index of the line feed that ends the line starting at `start` (or the end of the
    /// buffer), and whether the line is pure ASCII. Eight bytes at a time: a playlist of
    /// 100 000 segments is 10 MB of lines.
    static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isASCII: Bool) {
        guard let base = buffer.baseAddress else { return (start, true) }
        let count = buffer.count
        let raw = UnsafeRawPointer(base)
        var i = start
        var bits: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let x = word ^ (ones &* 0x0A)
            if (x &- ones) & ~x & highs != 0 { break }  // a byte of the word is a line feed
            bits |= word
            i += 8
        }
        while i < count, base[i] != 0x0A {
            bits |= UInt64(base[i])
            i += 1
        }
        return (i, bits & highs == 0)
    }

    /// An ASCII line: the same as `handle(line:number:)`, without building a string for a
    /// tag's name or for the line.
    mutating func handle(ascii line: UnsafeBufferPointer<UInt8>, number: Int) {
        guard sawContent else {
            handle(line: String(decoding: line, as: UTF8.self), number: number)
            return
        }
        var start = 0, end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while start < end, line[end - 1] == 0x20 || line[end - 1] == 0x09 || line[end - 1] == 0x0D { end -= 1 }
        if start == end { return }
        if start > 0 {
            sink.warning("unexpected whitespace at the start of the line", line: number, column: 1)
        }
        let text = UnsafeBufferPointer(rebasing: line[start..<end])
        if text.count >= 4, text[0] == UInt8(ascii: "#"), text[1] == UInt8(ascii: "E"), text[2] == UInt8(ascii: "X"),
            text[3] == UInt8(ascii: "T")
        {
            handleTag(ascii: text, number: number, column: start + 1)
        } else if text[0] == UInt8(ascii: "#") {
            comments.append(Comment(line: number, text: String(decoding: text, as: UTF8.self)))
        } else {
            // Without a '{' there is nothing to substitute (substitute(_:_:_:) returns the text).
            let substituting = text.contains(UInt8(ascii: "{"))
            // The URI of a numbered segment (`seg-42.ts`) of a run: kept as its number.
            if !substituting, pendingStreamInf == nil, pendingExtinf != nil, let split = URITemplate.split(text) {
                if let template = currentURITemplate, template.matches(text, start: split.start, end: split.end) {
                    appendSegment(.templated(template, split.number), number: number)
                    return
                }
                // A second URI of the same shape starts a run (a first, or a URI of random
                // names, stays a string).
                let sameShape = lastTextURI.withUnsafeBufferPointer { last -> Bool in
                    guard let previous = URITemplate.split(last), previous.start == split.start,
                        last.count - previous.end == text.count - split.end
                    else { return false }
                    for index in 0..<split.start where last[index] != text[index] { return false }
                    for k in 0..<(text.count - split.end) where last[previous.end + k] != text[split.end + k] {
                        return false
                    }
                    return true
                }
                if sameShape {
                    let template = URITemplate(prefix: Array(text[..<split.start]), suffix: Array(text[split.end...]))
                    currentURITemplate = template
                    appendSegment(.templated(template, split.number), number: number)
                    return
                }
                lastTextURI.removeAll(keepingCapacity: true)
                lastTextURI.append(contentsOf: text)
            }
            if !substituting, pendingStreamInf == nil, pendingExtinf != nil {
                // A segment's URI of no run: its bytes join the others', no string made.
                appendSegment(storeURI(text), number: number)
                return
            }
            handleURILine(
                String(decoding: text, as: UTF8.self), number: number, column: start + 1, substituting: substituting)
        }
    }

    mutating func handle(line raw: String, number: Int) {
        // Trimmed on UTF-8 code units: spaces, tabs and CR are ASCII, and Character-by-Character
        // trimming costs grapheme breaking on every line.
        let utf8 = raw.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        var leading = 0
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 {
            start = utf8.index(after: start)
            leading += 1
        }
        while start < end {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 || utf8[before] == 0x0D else { break }
            end = before
        }
        if start == end { return }
        let text = raw[start..<end]
        let line = SourceLine(number: number, text: text, column: leading + 1)
        if leading > 0 {
            sink.warning("unexpected whitespace at the start of the line", line: number, column: 1)
        }

        if !sawContent {
            sawContent = true
            if text == "#EXTM3U" {
                sawHeader = true
                if number > 1 {
                    sink.warning(
                        "#EXTM3U should be the very first line (RFC 8216 §4.3.1.1)", line: number, column: line.column)
                }
                tags.append(kind: .extm3u, value: nil, line: number)
                return
            }
            sink.error(
                "the playlist must start with #EXTM3U (RFC 8216 §4.3.1.1), found \"\(text.prefix(40))\"",
                line: number, column: line.column, kind: .structure)
        }

        if text.hasPrefix("#EXT") {
            handleTag(line)
        } else if text.hasPrefix("#") {
            comments.append(Comment(line: number, text: String(text)))
        } else {
            handleURILine(line)
        }
    }

    // MARK: Tags

    mutating func handleTag(_ line: SourceLine) {
        let text = line.text
        let name: Substring
        let value: Substring?
        if let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
        } else {
            name = text
            value = nil
        }
        let tagName = String(name)
        let valueString = value.map(String.init)
        if var written = valueString {
            written.withUTF8 { bytes in tags.append(name: tagName, value: bytes, line: line.number) }
        } else {
            tags.append(name: tagName, value: nil, line: line.number)
        }
        let valueColumn = line.column + name.unicodeScalars.count + 1
        // String equality (canonical equivalence), as a name with a non-ASCII look-alike has always matched.
        let kind = TagKind(rawValue: tagName)
        if let kind { noteTraits(kind.traits, tagName, line) }
        handleTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
    }

    /// The same for an ASCII line, on its bytes: the tag name is looked up without building a
    /// string, and a known tag's name is the kind's own (static) string.
    mutating func handleTag(ascii text: UnsafeBufferPointer<UInt8>, number: Int, column: Int) {
        var colon = 0
        while colon < text.count, text[colon] != UInt8(ascii: ":") { colon += 1 }
        let found = TagKind.lookup(ascii: UnsafeBufferPointer(rebasing: text[..<colon]))
        let valueBytes = colon < text.count ? UnsafeBufferPointer(rebasing: text[(colon + 1)...]) : nil
        guard let found else {
            // Unknown and vendor tags (#EXT-X-CUE-OUT, #EXT-X-SCTE35, …) are only kept.
            tags.append(name: String(decoding: text[..<colon], as: UTF8.self), value: valueBytes, line: number)
            return
        }
        tags.append(kind: found.kind, code: found.code, value: valueBytes, line: number)
        let line = SourceLine(number: number, text: "", column: column)
        let tagName = found.kind.rawValue
        noteTraits(found.traits, tagName, line)
        // The EXTINF of nearly every segment is read on its bytes, without a string.
        if found.kind == .extinf, let valueBytes, handleCommonExtinf(valueBytes, line, column + colon + 1) { return }
        // So is the PROGRAM-DATE-TIME of most segments: a valid date-time of the common form.
        if found.kind == .programDateTime, let valueBytes, let packed = PackedDateTime.pack(valueBytes) {
            pendingPackedDateTime = packed
            pendingProgramDateTime = nil
            return
        }
        let valueString = valueBytes.map { String(decoding: $0, as: UTF8.self) }
        handleTag(
            found.kind, tagName, value: valueString.map { Substring($0) }, valueString: valueString, line,
            column + colon + 1)
    }

    /// Counts a known tag towards the playlist's kind and reports a repeated singleton.
    mutating func noteTraits(_ traits: TagKind.Traits, _ tagName: String, _ line: SourceLine) {
        if traits.isMultivariant {
            multivariantTagCount += 1
            if firstMultivariantTag == nil { firstMultivariantTag = (tagName, line.number) }
        } else if traits.isMedia {
            mediaTagCount += 1
            if firstMediaTag == nil { firstMediaTag = (tagName, line.number) }
        }
        if traits.isSingleton {
            if let first = singletonLines[tagName] {
                sink.error(
                    "\(bare(tagName)) must not appear more than once (first at line \(first))",
                    line: line.number, column: line.column, kind: .structure)
            } else {
                singletonLines[tagName] = line.number
            }
        }
    }

    /// One tag, by kind (nil: an unknown or vendor tag), its traits already noted. `line.text`
    /// is not used here.
    mutating func handleTag(
        _ kind: TagKind?, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {

        switch kind {
        case .extm3u:
            if sawHeader {
                sink.error("#EXTM3U appears more than once", line: line.number, column: line.column, kind: .structure)
            } else {
                sink.error(
                    "#EXTM3U must be the first line (RFC 8216 §4.3.1.1)", line: line.number, column: line.column,
                    kind: .structure)
            }
            sawHeader = true
        case .version:
            guard let v = requiredInteger(tagName, value, line, valueColumn) else { return }
            if master.version == nil {
                master.version = v
                master.versionLine = line.number
                media.version = v
                media.versionLine = line.number
            }
        case .independentSegments:
            noValue(tagName, value, line, valueColumn)
            master.independentSegments = true
            media.independentSegments = true
        case .start:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["TIME-OFFSET"], in: attrs, tag: tagName, line: line)
            let start = StartPoint(
                line: line.number, timeOffset: attrs.decimalFloatingPoint("TIME-OFFSET"),
                precise: attrs.string("PRECISE") == "YES")
            if master.start == nil { master.start = start; media.start = start }
        case .define:
            handleDefine(tagName, value, line, valueColumn)

        // Media segment tags
        case .extinf:
            handleExtinf(value, line, valueColumn)
        case .byterange:
            requireVersion(4, "EXT-X-BYTERANGE", line.number, line.column)
            guard let value, !value.isEmpty else {
                sink.error("EXT-X-BYTERANGE needs a value <length>[@<offset>]", line: line.number, column: line.column)
                pendingUnreadableByteRange = line.number
                return
            }
            if let range = parseByteRange(value, tag: tagName, line: line.number, column: valueColumn) {
                pendingByteRange = (range.length, range.offset, line.number, valueColumn)
            } else {
                pendingUnreadableByteRange = line.number
            }
        case .discontinuity:
            noValue(tagName, value, line, valueColumn)
            pendingDiscontinuity = true
            sawDiscontinuity = true
        case .key:
            let attrs = attributeList(tagName, value, line, valueColumn)
            let key = encryptionKey(tagName, attrs, line)
            currentKey = (key?.isEncrypting ?? false) ? key : nil
        case .map:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI"], in: attrs, tag: tagName, line: line)
            if firstMapUse == nil { firstMapUse = (line.number, line.column) }
            var range: ByteRange?
            if let attr = attrs["BYTERANGE"],
                let parsed = parseByteRange(
                    Substring(attr.stringValue), tag: tagName + " BYTERANGE", line: line.number, column: attr.column)
            {
                range = ByteRange(length: parsed.length, offset: parsed.offset ?? 0)
            }
            currentMap = MediaInitializationSection(line: line.number, uri: attrs.string("URI") ?? "", byteRange: range)
            // bis-22 §4.4.4.5: an AES-128 key that applies to a Media Initialization Section
            // needs an IV: the section has no media sequence number to stand in for one.
            if let key = currentKey, key.method == "AES-128", key.iv == nil {
                sink.error(
                    "EXT-X-MAP is encrypted by the AES-128 EXT-X-KEY on line \(key.line), which has no IV: add an IV attribute to that key (bis-22 §4.4.4.5)",
                    line: line.number, column: line.column, kind: .structure)
            }
        case .programDateTime:
            guard let value, !value.isEmpty else {
                sink.error("EXT-X-PROGRAM-DATE-TIME needs a date-time value", line: line.number, column: line.column)
                return
            }
            if !looksLikeDateTime(value) {
                sink.warning(
                    "EXT-X-PROGRAM-DATE-TIME: expected an ISO 8601 date-time, found \"\(excerpt(value))\"",
                    line: line.number, column: valueColumn)
            }
            pendingProgramDateTime = valueString ?? String(value)
            pendingPackedDateTime = 0
        case .daterange:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["ID"], in: attrs, tag: tagName, line: line)
            let id = attrs.string("ID")
            if !attrs.contains("START-DATE"), !(id.map(dateRangeIDs.contains) ?? false) {
                sink.warning(
                    "EXT-X-DATERANGE has no START-DATE attribute", line: line.number, column: line.column,
                    kind: .structure)
            }
            if let id { dateRangeIDs.insert(id) }
            if attrs.contains("END-ON-NEXT"), !attrs.contains("CLASS") {
                sink.error(
                    "EXT-X-DATERANGE with END-ON-NEXT must have a CLASS attribute", line: line.number,
                    column: attrs["END-ON-NEXT"]?.column ?? line.column, kind: .structure)
            }
            media.dateRanges.append(DateRange(line: line.number, id: attrs.string("ID"), attributes: attrs))
        case .gap:
            noValue(tagName, value, line, valueColumn)
            pendingGap = true
        case .bitrate:
            currentBitrate = requiredInteger(
                tagName, value, line, valueColumn, maximum: ValueLimits.maximumBitrateTag, unit: " kbit/s")
        case .part:
            handlePart(tagName, value, line, valueColumn)
        case .partInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["PART-TARGET"], in: attrs, tag: tagName, line: line)
            media.partTarget = attrs.decimalFloatingPoint("PART-TARGET")
        case .serverControl:
            media.serverControl = attributeList(tagName, value, line, valueColumn)
        case .preloadHint:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["TYPE", "URI"], in: attrs, tag: tagName, line: line)
            media.preloadHints.append(attrs)
        case .renditionReport:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI"], in: attrs, tag: tagName, line: line)
            media.renditionReports.append(attrs)
        case .skip:
            requireVersion(9, "EXT-X-SKIP", line.number, line.column)
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["SKIPPED-SEGMENTS"], in: attrs, tag: tagName, line: line)
            if let attr = attrs["RECENTLY-REMOVED-DATERANGES"] {
                // bis-22 §8: skipping date ranges (a v2 delta update) is protocol version 10.
                requireVersion(10, "EXT-X-SKIP with RECENTLY-REMOVED-DATERANGES", line.number, attr.column)
            }
            media.skippedSegments = attrs.decimalInteger("SKIPPED-SEGMENTS").flatMap { Int(exactly: $0) }

        // Media playlist tags
        case .targetduration:
            sawTargetDuration = true
            if let v = requiredInteger(
                tagName, value, line, valueColumn, maximum: ValueLimits.maximumTargetDuration, unit: " seconds")
            {
                if v == 0 {
                    sink.error(
                        "EXT-X-TARGETDURATION:0: the target duration is at least 1 (bis-22 §4.4.3.1); give the longest EXTINF rounded to the nearest integer",
                        line: line.number, column: valueColumn)
                }
                media.targetDuration = v
                media.targetDurationLine = line.number
            }
        case .mediaSequence:
            if !media.segments.isEmpty {
                sink.error(
                    "EXT-X-MEDIA-SEQUENCE must appear before the first media segment", line: line.number,
                    column: line.column, kind: .structure)
            }
            if let v = requiredInteger(tagName, value, line, valueColumn, maximum: ValueLimits.maximumInteger) {
                media.mediaSequence = v
            }
            media.mediaSequenceLine = media.mediaSequenceLine ?? line.number
        case .discontinuitySequence:
            if !media.segments.isEmpty || sawDiscontinuity {
                sink.error(
                    "EXT-X-DISCONTINUITY-SEQUENCE must appear before the first media segment and any EXT-X-DISCONTINUITY",
                    line: line.number, column: line.column, kind: .structure)
            }
            if let v = requiredInteger(tagName, value, line, valueColumn, maximum: ValueLimits.maximumInteger) {
                media.discontinuitySequence = v
            }
            media.discontinuitySequenceLine = media.discontinuitySequenceLine ?? line.number
        case .playlistType:
            let text = value.map { String($0).trimmingSpaces } ?? ""
            if let type = PlaylistType(rawValue: text) {
                media.playlistType = type
            } else {
                sink.error(
                    "EXT-X-PLAYLIST-TYPE: expected EVENT or VOD, found \"\(excerpt(text))\"", line: line.number,
                    column: value == nil ? line.column : valueColumn)
            }
        case .endlist:
            noValue(tagName, value, line, valueColumn)
            media.endList = true
        case .iFramesOnly:
            noValue(tagName, value, line, valueColumn)
            requireVersion(4, "EXT-X-I-FRAMES-ONLY", line.number, line.column)
            media.iFramesOnly = true

        // Multivariant playlist tags
        case .streamInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["BANDWIDTH"], in: attrs, tag: tagName, line: line)
            if let pending = pendingStreamInf {
                sink.error(
                    "EXT-X-STREAM-INF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            pendingStreamInf = (line.number, attrs)
        case .iFrameStreamInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI", "BANDWIDTH"], in: attrs, tag: tagName, line: line)
            var variant = IFrameVariantStream(uri: attrs.string("URI") ?? "", line: line.number, attributes: attrs)
            variant.bandwidth = int(attrs, "BANDWIDTH")
            variant.averageBandwidth = int(attrs, "AVERAGE-BANDWIDTH")
            variant.codecs = attrs.string("CODECS").map(splitCodecs)
            variant.resolution = attrs.resolution("RESOLUTION")
            variant.videoGroup = attrs.string("VIDEO")
            checkVariantValues(attrs, tag: "EXT-X-I-FRAME-STREAM-INF", line: line.number)
            master.iFrameVariants.append(variant)
        case .media:
            handleMedia(tagName, value, line, valueColumn)
        case .sessionData:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["DATA-ID"], in: attrs, tag: tagName, line: line)
            if attrs.contains("VALUE") == attrs.contains("URI") {
                sink.error(
                    "EXT-X-SESSION-DATA must have either a VALUE or a URI attribute, not both or neither",
                    line: line.number, column: line.column, kind: .structure)
            }
            var data = SessionData(line: line.number)
            data.dataID = attrs.string("DATA-ID")
            data.value = attrs.string("VALUE")
            data.uri = attrs.string("URI")
            data.language = attrs.string("LANGUAGE")
            data.format = attrs.string("FORMAT")
            master.sessionData.append(data)
        case .sessionKey:
            let attrs = attributeList(tagName, value, line, valueColumn)
            if let key = encryptionKey(tagName, attrs, line) {
                if !key.isEncrypting {
                    sink.error(
                        "EXT-X-SESSION-KEY must not have METHOD=NONE", line: line.number,
                        column: attrs["METHOD"]?.column ?? line.column, kind: .structure)
                }
                master.sessionKeys.append(key)
            }
        case .contentSteering:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["SERVER-URI"], in: attrs, tag: tagName, line: line)
            var steering = ContentSteering(line: line.number)
            steering.serverURI = attrs.string("SERVER-URI")
            steering.pathwayID = attrs.string("PATHWAY-ID")
            master.contentSteering = steering
        default:
            // Unknown and vendor tags (#EXT-X-CUE-OUT, #EXT-X-SCTE35, …) are kept in `tags`.
            break
        }
    }

    mutating func noValue(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        if let value, !value.isEmpty {
            sink.warning(
                "\(bare(tagName)) takes no value, found \"\(excerpt(value))\"", line: line.number, column: column)
        }
    }

    mutating func requiredInteger(
        _ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int, maximum: Int = .max,
        unit: String = ""
    ) -> Int? {
        guard let value, !value.trimmingSpaces.isEmpty else {
            sink.error("\(bare(tagName)) needs a decimal-integer value", line: line.number, column: line.column)
            return nil
        }
        let text = value.trimmingSpaces
        if AttributeValueParser.isDigits(text) {
            if let v = AttributeValueParser.decimalInteger(text), let i = Int(exactly: v), i <= maximum { return i }
            if maximum < .max {
                sink.error(
                    "\(bare(tagName)): \(excerpt(text)) is out of range (hlscheck accepts 0 to \(maximum)\(unit)); the value is ignored",
                    line: line.number, column: column)
            } else {
                sink.error("\(bare(tagName)): \(excerpt(text)) is too large", line: line.number, column: column)
            }
            return nil
        }
        sink.error(
            "\(bare(tagName)): expected a decimal integer, found \"\(excerpt(text))\"", line: line.number,
            column: column)
        return nil
    }

    /// bis-22 §4.4.5.1: the value of an X- attribute of EXT-X-DATERANGE is a quoted-string, a
    /// hexadecimal-sequence or a decimal-floating-point (signed or not).
    static func isClientAttributeValue(_ raw: String) -> Bool {
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { return true }
        if raw.hasPrefix("0x") || raw.hasPrefix("0X") { return AttributeValueParser.hexadecimalSequence(raw) != nil }
        let unsigned = raw.hasPrefix("-") ? raw.dropFirst() : Substring(raw)
        return !unsigned.isEmpty && AttributeValueParser.isDecimalFloatingPointSyntax(unsigned)
    }

    /// The EXT-X-STREAM-INF attributes an I-frame stream does not have: it plays no audio, no
    /// subtitles and no captions, and its frame rate is that of its I-frames.
    static let notIFrameAttributes: Set<String> = ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"]

    mutating func require(_ names: [String], in attrs: AttributeList, tag: String, line: SourceLine) {
        for name in names where !attrs.contains(name) {
            sink.error(
                "\(bare(tag)) is missing the required \(name) attribute", line: line.number, column: line.column,
                kind: .structure)
        }
    }

    mutating func requireVersion(_ version: Int, _ feature: String, _ line: Int, _ column: Int) {
        guard !versionFeaturesSeen.contains(feature) else { return }
        versionFeaturesSeen.insert(feature)
        versionRequirements.append((version, feature, line, column))
    }

    func int(_ attrs: AttributeList, _ name: String) -> Int? {
        attrs.decimalInteger(name).flatMap { Int(exactly: $0) }
    }

    func splitCodecs(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    // MARK: Attribute lists

    mutating func attributeList(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int)
        -> AttributeList
    {
        guard let value, !value.isEmpty else {
            sink.error("\(bare(tagName)) needs an attribute list", line: line.number, column: line.column)
            return AttributeList()
        }
        var attributes = AttributeListLexer.lex(
            value, line: line.number, column: column, tagName: bare(tagName), sink: &sink)
        let schema = schemas[tagName] ?? [:]
        for index in attributes.indices {
            let name = attributes[index].name
            guard let type = schema[name] else {
                // Unknown or client (X-…) attribute: keep the text, infer a quoted string. Clients
                // ignore it (RFC 8216 §4.2), but it is often a typo of a defined name.
                if tagName == "#EXT-X-I-FRAME-STREAM-INF", Self.notIFrameAttributes.contains(name) {
                    sink.error(
                        "EXT-X-I-FRAME-STREAM-INF must not have \(name): an I-frame stream has every EXT-X-STREAM-INF attribute but FRAME-RATE, AUDIO, SUBTITLES and CLOSED-CAPTIONS (bis-22 §4.4.6.3, RFC 8216 §4.3.4.3); remove it",
                        line: line.number, column: attributes[index].column, kind: .structure)
                } else if !schema.isEmpty, !name.hasPrefix("X-") {
                    sink.warning(
                        "\(bare(tagName)): unknown attribute \(excerpt(name)) (clients ignore it; is it misspelt?)",
                        line: line.number, column: attributes[index].column)
                }
                let raw = attributes[index].rawValue
                if tagName == "#EXT-X-DATERANGE", name.hasPrefix("X-"), !raw.isEmpty, !Self.isClientAttributeValue(raw)
                {
                    sink.error(
                        "EXT-X-DATERANGE: the value of \(excerpt(name)) is \(excerpt(raw)); a client-defined attribute holds a quoted string, a hexadecimal sequence (0x…) or a signed decimal number (bis-22 §4.4.5.1)",
                        line: line.number, column: attributes[index].column)
                }
                if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 {
                    attributes[index].value = .quotedString(
                        substitute(String(raw.dropFirst().dropLast()), line.number, attributes[index].column))
                }
                continue
            }
            attributes[index].value = typedValue(attributes[index], type, tag: bare(tagName), line: line.number)
        }
        return AttributeList(attributes)
    }

    mutating func typedValue(_ attribute: Attribute, _ type: AttributeType, tag: String, line: Int) -> AttributeValue? {
        let raw = attribute.rawValue
        let isQuoted = raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"")
        let inner = isQuoted ? String(raw.dropFirst().dropLast()) : raw
        let column = attribute.column
        let shown = raw.hasPrefix("\"") ? excerpt(raw) : "\"\(excerpt(raw))\""
        func fail(_ expected: String) {
            sink.error("attribute \(attribute.name): expected \(expected), found \(shown)", line: line, column: column)
        }
        // A value that is well formed but quoted when it must not be (or the reverse) bends the
        // grammar without making it ambiguous: a warning, and the value is still used.
        func bend(_ expected: String) {
            sink.warning(
                "attribute \(attribute.name): expected \(expected), found \(shown)", line: line, column: column)
        }
        if raw.isEmpty { return nil }  // already reported by the lexer
        // bis-22 §4.2: a quoted-string is non-empty unless its attribute allows it, and none
        // of the attributes hlscheck knows does.
        func rejectEmpty() {
            if isQuoted, inner.isEmpty {
                sink.error(
                    "attribute \(attribute.name): the quoted string is empty (bis-22 §4.2); give it a value or leave the attribute out",
                    line: line, column: column)
            }
        }
        switch type {
        case .quotedString:
            guard isQuoted else {
                bend("a quoted string")
                return .quotedString(substitute(raw, line, column))
            }
            rejectEmpty()
            return .quotedString(substitute(inner, line, column))
        case .quotedStringOrNone:
            if raw == "NONE" { return .enumeratedString("NONE") }
            guard isQuoted else {
                bend("a quoted string or NONE")
                return .quotedString(raw)
            }
            rejectEmpty()
            return .quotedString(substitute(inner, line, column))
        case .enumeratedString(let allowed), .openEnumeratedString(let allowed):
            if isQuoted {
                bend("an enumerated string without quotes")
            } else if !AttributeValueParser.isEnumeratedString(raw) {
                fail("an enumerated string")
                return nil
            }
            if !allowed.isEmpty, !allowed.contains(inner) {
                let message =
                    "attribute \(attribute.name): expected one of \(allowed.joined(separator: ", ")), found \"\(excerpt(inner))\""
                if case .enumeratedString = type {
                    sink.error(message, line: line, column: column)
                } else {
                    sink.warning(message, line: line, column: column)
                }
            }
            return .enumeratedString(inner)
        case .decimalInteger:
            if isQuoted { bend("a decimal integer without quotes") }
            if AttributeValueParser.isDigits(inner) {
                if let v = AttributeValueParser.decimalInteger(inner) {
                    let limit = integerLimit(attribute.name)
                    guard v <= limit.maximum else {
                        outOfRange(
                            attribute, excerpt(inner), accepted: "0 to \(limit.maximum)\(limit.unit)", line: line)
                        return nil
                    }
                    return .decimalInteger(v)
                }
                sink.error(
                    "attribute \(attribute.name): \(excerpt(inner)) is too large for a decimal-integer (at most 2^64-1)",
                    line: line, column: column)
                return nil
            }
            fail("a decimal integer")
            return nil
        case .decimalFloatingPoint:
            if isQuoted { bend("a decimal number without quotes") }
            if let v = AttributeValueParser.decimalFloatingPoint(inner) {
                guard let v = acceptedFloatingPoint(v, attribute, excerpt(inner), line: line) else { return nil }
                return .decimalFloatingPoint(v)
            }
            if AttributeValueParser.isOverlongDecimal(inner) {
                outOfRange(attribute, excerpt(inner), accepted: floatingPointLimit(attribute.name).text, line: line)
                return nil
            }
            fail(inner.hasPrefix("-") ? "a non-negative decimal number" : "a decimal number")
            return nil
        case .signedDecimalFloatingPoint:
            if isQuoted { bend("a decimal number without quotes") }
            if let v = AttributeValueParser.signedDecimalFloatingPoint(inner) {
                guard let v = acceptedFloatingPoint(v, attribute, excerpt(inner), line: line) else { return nil }
                return .signedDecimalFloatingPoint(v)
            }
            if AttributeValueParser.isOverlongDecimal(inner.hasPrefix("-") ? String(inner.dropFirst()) : inner) {
                outOfRange(attribute, excerpt(inner), accepted: floatingPointLimit(attribute.name).text, line: line)
                return nil
            }
            fail("a signed decimal number")
            return nil
        case .hexadecimalSequence:
            if isQuoted { bend("a hexadecimal sequence (0x…) without quotes") }
            let text = substitute(inner, line, column)
            if let v = AttributeValueParser.hexadecimalSequence(text) { return .hexadecimalSequence(v) }
            fail("a hexadecimal sequence 0x…")
            return nil
        case .decimalResolution:
            if isQuoted { bend("WIDTHxHEIGHT without quotes") }
            if let r = AttributeValueParser.resolution(inner) {
                let side = ValueLimits.maximumResolutionSide
                guard (1...side).contains(r.width), (1...side).contains(r.height) else {
                    outOfRange(attribute, excerpt(inner), accepted: "1 to \(side) pixels on each side", line: line)
                    return nil
                }
                return .decimalResolution(r)
            }
            if AttributeValueParser.isOverlongResolution(inner) {
                outOfRange(
                    attribute, excerpt(inner),
                    accepted: "1 to \(ValueLimits.maximumResolutionSide) pixels on each side", line: line)
                return nil
            }
            fail("WIDTHxHEIGHT")
            return nil
        }
    }

    // MARK: Ranges (docs/security.md, "Numbers from files")

    /// Reports a well-formed value hlscheck does not accept; the caller then treats it as absent.
    mutating func outOfRange(_ attribute: Attribute, _ shown: String, accepted: String, line: Int) {
        sink.error(
            "attribute \(attribute.name): \(shown) is out of range (hlscheck accepts \(accepted)); the value is ignored",
            line: line, column: attribute.column)
    }

    func integerLimit(_ name: String) -> (maximum: UInt64, unit: String) {
        switch name {
        case "BANDWIDTH", "AVERAGE-BANDWIDTH": (ValueLimits.maximumBandwidth, " bit/s")
        case "SKIPPED-SEGMENTS", "LAST-MSN", "LAST-PART", "BYTERANGE-START", "BYTERANGE-LENGTH", "SAMPLE-RATE",
            "BIT-DEPTH":
            (UInt64(ValueLimits.maximumInteger), "")
        default: (UInt64.max, "")
        }
    }

    func floatingPointLimit(_ name: String) -> (range: ClosedRange<Double>, isDuration: Bool, text: String) {
        switch name {
        case "DURATION", "PART-TARGET", "HOLD-BACK", "PART-HOLD-BACK", "CAN-SKIP-UNTIL", "PLANNED-DURATION":
            (0...ValueLimits.maximumDuration, true, ValueLimits.durationRangeText)
        case "FRAME-RATE":
            (0...ValueLimits.maximumFrameRate, false, "0 to \(Int(ValueLimits.maximumFrameRate)) frames per second")
        default:
            (-ValueLimits.maximumMagnitude...ValueLimits.maximumMagnitude, false, "-1000000000 to 1000000000")
        }
    }

    /// The value when it lies in the attribute's accepted range, else nil (and a problem).
    mutating func acceptedFloatingPoint(_ value: Double, _ attribute: Attribute, _ shown: String, line: Int) -> Double?
    {
        let limit = floatingPointLimit(attribute.name)
        let accepted = limit.isDuration ? ValueLimits.isAcceptableDuration(value) : limit.range.contains(value)
        guard value.isFinite, accepted else {
            outOfRange(attribute, shown, accepted: limit.text, line: line)
            return nil
        }
        return value
    }

    // MARK: Variables (rfc8216bis §4.3)

    mutating func substitute(_ text: String, _ line: Int, _ column: Int) -> String {
        // Fast path on bytes: most values hold no "{$" at all.
        let utf8 = text.utf8
        guard let brace = utf8.firstIndex(of: UInt8(ascii: "{")),
            utf8[brace...].dropFirst().contains(UInt8(ascii: "$"))
        else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterBrace = rest[rest.index(after: open)...]
            guard afterBrace.first == "$" else {
                result += "{"
                rest = afterBrace
                continue
            }
            let afterOpen = afterBrace.dropFirst()
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[open...]
                rest = rest[rest.endIndex...]
                break
            }
            let name = String(afterOpen[..<close])
            if isVariableName(name) {
                if let value = variables[name] {
                    guard substitutionBudget >= value.utf8.count else {
                        if !substitutionBudgetReported {
                            substitutionBudgetReported = true
                            sink.error(
                                "variable substitution stops here: it would make the playlist more than \(ValueLimits.substitutionAllowance) bytes plus four times its size larger (EXT-X-DEFINE values that expand into each other); later references are left as written",
                                line: line, column: column, kind: .variable)
                        }
                        result += rest[open...close]
                        rest = afterOpen[afterOpen.index(after: close)...]
                        continue
                    }
                    substitutionBudget -= value.utf8.count
                    result += value
                } else {
                    sink.error(
                        "variable {$\(name)} is not defined by an EXT-X-DEFINE above this line (rfc8216bis §4.3)",
                        line: line, column: column, kind: .variable)
                    result += rest[open...close]
                }
            } else {
                result += rest[open...close]
            }
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        result += rest
        return result
    }

    func isVariableName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    mutating func handleDefine(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        requireVersion(8, "EXT-X-DEFINE (variable substitution)", line.number, line.column)
        let attrs = attributeList(tagName, value, line, column)
        let forms = ["NAME", "IMPORT", "QUERYPARAM"].filter { attrs.contains($0) }
        guard forms.count == 1, let form = forms.first, let attr = attrs[form] else {
            sink.error(
                "EXT-X-DEFINE must have exactly one of NAME, IMPORT or QUERYPARAM", line: line.number,
                column: line.column, kind: .variable)
            return
        }
        let name = attr.stringValue
        if !isVariableName(name) {
            sink.error(
                "EXT-X-DEFINE: variable name \"\(name)\" may contain only a-z, A-Z, 0-9, '-' and '_'",
                line: line.number, column: attr.column, kind: .variable)
        }
        if variables[name] != nil {
            sink.error(
                "EXT-X-DEFINE: variable \(name) is defined more than once", line: line.number, column: attr.column,
                kind: .variable)
        }
        let kind: VariableDefinition.Kind
        switch form {
        case "NAME":
            guard let v = attrs.string("VALUE") else {
                sink.error(
                    "EXT-X-DEFINE is missing the required VALUE attribute", line: line.number, column: line.column,
                    kind: .variable)
                return
            }
            variables[name] = v
            kind = .value(v)
        case "IMPORT":
            if multivariantTagCount > 0 {
                sink.error(
                    "EXT-X-DEFINE:IMPORT must not appear in a multivariant playlist", line: line.number,
                    column: attr.column, kind: .variable)
            }
            if let v = importedVariables[name] {
                variables[name] = v
            } else if importedVariables.isEmpty {
                sink.warning(
                    "EXT-X-DEFINE: IMPORT of \(name) cannot be resolved: the playlist was parsed without its multivariant playlist",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            } else {
                sink.error(
                    "EXT-X-DEFINE: IMPORT of \(name), which the multivariant playlist does not define",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            }
            kind = .imported
        default:
            // bis-22 §8: QUERYPARAM is protocol version 11.
            requireVersion(11, "EXT-X-DEFINE with QUERYPARAM", line.number, attr.column)
            if let v = queryParameters[name] {
                // bis-22 §4.4.2.3: the percent-decoded value must hold nothing a quoted-string
                // cannot (line feed, carriage return, double quote).
                let lowered = v.lowercased()
                if v.contains("\"") || ["%0a", "%0d", "%22"].contains(where: lowered.contains) {
                    sink.error(
                        "EXT-X-DEFINE: query parameter \(name) decodes to a line feed, carriage return or double quote, which a variable value cannot hold (bis-22 §4.4.2.3)",
                        line: line.number, column: attr.column, kind: .variable)
                }
                variables[name] = v
            } else if queryParameters.isEmpty {
                sink.warning(
                    "EXT-X-DEFINE: QUERYPARAM \(name) cannot be resolved: the playlist URI has no query parameters",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            } else {
                sink.error(
                    "EXT-X-DEFINE: QUERYPARAM \(name) is not a query parameter of the playlist URI", line: line.number,
                    column: attr.column, kind: .variable)
                variables[name] = ""
            }
            kind = .queryParameter
        }
        let definition = VariableDefinition(line: line.number, name: name, kind: kind)
        master.definitions.append(definition)
        media.definitions.append(definition)
    }

    // MARK: Media segments

    /// `#EXTINF:<digits>[.<digits>],<title>` with an accepted duration, read on its bytes —
    /// the line of nearly every segment. Returns false, having changed nothing, for anything
    /// else (`handleExtinf` then reads it and says what is wrong).
    mutating func handleCommonExtinf(_ bytes: UnsafeBufferPointer<UInt8>, _ line: SourceLine, _ column: Int) -> Bool {
        guard pendingExtinf == nil else { return false }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0, index = 0
        var sawDot = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                guard digits < 15 else { return false }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
                if sawDot { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawDot, digits > 0 {
                sawDot = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        // At most 15 digits and a power of ten up to 10^15: both exact in a Double, so one
        // division is correctly rounded, the same value `Double(String)` gives (Clinger).
        let duration = Double(mantissa) / Self.powersOfTen[fractionDigits]
        guard ValueLimits.isAcceptableDuration(duration) else { return false }
        if sawDot, !requiredDecimalExtinfVersion {
            requiredDecimalExtinfVersion = true
            requireVersion(3, "a decimal-floating-point EXTINF duration", line.number, column)
        }
        let title = index + 1 < bytes.count ? String(decoding: bytes[(index + 1)...], as: UTF8.self) : nil
        pendingExtinf = (line.number, duration, title)
        return true
    }

    static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    mutating func handleExtinf(_ value: Substring?, _ line: SourceLine, _ column: Int) {
        if let pending = pendingExtinf {
            sink.error("EXTINF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            pendingExtinf = nil
        }
        guard let value, !value.isEmpty else {
            sink.error("EXTINF needs a duration: #EXTINF:<duration>,[<title>]", line: line.number, column: line.column)
            pendingExtinf = (line.number, 0, nil)
            return
        }
        let durationText: Substring
        var title: String?
        if let comma = value.utf8.firstIndex(of: UInt8(ascii: ",")) {
            durationText = value[..<comma]
            let t = value[value.index(after: comma)...]
            title = t.isEmpty ? nil : String(t)
        } else {
            durationText = value
            // Reported once per file (a generated playlist repeats it on every segment).
            if commalessExtinfCount == 0 {
                let index = sink.problems.count
                if sink.warning(
                    "EXTINF: a comma must follow the duration (#EXTINF:<duration>,[<title>])", line: line.number,
                    column: column + value.unicodeScalars.count)
                {
                    commalessExtinfProblemIndex = index
                }
            }
            commalessExtinfCount += 1
        }
        let trimmed = durationText.trimmingSpaces
        var duration = 0.0
        // An out-of-range duration is reported and then ignored (0, "unknown"), so that no bit
        // rate, window or message downstream ever sees it (docs/security.md).
        func outOfRange(_ text: String) {
            sink.error(
                "EXTINF: the duration \(excerpt(text)) is out of range (hlscheck accepts \(ValueLimits.durationRangeText)); it is ignored",
                line: line.number, column: column)
        }
        if AttributeValueParser.isDigits(trimmed) {
            let d = Double(trimmed) ?? .infinity
            if d.isFinite, ValueLimits.isAcceptableDuration(d) { duration = d } else { outOfRange(trimmed) }
        } else if let d = AttributeValueParser.decimalFloatingPoint(trimmed) {
            if ValueLimits.isAcceptableDuration(d) { duration = d } else { outOfRange(trimmed) }
            if !requiredDecimalExtinfVersion {
                requiredDecimalExtinfVersion = true
                requireVersion(3, "a decimal-floating-point EXTINF duration", line.number, column)
            }
        } else if AttributeValueParser.isOverlongDecimal(trimmed) {
            outOfRange(trimmed)
        } else if AttributeValueParser.signedDecimalFloatingPoint(trimmed) != nil
            || AttributeValueParser.isOverlongDecimal(trimmed.dropFirst()) && trimmed.hasPrefix("-")
        {
            sink.error(
                "EXTINF: the duration must not be negative, found \(excerpt(trimmed)); it is ignored",
                line: line.number, column: column)
        } else {
            sink.error(
                "EXTINF: expected a duration in seconds, found \"\(excerpt(trimmed))\"", line: line.number,
                column: column)
        }
        pendingExtinf = (line.number, duration, title)
    }

    mutating func parseByteRange(_ text: Substring, tag: String, line: Int, column: Int) -> (length: Int, offset: Int?)?
    {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int? {
            AttributeValueParser.decimalInteger(s).flatMap { Int(exactly: $0) }
        }
        guard let lengthText = parts.first, let length = number(lengthText) else {
            sink.error(
                "\(bare(tag)): expected <length>[@<offset>], found \"\(excerpt(trimmed))\"", line: line, column: column)
            return nil
        }
        var offset: Int?
        if parts.count == 2, parts[1].isEmpty {
            sink.error(
                "\(bare(tag)): the offset after '@' is missing, found \"\(excerpt(trimmed))\"", line: line,
                column: column)
        } else if parts.count == 2 {
            guard let o = number(parts[1]) else {
                sink.error(
                    "\(bare(tag)): expected <length>[@<offset>], found \"\(excerpt(trimmed))\"", line: line,
                    column: column)
                return nil
            }
            offset = o
        }
        let end = (offset ?? 0).addingReportingOverflow(length)
        if end.overflow || end.partialValue > ValueLimits.maximumInteger {
            sink.error(
                "\(bare(tag)): the range \(excerpt(trimmed)) ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                line: line, column: column)
            return nil
        }
        return (length, offset)
    }

    mutating func handlePart(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        let attrs = attributeList(tagName, value, line, column)
        require(["URI", "DURATION"], in: attrs, tag: tagName, line: line)
        if firstPartLine == nil { firstPartLine = line.number }
        let uri = attrs.string("URI") ?? ""
        var range: ByteRange?
        if let attr = attrs["BYTERANGE"],
            let parsed = parseByteRange(
                Substring(attr.stringValue), tag: "EXT-X-PART BYTERANGE", line: line.number, column: attr.column)
        {
            let offset = parsed.offset ?? partRangeEnds[uri] ?? 0
            let end = offset.addingReportingOverflow(parsed.length)
            if end.overflow || end.partialValue > ValueLimits.maximumInteger {
                sink.error(
                    "EXT-X-PART BYTERANGE: continuing the previous part, this range ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                    line: line.number, column: attr.column)
                partRangeEnds[uri] = nil
            } else {
                range = ByteRange(length: parsed.length, offset: offset)
                partRangeEnds[uri] = end.partialValue
            }
        }
        pendingParts.append(
            PartialSegment(
                line: line.number, uri: uri, duration: attrs.decimalFloatingPoint("DURATION") ?? 0,
                independent: attrs.string("INDEPENDENT") == "YES", byteRange: range, gap: attrs.string("GAP") == "YES"))
    }

    mutating func encryptionKey(_ tagName: String, _ attrs: AttributeList, _ line: SourceLine) -> EncryptionKey? {
        guard let method = attrs.string("METHOD") else {
            require(["METHOD"], in: attrs, tag: tagName, line: line)
            return nil
        }
        var key = EncryptionKey(line: line.number, method: method)
        key.uri = attrs.string("URI")
        key.iv = attrs.hexadecimalSequence("IV")
        key.keyFormat = attrs.string("KEYFORMAT")
        key.keyFormatVersions = attrs.string("KEYFORMATVERSIONS")
        if method == "NONE" {
            for attr in attrs.attributes where attr.name != "METHOD" {
                sink.error(
                    "\(bare(tagName)) with METHOD=NONE must not have other attributes, found \(attr.name)",
                    line: line.number, column: attr.column, kind: .structure)
            }
        } else if key.uri == nil {
            require(["URI"], in: attrs, tag: tagName, line: line)
        }
        if let ivAttr = attrs["IV"], method == "AES-256-GCM" || method == "SAMPLE-AES-CTR" {
            sink.error(
                "\(bare(tagName)) with METHOD=\(method) must not have an IV attribute (bis-22 §4.4.4.4); remove it",
                line: line.number, column: ivAttr.column, kind: .structure)
        }
        if tagName == "#EXT-X-KEY", method == "SAMPLE-AES" {
            // bis-22 §8: an EXT-X-KEY with METHOD=SAMPLE-AES is protocol version 5.
            requireVersion(5, "EXT-X-KEY with METHOD=SAMPLE-AES", line.number, attrs["METHOD"]?.column ?? line.column)
        }
        if let ivAttr = attrs["IV"] {
            requireVersion(2, "the IV attribute", line.number, ivAttr.column)
            if let iv = key.iv, iv.count != 16 {
                sink.error(
                    "attribute IV: expected a 128-bit value (32 hexadecimal digits), found \(iv.count * 8) bits",
                    line: line.number, column: ivAttr.column)
            }
        }
        for name in ["KEYFORMAT", "KEYFORMATVERSIONS"] {
            if let attr = attrs[name] { requireVersion(5, "the \(name) attribute", line.number, attr.column) }
        }
        return key
    }

    // MARK: URI lines

    mutating func handleURILine(_ line: SourceLine) {
        handleURILine(String(line.text), number: line.number, column: line.column)
    }

    mutating func handleURILine(_ text: String, number: Int, column: Int, substituting: Bool = true) {
        let uri = substituting ? substitute(text, number, column) : text
        if let pending = pendingStreamInf {
            pendingStreamInf = nil
            master.variants.append(
                makeVariant(uri: uri, line: pending.line, uriLine: number, attributes: pending.attributes))
            return
        }
        if pendingExtinf == nil {
            if multivariantTagCount > 0, mediaTagCount == 0 {
                sink.error(
                    "URI line is not preceded by #EXT-X-STREAM-INF", line: number, column: column, kind: .structure)
                return
            }
            sink.error(
                "URI line \"\(text.prefix(60))\" is not preceded by #EXTINF", line: number, column: column,
                kind: .structure)
        }
        var written = uri
        appendSegment(written.withUTF8 { storeURI($0) }, number: number)
    }

    /// A URI as the parser keeps it: a template's number, or bytes in `uriBytes` (in its own
    /// buffer when a range of `uriBytes` cannot name it).
    enum SegmentURI {
        case templated(URITemplate, UInt64)
        case pending(offset: Int, length: Int)
        case own(URIText)
    }

    /// Keeps a URI's bytes with the others.
    mutating func storeURI(_ bytes: UnsafeBufferPointer<UInt8>) -> SegmentURI {
        let offset = uriBytes.count
        guard URIText.payload(offset: offset, length: bytes.count) != nil else { return .own(URIText(Array(bytes))) }
        uriBytes.append(contentsOf: bytes)
        return .pending(offset: offset, length: bytes.count)
    }

    /// The text of a URI the parser keeps.
    func string(_ uri: SegmentURI) -> String {
        switch uri {
        case .templated(let template, let number): return template.uri(number)
        case .pending(let offset, let length):
            return uriBytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self)
            }
        case .own(let text): return text.string(URIText.whole)
        }
    }

    /// The media sequence base of segments made now: EXT-X-MEDIA-SEQUENCE plus EXT-X-SKIP's
    /// skipped segments (as `finish` computes it).
    var sequenceBase: Int {
        let first = media.mediaSequence.addingReportingOverflow(media.skippedSegments ?? 0)
        return first.overflow ? media.mediaSequence : first.partialValue
    }

    /// The segment a URI line ends, made of the tags before it.
    mutating func appendSegment(_ segmentURI: SegmentURI, number: Int) {
        let extinf = pendingExtinf
        pendingExtinf = nil
        let base = sequenceBase
        let context: SegmentContext
        if !currentContextIsStale, let current = currentContext, current.sequenceBase == base {
            context = current
        } else {
            context = SegmentContext(key: currentKey, map: currentMap, bitrate: currentBitrate, sequenceBase: base)
            currentContext = context
            currentContextIsStale = false
        }
        let source: URISource, payload: UInt64
        switch segmentURI {
        case .templated(let template, let number): (source, payload) = (.template(template), number)
        case .pending(let offset, let length):
            (source, payload) = (.text(pendingURIText), UInt64(offset) << 24 | UInt64(length))
        case .own(let text): (source, payload) = (.text(text), URIText.whole)
        }
        // The delta is the index; `finish` fixes what 24 bits or a base changed later cannot hold.
        var segment = MediaSegment(
            source: source, payload: payload, uriLine: number, extinfLine: extinf?.line,
            duration: extinf?.duration ?? 0, context: context, sequenceDelta: media.segments.count)
        if pendingDiscontinuity { segment.discontinuity = true }
        if pendingGap { segment.gap = true }
        segment.packedDateTime = pendingPackedDateTime
        var byteRange: ByteRange?
        if let range = pendingByteRange {
            let offset: Int
            if let explicit = range.offset {
                offset = explicit
            } else {
                // RFC 8216 §4.3.2.2: without an offset, the previous media segment MUST be a
                // sub-range of the same resource; the range continues right after it.
                let uri = string(segmentURI)
                if !(previousSegmentHadRange && previousSegmentURI.map(string) == uri) {
                    sink.error(
                        "EXT-X-BYTERANGE has no offset, but the previous media segment is not a sub-range of \(uri) (RFC 8216 §4.3.2.2)",
                        line: range.line, column: range.column, kind: .structure)
                }
                // "the sub-range begins at the next byte following the sub-range of the previous
                // Media Segment" (§4.3.2.2), also when that segment broke the rule above.
                offset = previousSegmentRangeEnd ?? 0
            }
            let end = offset.addingReportingOverflow(range.length)
            if end.overflow || end.partialValue > ValueLimits.maximumInteger {
                sink.error(
                    "EXT-X-BYTERANGE: continuing the previous segment, this range ends beyond byte \(ValueLimits.maximumInteger), the largest hlscheck accepts; it is ignored",
                    line: range.line, column: range.column)
                pendingUnreadableByteRange = range.line
                previousSegmentRangeEnd = nil
            } else {
                byteRange = ByteRange(length: range.length, offset: offset)
                previousSegmentRangeEnd = end.partialValue
            }
        }
        var rare = SegmentRareFields(
            title: extinf?.title, byteRange: byteRange, parts: pendingParts,
            writtenDateTime: pendingPackedDateTime == 0 ? pendingProgramDateTime : nil)
        rare.unreadableByteRangeLine = pendingUnreadableByteRange
        if !rare.isEmpty { segment.rare = rare }
        previousSegmentURI = segmentURI
        previousSegmentHadRange = pendingByteRange != nil
        if pendingByteRange == nil { previousSegmentRangeEnd = nil }
        pendingByteRange = nil
        pendingUnreadableByteRange = nil
        pendingDiscontinuity = false
        pendingGap = false
        pendingProgramDateTime = nil
        pendingPackedDateTime = 0
        pendingParts = []
        media.segments.append(segment)
    }

    mutating func makeVariant(uri: String, line: Int, uriLine: Int, attributes attrs: AttributeList) -> VariantStream {
        var v = VariantStream(uri: uri, line: line, uriLine: uriLine, attributes: attrs)
        v.bandwidth = int(attrs, "BANDWIDTH")
        v.averageBandwidth = int(attrs, "AVERAGE-BANDWIDTH")
        v.codecs = attrs.string("CODECS").map(splitCodecs)
        v.resolution = attrs.resolution("RESOLUTION")
        v.frameRate = attrs.decimalFloatingPoint("FRAME-RATE")
        v.hdcpLevel = attrs.string("HDCP-LEVEL")
        v.videoRange = attrs.string("VIDEO-RANGE")
        v.audioGroup = attrs.string("AUDIO")
        v.videoGroup = attrs.string("VIDEO")
        v.subtitlesGroup = attrs.string("SUBTITLES")
        if case .enumeratedString("NONE")? = attrs["CLOSED-CAPTIONS"]?.value {
            v.closedCaptionsNone = true
        } else {
            v.closedCaptionsGroup = attrs.string("CLOSED-CAPTIONS")
        }
        v.pathwayID = attrs.string("PATHWAY-ID")
        v.stableVariantID = attrs.string("STABLE-VARIANT-ID")
        checkVariantValues(attrs, tag: "EXT-X-STREAM-INF", line: line)
        return v
    }

    /// bis-22 §4.4.6.2 values of EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF that the
    /// grammar of their type alone does not catch.
    mutating func checkVariantValues(_ attrs: AttributeList, tag: String, line: Int) {
        if let attr = attrs["STABLE-VARIANT-ID"], !Self.isStableID(attr.stringValue) {
            sink.error(
                "\(tag): STABLE-VARIANT-ID \"\(excerpt(attr.stringValue))\" may contain only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_' (bis-22 §4.4.6.2)",
                line: line, column: attr.column)
        }
        for attr in attrs.attributes where attr.name.hasPrefix("REQ-") {
            // bis-22 §8: REQ- attributes are protocol version 12.
            requireVersion(12, "the \(attr.name) attribute", line, attr.column)
        }
        if let attr = attrs["REQ-VIDEO-LAYOUT"], !attr.stringValue.isEmpty,
            attr.stringValue.split(separator: ",", omittingEmptySubsequences: false).contains(where: {
                $0.trimmingSpaces.isEmpty
            })
        {
            sink.error(
                "\(tag): REQ-VIDEO-LAYOUT \"\(excerpt(attr.stringValue))\" has an empty entry (bis-22 §4.4.6.2); remove the extra comma",
                line: line, column: attr.column)
        }
        if let attr = attrs["SUPPLEMENTAL-CODECS"], !attr.stringValue.isEmpty {
            for element in attr.stringValue.split(separator: ",", omittingEmptySubsequences: false) {
                let format =
                    element.split(separator: "/", omittingEmptySubsequences: false).first.map { $0.trimmingSpaces }
                    ?? ""
                if !Self.isCodecFormat(format) {
                    sink.error(
                        "\(tag): SUPPLEMENTAL-CODECS element \"\(excerpt(String(element)))\" does not start with a codec format such as dvh1.08.07 (bis-22 §4.4.6.2)",
                        line: line, column: attr.column)
                }
            }
        }
    }

    /// bis-22 §4.4.6.1, §4.4.6.2: STABLE-RENDITION-ID and STABLE-VARIANT-ID use only
    /// a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'.
    static func isStableID(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2B, 0x2F, 0x3D, 0x2E, 0x2D, 0x5F].contains(byte)
            }
    }

    /// An RFC 6381 codec format as CODECS lists it: a four-character sample entry (letters,
    /// digits, '-', as in ec-3) followed by dot-separated parameters (`avc1.64001f`, `dvh1.08.07`).
    static func isCodecFormat<S: StringProtocol>(_ text: S) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let entry = parts.first, entry.utf8.count == 4 else { return false }
        func isCodeCharacter(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
        }
        return entry.utf8.allSatisfy(isCodeCharacter)
            && parts.dropFirst().allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isCodeCharacter) }
    }

    /// bis-22 §4.4.6.1: a closed-caption INSTREAM-ID is CC1 to CC4 or SERVICE1 to SERVICE63.
    static func isClosedCaptionChannel(_ text: String) -> Bool {
        if text.hasPrefix("CC"), let n = Int(text.dropFirst(2)), text.count == 3 { return (1...4).contains(n) }
        if text.hasPrefix("SERVICE"), let n = Int(text.dropFirst(7)), !text.dropFirst(7).hasPrefix("0"),
            text.dropFirst(7).allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return (1...63).contains(n)
        }
        return false
    }

    mutating func handleMedia(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        let attrs = attributeList(tagName, value, line, column)
        require(["TYPE", "GROUP-ID", "NAME"], in: attrs, tag: tagName, line: line)
        var r = Rendition(line: line.number, attributes: attrs)
        r.type = attrs.string("TYPE").flatMap(MediaType.init(rawValue:))
        r.groupID = attrs.string("GROUP-ID")
        r.name = attrs.string("NAME")
        r.uri = attrs.string("URI")
        r.language = attrs.string("LANGUAGE")
        r.assocLanguage = attrs.string("ASSOC-LANGUAGE")
        r.isDefault = attrs.string("DEFAULT") == "YES"
        r.autoselect = attrs.string("AUTOSELECT") == "YES"
        r.forced = attrs.string("FORCED") == "YES"
        r.instreamID = attrs.string("INSTREAM-ID")
        r.characteristics = attrs.string("CHARACTERISTICS")
        r.channels = attrs.string("CHANNELS")
        if r.type == .closedCaptions {
            require(["INSTREAM-ID"], in: attrs, tag: tagName, line: line)
            if let uriAttr = attrs["URI"] {
                sink.error(
                    "EXT-X-MEDIA with TYPE=CLOSED-CAPTIONS must not have a URI attribute", line: line.number,
                    column: uriAttr.column, kind: .structure)
            }
            if let id = r.instreamID, id.hasPrefix("SERVICE") {
                requireVersion(7, "INSTREAM-ID SERVICEn", line.number, attrs["INSTREAM-ID"]?.column ?? line.column)
            }
        } else if let attr = attrs["INSTREAM-ID"] {
            // bis-22 §4.4.6.1: from protocol version 13 INSTREAM-ID may name the media of any
            // TYPE; RFC 8216 allowed it with CLOSED-CAPTIONS only.
            requireVersion(13, "INSTREAM-ID on a rendition other than CLOSED-CAPTIONS", line.number, attr.column)
        }
        if let attr = attrs["STABLE-RENDITION-ID"], !Self.isStableID(attr.stringValue) {
            sink.error(
                "EXT-X-MEDIA: STABLE-RENDITION-ID \"\(excerpt(attr.stringValue))\" may contain only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_' (bis-22 §4.4.6.1)",
                line: line.number, column: attr.column)
        }
        if r.type == .closedCaptions, let attr = attrs["INSTREAM-ID"], let id = r.instreamID, !id.isEmpty,
            !Self.isClosedCaptionChannel(id)
        {
            sink.error(
                "EXT-X-MEDIA: INSTREAM-ID \"\(excerpt(id))\" is no caption channel; closed captions are CC1 to CC4 (CEA-608) or SERVICE1 to SERVICE63 (CEA-708) (bis-22 §4.4.6.1)",
                line: line.number, column: attr.column)
        }
        if let type = r.type, type != .audio {
            for name in ["BIT-DEPTH", "SAMPLE-RATE", "CHANNELS"] {
                if let attr = attrs[name] {
                    sink.error(
                        "EXT-X-MEDIA: \(name) describes audio and is allowed only with TYPE=AUDIO, not TYPE=\(type.rawValue) (bis-22 §4.4.6.1); remove it",
                        line: line.number, column: attr.column, kind: .structure)
                }
            }
        }
        if let attr = attrs["CHANNELS"], let channels = r.channels {
            let parameters = channels.split(separator: "/", omittingEmptySubsequences: false)
            if parameters.count >= 3, parameters[1].isEmpty {
                sink.error(
                    "EXT-X-MEDIA: CHANNELS \"\(excerpt(channels))\" has a third parameter but an empty second one (bis-22 §4.4.6.1); give the spatial audio identifiers or leave the third out",
                    line: line.number, column: attr.column)
            }
        }
        if let attr = attrs["FORCED"], r.type != .subtitles {
            sink.error(
                "EXT-X-MEDIA: FORCED is allowed only with TYPE=SUBTITLES", line: line.number, column: attr.column,
                kind: .structure)
        }
        if r.type == .subtitles, r.uri == nil {
            sink.error(
                "EXT-X-MEDIA with TYPE=SUBTITLES is missing the required URI attribute", line: line.number,
                column: line.column, kind: .structure)
        }
        if r.isDefault, let attr = attrs["AUTOSELECT"], !r.autoselect {
            sink.error(
                "EXT-X-MEDIA: AUTOSELECT must be YES when DEFAULT=YES", line: line.number, column: attr.column,
                kind: .renditionGroup)
        }
        master.renditions.append(r)
    }

    // MARK: End of file

    mutating func finish() -> Playlist {
        if !sawContent {
            sink.error(
                "the playlist is empty; it must start with #EXTM3U (RFC 8216 §4.3.1.1)", line: 1, column: 0,
                kind: .structure)
        }
        let isMultivariant = multivariantTagCount > mediaTagCount
        if let m = firstMultivariantTag, let d = firstMediaTag {
            let (offending, other) = isMultivariant ? (d, m) : (m, d)
            sink.error(
                "\(bare(offending.name)) cannot appear in a \(isMultivariant ? "multivariant" : "media") playlist (it mixes \(bare(other.name)) at line \(other.line) with \(bare(offending.name)))",
                line: offending.line, column: 1, kind: .structure)
        }
        if commalessExtinfCount > 1, let index = commalessExtinfProblemIndex, sink.problems.indices.contains(index) {
            sink.problems[index].message += "; \(commalessExtinfCount - 1) more EXTINF tags lack it"
        }
        let declaredVersion = media.version ?? 1
        var requirements = versionRequirements
        if let map = firstMapUse, !isMultivariant {
            if media.iFramesOnly {
                requirements.append((5, "EXT-X-MAP in an I-frames-only playlist", map.line, map.column))
            } else {
                requirements.append((6, "EXT-X-MAP in a playlist without EXT-X-I-FRAMES-ONLY", map.line, map.column))
            }
        }
        for r in requirements where r.version > declaredVersion {
            let found = media.version.map { "it declares \($0)" } ?? "EXT-X-VERSION is absent, meaning 1"
            sink.error(
                "\(r.feature) requires EXT-X-VERSION \(r.version) or higher (\(found)) (RFC 8216 §7)",
                line: r.line, column: r.column, kind: .versionTooLow)
        }
        if declaredVersion >= 6 {
            let variantTags =
                (tags.indices(named: "#EXT-X-STREAM-INF") + tags.indices(named: "#EXT-X-I-FRAME-STREAM-INF")).sorted()
            for index in variantTags where tags.value(at: index, contains: "PROGRAM-ID=") {
                sink.warning(
                    "the PROGRAM-ID attribute was removed in protocol version 6 (RFC 8216 §7): delete it",
                    line: tags.line(at: index), column: 0, kind: .structure)
            }
        }

        let content: PlaylistContent
        if isMultivariant {
            if let pending = pendingStreamInf {
                sink.error(
                    "EXT-X-STREAM-INF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            checkGroups()
            content = .multivariant(master)
        } else {
            if let pending = pendingExtinf {
                sink.error("EXTINF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            if media.targetDuration == nil, !sawTargetDuration {
                sink.error(
                    "a media playlist must contain EXT-X-TARGETDURATION (RFC 8216 §4.3.3.1)", line: 1, column: 0,
                    kind: .structure)
            }
            if let partLine = firstPartLine, media.partTarget == nil {
                sink.error(
                    "EXT-X-PART requires an EXT-X-PART-INF tag in the playlist", line: partLine, column: 1,
                    kind: .structure)
            }
            media.trailingParts = pendingParts
            finishSegments()
            content = .media(media)
        }
        sink.close()
        var playlist = Playlist(uri: uri, content: content, tagStore: tags, problems: sink.problems)
        playlist.comments = comments
        playlist.variables = variables
        playlist.requiredVersion = max(1, requirements.map(\.version).max() ?? 1)
        return playlist
    }

    /// Points the segments at the final buffer of URI bytes, and gives each its media sequence
    /// number (the base plus its index) where its context's base and delta do not already.
    mutating func finishSegments() {
        let base = sequenceBase
        let text = URIText(uriBytes.withUnsafeBufferPointer { Array($0) })
        uriBytes = []
        let limit = Int(MediaSegment.sequenceMask)
        var rebased: (old: SegmentContext, new: SegmentContext)?
        for index in media.segments.indices {
            if case .text(let pending) = media.segments[index].uriSource, pending === pendingURIText {
                media.segments[index].uriSource = .text(text)
            }
            let context = media.segments[index].context
            guard context.sequenceBase != base || index > limit else { continue }
            let sequence = base.addingReportingOverflow(index)
            if index <= limit, !sequence.overflow, sequence.partialValue <= Int.max - limit {
                // Another base than when the run began (EXT-X-MEDIA-SEQUENCE after a segment):
                // one new context per run, the delta (the index) kept.
                if rebased?.old !== context { rebased = (context, context.with(sequenceBase: base)) }
                if let rebased { media.segments[index].context = rebased.new }
            } else {
                media.segments[index].mediaSequence = sequence.overflow ? Int.max : sequence.partialValue
            }
        }
    }

    /// RFC 8216 §4.3.4.2: AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS MUST name a group of
    /// EXT-X-MEDIA tags of that type; §4.3.4.1.1: names unique and one DEFAULT per group.
    mutating func checkGroups() {
        let groups = Set(
            master.renditions.compactMap { r in r.type.flatMap { t in r.groupID.map { "\(t.rawValue)/\($0)" } } })
        for v in master.variants {
            for (name, type) in [
                ("AUDIO", MediaType.audio), ("VIDEO", .video), ("SUBTITLES", .subtitles),
                ("CLOSED-CAPTIONS", .closedCaptions),
            ] {
                guard let attr = v.attributes[name], let group = v.attributes.string(name),
                    group != "NONE" || type != .closedCaptions
                else { continue }
                if case .enumeratedString = attr.value { continue }
                if !groups.contains("\(type.rawValue)/\(group)") {
                    sink.error(
                        "EXT-X-STREAM-INF: \(name)=\"\(group)\" names no EXT-X-MEDIA group of TYPE=\(type.rawValue)",
                        line: v.line, column: attr.column, kind: .renditionGroup)
                }
            }
        }
        var names: [String: Int] = [:]
        var defaults: Set<String> = []
        for r in master.renditions {
            guard let type = r.type, let group = r.groupID else { continue }
            let key = "\(type.rawValue)/\(group)"
            if let name = r.name {
                if let first = names["\(key)/\(name)"] {
                    sink.error(
                        "EXT-X-MEDIA: NAME \"\(name)\" is used twice in group \"\(group)\" (first at line \(first))",
                        line: r.line, column: r.attributes["NAME"]?.column ?? 1, kind: .renditionGroup)
                } else {
                    names["\(key)/\(name)"] = r.line
                }
            }
            if r.isDefault {
                if defaults.contains(key) {
                    sink.error(
                        "EXT-X-MEDIA: group \"\(group)\" has more than one rendition with DEFAULT=YES",
                        line: r.line, column: r.attributes["DEFAULT"]?.column ?? 1, kind: .renditionGroup)
                }
                defaults.insert(key)
            }
        }
    }

    func looksLikeDateTime(_ text: Substring) -> Bool {
        // YYYY-MM-DD, on the first ten bytes (no copy of the value).
        var index = 0
        for u in text.utf8 {
            let ok = index == 4 || index == 7 ? u == 45 : (u >= 48 && u <= 57)
            guard ok else { return false }
            index += 1
            if index == 10 { return true }
        }
        return false
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        // On UTF-8 code units: spaces and tabs are ASCII.
        let whole = Substring(self)
        let utf8 = whole.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while start < end {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        return String(whole[start..<end])
    }
}
