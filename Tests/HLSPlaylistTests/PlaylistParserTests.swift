import HLSPlaylist
import Testing

private func parse(_ text: String, imported: [String: String] = [:], query: [String: String] = [:]) -> Playlist {
    PlaylistParser.parse(text, uri: "test.m3u8", importedVariables: imported, queryParameters: query)
}

/// The problem at `line`, whose message contains `text`.
private func problem(_ p: Playlist, line: Int, _ text: String) -> PlaylistProblem? {
    p.problems.first { $0.location.line == line && $0.message.contains(text) }
}

@Suite("Parser: multivariant playlists")
struct MultivariantParsingTests {
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.4d401f, mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970,AUDIO="aac",CLOSED-CAPTIONS="cc",HDCP-LEVEL=NONE,VIDEO-RANGE=SDR
        video/720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2",AUDIO="aac",CLOSED-CAPTIONS=NONE
        audio/only.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="iframe.m3u8",CODECS="avc1.4d401f",RESOLUTION=640x360
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title",LANGUAGE="en"
        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer/x.json",PATHWAY-ID="CDN-A"
        #EXT-X-START:TIME-OFFSET=-10.5,PRECISE=YES
        """

    @Test func parsesEveryMultivariantTag() throws {
        let p = parse(Self.multivariant)
        #expect(p.problems.isEmpty, "\(p.problems)")
        let m = try #require(p.multivariant)
        #expect(m.version == 7)
        #expect(m.independentSegments)
        #expect(m.variants.count == 2)
        let v = m.variants[0]
        #expect(v.uri == "video/720.m3u8" && v.line == 6 && v.uriLine == 7)
        #expect(v.bandwidth == 1_280_000 && v.averageBandwidth == 1_000_000)
        #expect(v.codecs == ["avc1.4d401f", "mp4a.40.2"])
        #expect(v.resolution == Resolution(width: 1280, height: 720))
        #expect(v.frameRate == 29.97)
        #expect(
            v.audioGroup == "aac" && v.closedCaptionsGroup == "cc" && v.hdcpLevel == "NONE" && v.videoRange == "SDR")
        #expect(m.variants[1].closedCaptionsNone && m.variants[1].closedCaptionsGroup == nil)
        #expect(m.renditions.count == 2)
        let audio = m.renditions(ofType: .audio, group: "aac")
        #expect(audio.first?.uri == "audio/en.m3u8" && audio.first?.isDefault == true && audio.first?.channels == "2")
        #expect(m.renditions[1].instreamID == "CC1")
        #expect(m.iFrameVariants.first?.uri == "iframe.m3u8" && m.iFrameVariants.first?.bandwidth == 86000)
        #expect(m.sessionData.first?.value == "Title")
        #expect(m.sessionKeys.first?.method == "SAMPLE-AES" && m.sessionKeys.first?.keyFormatVersions == "1")
        #expect(m.contentSteering?.pathwayID == "CDN-A")
        #expect(m.start?.timeOffset == -10.5 && m.start?.precise == true)
        #expect(p.tags.count == 12)
    }

    @Test func rejectsStreamInfWithoutBandwidth() throws {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\na.m3u8\n")
        let found = try #require(problem(p, line: 2, "EXT-X-STREAM-INF is missing the required BANDWIDTH attribute"))
        #expect(found.severity == .error && found.kind == .structure && found.location.column == 1)
    }

    @Test func rejectsResolutionWithoutHeight() throws {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1280\na.m3u8\n")
        let found = try #require(problem(p, line: 2, "attribute RESOLUTION: expected WIDTHxHEIGHT, found \"1280\""))
        #expect(found.location.column == 31)
    }

    @Test func rejectsStreamInfWithoutURILine() {
        let p = parse(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=3\n"
        )
        #expect(problem(p, line: 2, "not followed by a URI line") != nil)
        #expect(problem(p, line: 5, "not followed by a URI line") != nil)
        #expect(p.multivariant?.variants.map(\.uri) == ["b.m3u8"])
    }

    @Test func rejectsDuplicateAttribute() throws {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2\na.m3u8\n")
        let found = try #require(problem(p, line: 2, "attribute BANDWIDTH appears more than once"))
        #expect(found.location.column == 31)
        #expect(p.multivariant?.variants.first?.bandwidth == 1)
    }

    @Test func enforcesMediaRequirements() {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,NAME="x"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="c",URI="cc.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="missing"
            a.m3u8
            """)
        #expect(problem(p, line: 2, "EXT-X-MEDIA is missing the required GROUP-ID attribute") != nil)
        #expect(problem(p, line: 3, "missing the required INSTREAM-ID") != nil)
        #expect(problem(p, line: 3, "must not have a URI attribute")?.location.column == 58)
        #expect(problem(p, line: 4, "AUDIO=\"missing\" names no EXT-X-MEDIA group") != nil)
    }

    @Test func instreamIDOnAnAudioRenditionNeedsVersion13NotCaptions() {
        let rendition = "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",INSTREAM-ID=\"1\",URI=\"a.m3u8\"\n"
        let current = parse("#EXTM3U\n#EXT-X-VERSION:13\n" + rendition)
        #expect(current.problems.isEmpty, "\(current.problems)")
        let older = parse("#EXTM3U\n#EXT-X-VERSION:7\n" + rendition)
        #expect(older.problems.map(\.kind) == [.versionTooLow], "\(older.problems)")
        #expect(
            problem(older, line: 3, "INSTREAM-ID on a rendition other than CLOSED-CAPTIONS requires EXT-X-VERSION 13")
                != nil)
    }

    @Test func requiresIFrameStreamURIAndBandwidth() {
        let p = parse("#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:CODECS=\"avc1.4d401f\"\n")
        #expect(problem(p, line: 2, "missing the required URI") != nil)
        #expect(problem(p, line: 2, "missing the required BANDWIDTH") != nil)
    }

    @Test func reportsMixedPlaylistKinds() throws {
        let p = parse(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n#EXT-X-TARGETDURATION:6\n"
        )
        #expect(p.multivariant != nil)
        let found = try #require(problem(p, line: 6, "cannot appear in a multivariant playlist"))
        #expect(found.kind == .structure)
    }

    @Test func warnsAboutUnknownAttribute() {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWITH=1\na.m3u8\n")
        #expect(problem(p, line: 2, "unknown attribute BANDWITH")?.severity == .warning)
    }
}

