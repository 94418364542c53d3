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
    var multivariant = MultivariantPlaylist()
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