@Suite("Parser: media playlists")
struct MediaParsingTests {
    @Test func parsesSegmentsAndTheirTags() throws {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:3
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x000102030405060708090A0B0C0D0E0F
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00.000Z
            #EXT-X-BITRATE:800
            #EXTINF:5.005,first title
            seg1.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-GAP
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6,
            seg2.m4s
            #EXT-X-DATERANGE:ID="ad",START-DATE="2024-01-01T00:00:00Z",DURATION=30.0,SCTE35-OUT=0xFC30
            #EXT-X-CUE-OUT:30
            #EXT-X-ENDLIST
            """)
        #expect(p.problems.isEmpty, "\(p.problems)")
        let m = try #require(p.media)
        #expect(
            m.targetDuration == 6 && m.mediaSequence == 100 && m.discontinuitySequence == 3 && m.playlistType == .vod
                && m.endList)
        #expect(m.segments.count == 2)
        let s1 = m.segments[0], s2 = m.segments[1]
        #expect(
            s1.duration == 5.005 && s1.title == "first title" && s1.mediaSequence == 100 && s1.extinfLine == 11
                && s1.uriLine == 12)
        #expect(
            s1.map == MediaInitializationSection(line: 7, uri: "init.mp4", byteRange: ByteRange(length: 720, offset: 0))
        )
        #expect(s1.key?.method == "AES-128" && s1.key?.iv?.count == 16)
        #expect(s1.programDateTime == "2024-01-01T00:00:00.000Z" && s1.bitrate == 800)
        #expect(s2.discontinuity && s2.gap && s2.key == nil && s2.mediaSequence == 101)
        #expect(m.dateRanges.first?.id == "ad")
        #expect(m.dateRanges.first?.attributes.hexadecimalSequence("SCTE35-OUT") == [0xFC, 0x30])
        #expect(p.tags.contains { $0.name == "#EXT-X-CUE-OUT" && $0.value == "30" && $0.line == 19 })
        #expect(abs(m.totalDuration - 11.005) < 1e-9)
    }

    @Test func aDateRangeContinuingAnEarlierIDMayLeaveOutStartDate() {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",START-DATE="2024-01-01T00:00:00Z",PLANNED-DURATION=30
            #EXTINF:6,
            seg1.ts
            #EXT-X-DATERANGE:ID="ad",DURATION=30
            #EXT-X-DATERANGE:ID="other",DURATION=5
            #EXTINF:6,
            seg2.ts
            """)
        // Line 8 adds DURATION to the range of line 5; line 9 names a range nothing started.
        #expect(p.problems.filter { $0.message.contains("no START-DATE") }.map(\.location.line) == [9], "\(p.problems)")
    }

    @Test func resolvesOmittedByteRangeOffsets() throws {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@500
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:2000
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:300
            a.ts
            """)
        #expect(p.problems.isEmpty, "\(p.problems)")
        #expect(
            p.media?.segments.map(\.byteRange) == [
                ByteRange(length: 1000, offset: 500), ByteRange(length: 2000, offset: 1500),
                ByteRange(length: 300, offset: 3500),
            ])
    }

    @Test func rejectsOffsetlessByteRangeAfterAnotherResource() throws {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXTINF:10,\n#EXT-X-BYTERANGE:50\nb.ts\n"
        )
        let found = try #require(problem(p, line: 8, "previous media segment is not a sub-range of b.ts"))
        #expect(found.location.column == 18)
    }

    @Test func parsesLowLatencyTags() throws {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=24.0
            #EXT-X-PART-INF:PART-TARGET=0.33334
            #EXT-X-SKIP:SKIPPED-SEGMENTS=10
            #EXT-X-PART:DURATION=0.33334,URI="p1.mp4",INDEPENDENT=YES,BYTERANGE="100@0"
            #EXT-X-PART:DURATION=0.33334,URI="p1.mp4",BYTERANGE="200"
            #EXTINF:0.66668,
            s1.mp4
            #EXT-X-PART:DURATION=0.33334,URI="p2.mp4"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p3.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=11,LAST-PART=2
            """)
        #expect(p.problems.isEmpty, "\(p.problems)")
        let m = try #require(p.media)
        #expect(m.partTarget == 0.33334 && m.skippedSegments == 10)
        #expect(m.serverControl?.string("CAN-BLOCK-RELOAD") == "YES")
        #expect(m.segments.first?.mediaSequence == 10)
        #expect(
            m.segments.first?.parts.map(\.byteRange) == [
                ByteRange(length: 100, offset: 0), ByteRange(length: 200, offset: 100),
            ])
        #expect(m.segments.first?.parts.first?.independent == true)
        #expect(m.trailingParts.map(\.uri) == ["p2.mp4"])
        #expect(m.preloadHints.count == 1 && m.renditionReports.first?.decimalInteger("LAST-MSN") == 11)
    }

    @Test func requiresTargetDuration() throws {
        let p = parse("#EXTM3U\n#EXTINF:10,\na.ts\n")
        let found = try #require(p.problems.first { $0.message.contains("must contain EXT-X-TARGETDURATION") })
        #expect(found.severity == .error && found.location.line == 1)
    }

    @Test func rejectsExtinfWithoutURI() {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n#EXTINF:10,\na.ts\n#EXTINF:5,\n")
        #expect(problem(p, line: 3, "EXTINF is not followed by a URI line") != nil)
        #expect(problem(p, line: 6, "EXTINF is not followed by a URI line") != nil)
        #expect(p.media?.segments.count == 1)
    }

    @Test func rejectsURIWithoutExtinf() throws {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\nJUNK\n")
        let found = try #require(problem(p, line: 3, "is not preceded by #EXTINF"))
        #expect(found.location.column == 1)
    }

    @Test func rejectsRepeatedSingletonTag() {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-TARGETDURATION:10\n")
        #expect(problem(p, line: 3, "EXT-X-TARGETDURATION must not appear more than once (first at line 2)") != nil)
    }

    @Test func reportsHugeNumbersWithoutTrapping() {
        let p = parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:99999999999999999999999\n#EXT-X-MEDIA-SEQUENCE:18446744073709551615\n")
        #expect(problem(p, line: 2, "is out of range (hlscheck accepts 0 to 1000000 seconds)") != nil)
        #expect(problem(p, line: 3, "is out of range (hlscheck accepts 0 to 9007199254740991)") != nil)
        #expect(p.media?.targetDuration == nil)
        #expect(p.media?.mediaSequence == 0)
    }

    @Test func rejectsKeyWithoutURI() {
        let p = parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128\n#EXT-X-KEY:URI=\"k\"\n#EXT-X-KEY:METHOD=NONE,URI=\"k\"\n"
        )
        #expect(problem(p, line: 3, "EXT-X-KEY is missing the required URI attribute") != nil)
        #expect(problem(p, line: 4, "EXT-X-KEY is missing the required METHOD attribute") != nil)
        #expect(problem(p, line: 5, "METHOD=NONE must not have other attributes")?.location.column == 24)
    }

    @Test func requiresMapURIAndDateRangeID() {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:10\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n#EXT-X-DATERANGE:START-DATE=\"2024-01-01T00:00:00Z\"\n"
        )
        #expect(problem(p, line: 4, "EXT-X-MAP is missing the required URI attribute") != nil)
        #expect(problem(p, line: 5, "EXT-X-DATERANGE is missing the required ID attribute") != nil)
    }

    @Test func acceptsCommalessExtinfWithWarning() throws {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10\na.ts\n")
        #expect(try #require(problem(p, line: 3, "a comma must follow the duration")).severity == .warning)
        #expect(p.errors.isEmpty)
        #expect(p.media?.segments.first?.duration == 10)
    }

    @Test func rejectsNegativeDuration() {
        let p = parse("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:-1,\na.ts\n")
        #expect(problem(p, line: 4, "must not be negative")?.location.column == 9)
    }
}

@Suite("Parser: EXT-X-VERSION (RFC 8216 §7)")
struct VersionTests {
    @Test(
        "features that need a higher version",
        arguments: [
            ("#EXTINF:9.5,\na.ts", 3, "decimal-floating-point EXTINF"),
            ("#EXT-X-BYTERANGE:10@0\n#EXTINF:9,\na.ts", 4, "EXT-X-BYTERANGE"),
            ("#EXT-X-I-FRAMES-ONLY\n#EXTINF:9,\na.ts", 4, "EXT-X-I-FRAMES-ONLY"),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"identity\"\n#EXTINF:9,\na.ts", 5, "KEYFORMAT"),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x000102030405060708090A0B0C0D0E0F\n#EXTINF:9,\na.ts", 2, "IV"),
            ("#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:9,\na.ts", 6, "EXT-X-MAP"),
        ])
    func versionTooLow(_ body: String, _ version: Int, _ feature: String) throws {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n" + body + "\n")
        let found = try #require(p.problems.first { $0.kind == .versionTooLow })
        #expect(found.message.contains(feature) && found.message.contains("requires EXT-X-VERSION \(version)"))
        #expect(found.location.line == 3)
        let fixed = parse("#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:10\n" + body + "\n")
        #expect(!fixed.problems.contains { $0.kind == .versionTooLow })
    }
}

@Suite("Parser: attribute types")
struct AttributeTypeTests {
    @Test(
        "malformed values are located at the attribute",
        arguments: [
            ("BANDWIDTH=12.5", "attribute BANDWIDTH: expected a decimal integer, found \"12.5\""),
            ("BANDWIDTH=1,FRAME-RATE=abc", "attribute FRAME-RATE: expected a decimal number"),
            ("BANDWIDTH=1,RESOLUTION=axb", "expected WIDTHxHEIGHT"),
            ("BANDWIDTH=1,HDCP-LEVEL=\"TYPE-0\"", "expected an enumerated string without quotes"),
            ("BANDWIDTH=1,CODECS=\"avc1", "quoted string is not terminated"),
            ("BANDWIDTH=1,AUDIO", "has no value"),
            ("BANDWIDTH=99999999999999999999999", "too large"),
        ])
    func malformedValue(_ attributes: String, _ message: String) throws {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\na.m3u8\n")
        let found = try #require(problem(p, line: 2, message), "\(p.problems)")
        #expect(found.location.column > 18)
    }

    @Test func typedValues() throws {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xABCDEF00112233445566778899AABBCC\n#EXT-X-START:TIME-OFFSET=-2.5\n#EXTINF:1,\na.ts\n"
        )
        #expect(p.problems.isEmpty, "\(p.problems)")
        #expect(p.media?.segments.first?.key?.iv?.first == 0xAB)
        #expect(p.media?.start?.timeOffset == -2.5)
    }

    @Test func decimalIntegerBoundary() {
        // The grammar's boundary (RFC 8216 §4.2) holds for attributes nothing computes with.
        let max = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,PROGRAM-ID=18446744073709551615\na.m3u8\n")
        #expect(max.errors.isEmpty)
        #expect(max.multivariant?.variants.first?.attributes.decimalInteger("PROGRAM-ID") == UInt64.max)
        let over = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,PROGRAM-ID=18446744073709551616\na.m3u8\n")
        #expect(!over.errors.isEmpty)
    }
}

@Suite("Parser: tolerance")
struct ToleranceTests {
    static let plain = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXT-X-ENDLIST\n"

    @Test(
        "accepted without a problem",
        arguments: [
            ("CRLF", plain.replacingOccurrences(of: "\n", with: "\r\n")),
            ("blank lines", plain.replacingOccurrences(of: "\n", with: "\n\n")),
            ("no trailing newline", String(plain.dropLast())),
            ("trailing whitespace", plain.replacingOccurrences(of: "\n", with: "  \n")),
            ("comments", plain.replacingOccurrences(of: "#EXTINF", with: "# a comment\n#EXTINF")),
        ])
    func accepted(_ name: String, _ text: String) throws {
        let p = parse(text)
        #expect(p.problems.isEmpty, "\(name): \(p.problems)")
        let m = try #require(p.media)
        #expect(m.segments.map(\.uri) == ["a.ts"] && m.endList)
    }

    /// RFC 8216 §4.1: no BOM. Read past (players do), with a warning at line 1.
    @Test func byteOrderMarkIsReadPastWithAWarning() throws {
        let p = parse("\u{FEFF}" + Self.plain)
        let found = try #require(problem(p, line: 1, "byte order mark"))
        #expect(found.severity == .warning && found.location.column == 1)
        #expect(p.problems.count == 1)
        #expect(p.media?.segments.map(\.uri) == ["a.ts"])
    }

    @Test func leadingWhitespaceIsAWarning() {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n  #EXTINF:10,\na.ts\n")
        #expect(p.errors.isEmpty)
        #expect(problem(p, line: 3, "whitespace")?.severity == .warning)
        #expect(p.media?.segments.count == 1)
    }

    @Test func spacesInAttributeListAreWarnings() {
        let p = parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1, CODECS=\"mp4a.40.2\"\na.m3u8\n")
        #expect(p.errors.isEmpty)
        #expect(p.multivariant?.variants.first?.codecs == ["mp4a.40.2"])
    }

    @Test func missingHeader() throws {
        let p = parse("#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n")
        let found = try #require(problem(p, line: 1, "must start with #EXTM3U"))
        #expect(found.severity == .error && found.location.column == 1)
        #expect(p.media?.segments.count == 1)
    }

    @Test func emptyAndBinaryInputNeverCrash() {
        #expect(!PlaylistParser.parse([UInt8](), uri: "e").problems.isEmpty)
        let binary = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        #expect(!PlaylistParser.parse(binary, uri: "b").problems.isEmpty)
        let garbage =
            "#EXTM3U\n#EXT-X-STREAM-INF:,,,=,\"\"\"=\n#EXT-X-BYTERANGE:@@\n#EXTINF:,\n#EXT-X-KEY:\n#EXT-X-MAP:URI=\n{$\n"
        #expect(!parse(garbage).problems.isEmpty)
    }

    /// Speed at scale is measured by `make bench` (part 50-playlist-scale), not here: this pins
    /// what a long playlist parses to, first and last segment included.
    @Test func largeInputKeepsEverySegmentInOrder() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n"
        for i in 0..<20000 { text += "#EXTINF:10,\nseg\(i).ts\n" }
        let media = try #require(parse(text).media)
        #expect(media.segments.count == 20000)
        #expect(media.segments.first?.uri == "seg0.ts" && media.segments.last?.uri == "seg19999.ts")
        #expect(media.segments.last?.uriLine == 4 + 2 * 19999)
    }
}

@Suite("Parser: variables (rfc8216bis §4.3)")
struct VariableTests {
    @Test func substitutesInURIsAndQuotedStrings() throws {
        let p = parse(
            """
            #EXTM3U
            #EXT-X-VERSION:11
            #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example"
            #EXT-X-DEFINE:IMPORT="token"
            #EXT-X-DEFINE:QUERYPARAM="session"
            #EXT-X-TARGETDURATION:10
            #EXT-X-MAP:URI="{$host}/init.mp4"
            #EXTINF:10,
            {$host}/a.ts?t={$token}&s={$session}
            """, imported: ["token": "abc"], query: ["session": "42"])
        #expect(p.problems.isEmpty, "\(p.problems)")
        let m = try #require(p.media)
        #expect(m.segments.first?.uri == "https://cdn.example/a.ts?t=abc&s=42")
        #expect(m.segments.first?.map?.uri == "https://cdn.example/init.mp4")
        #expect(m.definitions.count == 3)
        #expect(p.variables["host"] == "https://cdn.example")
    }

    @Test func rejectsUndefinedVariable() throws {
        let p = parse("#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n{$nope}/a.ts\n")
        let found = try #require(problem(p, line: 5, "variable {$nope} is not defined"))
        #expect(found.kind == .variable && found.severity == .error)
    }

    /// bis-22 §8: QUERYPARAM came with protocol version 11.
    @Test func rejectsQueryParameterBelowVersion11() {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:QUERYPARAM=\"s\"\n#EXT-X-TARGETDURATION:10\n", query: ["s": "1"])
        let found = problem(p, line: 3, "requires EXT-X-VERSION 11")
        #expect(found?.kind == .versionTooLow)
    }

    /// bis-22 §4.4.2.3: a variable's value cannot hold what a quoted-string cannot.
    @Test func rejectsQueryParameterThatDecodesToAQuote() {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:11\n#EXT-X-DEFINE:QUERYPARAM=\"s\"\n#EXT-X-TARGETDURATION:10\n",
            query: ["s": "a%22b"])
        #expect(problem(p, line: 3, "double quote")?.severity == .error)
        let clean = parse(
            "#EXTM3U\n#EXT-X-VERSION:11\n#EXT-X-DEFINE:QUERYPARAM=\"s\"\n#EXT-X-TARGETDURATION:10\n",
            query: ["s": "a%20b"])
        #expect(clean.problems.isEmpty, "\(clean.problems)")
    }

    @Test func rejectsImportMissingFromMultivariant() {
        let p = parse(
            "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"x\"\n#EXT-X-TARGETDURATION:10\n", imported: ["y": "1"])
        #expect(problem(p, line: 3, "IMPORT of x")?.severity == .error)
    }
}

@Suite("Parser: hostile input")
struct HostileInputTests {
    /// Every truncation and a deterministic set of byte corruptions of a playlist that uses most
    /// tags: the parser must return (no trap, no hang) and locate every problem on a real line.
    @Test func corruptedPlaylistsNeverCrash() {
        let seed = Array(
            (MultivariantParsingTests.multivariant
                + "\n#EXT-X-BYTERANGE:10@5\n#EXTINF:1.5,t\n{$v}a.ts\n#EXT-X-PART:DURATION=1,URI=\"p\",BYTERANGE=\"5\"\n")
                .utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let specials: [UInt8] = [
            0x22, 0x2C, 0x3D, 0x3A, 0x40, 0x0A, 0x0D, 0x00, 0xFF, 0x2D, 0x78, 0x7B, 0x24, 0x7D, 0x39,
        ]
        var inputs: [[UInt8]] = stride(from: 0, to: seed.count, by: 7).map { Array(seed[..<$0]) }
        for _ in 0..<300 {
            var bytes = seed
            for _ in 0..<(1 + next() % 4) {
                bytes[next() % bytes.count] = specials[next() % specials.count]
            }
            inputs.append(bytes)
        }
        for bytes in inputs {
            let p = PlaylistParser.parse(bytes, uri: "fuzz")
            let lines = bytes.filter { $0 == 0x0A }.count + 1
            #expect(p.problems.allSatisfy { $0.location.line >= 1 && $0.location.line <= lines })
        }
    }
}

@Suite("Parser: repeated problems")
struct RepeatedProblemTests {
    @Test func commalessExtinfIsReportedOnce() throws {
        let p = parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10\na.ts\n#EXTINF:10\nb.ts\n#EXTINF:10\nc.ts\n")
        let found = try #require(p.problems.first)
        #expect(p.problems.count == 1)
        #expect(found.location.line == 3 && found.message.contains("2 more EXTINF tags"))
        #expect(p.media?.segments.count == 3)
    }
}
