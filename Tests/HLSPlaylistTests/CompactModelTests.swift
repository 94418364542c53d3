import HLSPlaylist
import Testing

/// The media-playlist model is stored compactly: shared key/map/bitrate, packed
/// program date-times, tags as records over one buffer. What a caller reads and writes must be
/// what it was when every field was stored as is.
@Suite("Compact playlist model")
struct CompactModelTests {
    static let playlist = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:4
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="k1.key"
        #EXT-X-PROGRAM-DATE-TIME:2022-06-10T03:31:00.189Z
        #EXTINF:4,first
        a.mp4
        #EXT-X-PROGRAM-DATE-TIME:2022-06-10T03:31:04Z
        #EXT-X-CUE-OUT:30
        #EXTINF:4,
        b.mp4
        #EXT-X-KEY:METHOD=AES-128,URI="k2.key"
        #EXT-X-PROGRAM-DATE-TIME:2022-06-10T03:31:08.5+02:00
        #EXT-X-BYTERANGE:100@0
        #EXTINF:4,
        c.mp4
        #EXT-X-PROGRAM-DATE-TIME:2022-06-10T03:31:1x.000Z
        #EXTINF:4,
        d.mp4
        #EXT-X-CUE-OUT:cafés
        #EXT-X-ENDLIST
        """

    @Test func segmentsReadAsWritten() throws {
        let p = PlaylistParser.parse(Self.playlist, uri: "p.m3u8")
        let segments = try #require(p.media?.segments)
        #expect(segments.count == 4)
        // Packed and unpacked date-times come back exactly as written.
        #expect(
            segments.map(\.programDateTime) == [
                "2022-06-10T03:31:00.189Z", "2022-06-10T03:31:04Z", "2022-06-10T03:31:08.5+02:00",
                "2022-06-10T03:31:1x.000Z",
            ])
        #expect(segments.map(\.title) == ["first", nil, nil, nil])
        #expect(segments.map(\.key?.uri) == ["k1.key", "k1.key", "k2.key", "k2.key"])
        #expect(segments.allSatisfy { $0.map?.uri == "init.mp4" })
        #expect(segments[2].byteRange == ByteRange(length: 100, offset: 0) && segments[3].byteRange == nil)
    }

    @Test func settingAFieldChangesOnlyThatSegment() throws {
        var segments = try #require(PlaylistParser.parse(Self.playlist, uri: "p.m3u8").media?.segments)
        let untouched = segments[1]
        segments[0].key = nil
        segments[0].bitrate = 800
        segments[0].title = "renamed"
        segments[0].programDateTime = "2030-01-01T00:00:00.000Z"
        #expect(segments[0].key == nil && segments[0].map?.uri == "init.mp4" && segments[0].bitrate == 800)
        #expect(segments[0].title == "renamed" && segments[0].programDateTime == "2030-01-01T00:00:00.000Z")
        #expect(segments[1] == untouched && segments[1].key?.uri == "k1.key" && segments[1].bitrate == nil)
        // Equal values are equal however they were made (parsed, or set field by field).
        var made = MediaSegment(uri: "b.mp4", uriLine: 12, duration: 4, mediaSequence: 1)
        made.extinfLine = 11
        made.programDateTime = "2022-06-10T03:31:04Z"
        made.map = untouched.map
        made.key = untouched.key
        #expect(made == untouched && made.hashValue == untouched.hashValue)
    }

    @Test func tagsAreKeptAsWritten() throws {
        let p = PlaylistParser.parse(Self.playlist, uri: "p.m3u8")
        #expect(p.tags.count == 18)
        #expect(p.tags.first == Tag(name: "#EXTM3U", value: nil, line: 1))
        #expect(p.tags.contains(Tag(name: "#EXT-X-CUE-OUT", value: "30", line: 10)))
        #expect(p.tags.contains(Tag(name: "#EXT-X-CUE-OUT", value: "cafés", line: 21)))
        #expect(p.tags.contains(Tag(name: "#EXT-X-PROGRAM-DATE-TIME", value: "2022-06-10T03:31:00.189Z", line: 6)))
        #expect(p.tagLines(named: "#EXT-X-CUE-OUT") == [10, 21])
        #expect(p.tagLines(named: "#EXT-X-KEY") == [5, 13])
        #expect(p.tagLines(named: "#EXT-X-NOPE").isEmpty)
        // Replacing the tags replaces what every accessor sees.
        var edited = p
        edited.tags = [
            Tag(name: "#EXTM3U", value: nil, line: 1), Tag(name: "#EXT-X-KEY", value: "METHOD=NONE", line: 2),
        ]
        #expect(edited.tagLines(named: "#EXT-X-KEY") == [2] && edited.tags.count == 2 && edited != p)
    }

    /// Fields kept as deltas or bits (lines, media sequence, flags) hold any value a caller sets,
    /// and the rest of the segment stays as it was.
    @Test func compactFieldsHoldAnyValue() throws {
        var segment = MediaSegment(uri: "a.ts", uriLine: 10, duration: 6, mediaSequence: 5)
        segment.extinfLine = 9
        for (uriLine, extinfLine) in [
            (10, 9), (100_000, 1), (Int(UInt32.max) + 7, Int(UInt32.max) + 6), (3, 7), (12, nil), (Int.max, 0),
        ] {
            segment.uriLine = uriLine
            segment.extinfLine = extinfLine
            #expect(segment.uriLine == uriLine && segment.extinfLine == extinfLine)
        }
        for sequence in [0, 5, 16_777_215 + 5, -3, Int.max, Int.min, 42] {
            segment.mediaSequence = sequence
            #expect(segment.mediaSequence == sequence)
        }
        segment.discontinuity = true
        segment.uriLine = 20
        #expect(segment.discontinuity && !segment.gap && segment.uriLine == 20 && segment.extinfLine == 0)
        #expect(segment.uri == "a.ts" && segment.duration == 6 && segment.mediaSequence == 42)
        segment.uri = "b c.ts"
        #expect(segment.uri == "b c.ts")
    }

    /// URIs read back exactly as written (after substitution), numbered or not, ASCII or not; the
    /// media sequence counts from EXT-X-MEDIA-SEQUENCE even when that tag comes late.
    @Test func urisAndSequenceNumbersReadBackAsWritten() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:4
            #EXT-X-DEFINE:NAME="dir",VALUE="media"
            #EXTINF:4,
            seg-1.ts
            #EXTINF:4,
            seg-2.ts
            #EXTINF:4,
            {$dir}/seg-3.ts
            #EXTINF:4,
            café.ts
            #EXT-X-MEDIA-SEQUENCE:700
            #EXTINF:4,
            random-ab12.ts
            #EXTINF:4,
            https://cdn.example/x.ts?token=abc
            """
        let p = PlaylistParser.parse(text, uri: "p.m3u8")
        let segments = try #require(p.media?.segments)
        #expect(
            segments.map(\.uri) == [
                "seg-1.ts", "seg-2.ts", "media/seg-3.ts", "café.ts", "random-ab12.ts",
                "https://cdn.example/x.ts?token=abc",
            ])
        #expect(segments.map(\.mediaSequence) == [700, 701, 702, 703, 704, 705])
        #expect(segments.map(\.extinfLine) == [5, 7, 9, 11, 14, 16])
    }

    @Test func aTagValueLongerThanTheCompactLengthIsKeptWhole() {
        let long = String(repeating: "A", count: 70_000)
        let p = PlaylistParser.parse("#EXTM3U\n#EXT-X-VENDOR:\(long)\n#EXT-X-TARGETDURATION:4\n", uri: "p.m3u8")
        #expect(p.tags.map(\.value) == [nil, long, "4"])
    }

    @Test func aSegmentIsSmallInline() {
        // Was 272 bytes with the key, the map and the byte range stored in each segment, then 96.
        #expect(MemoryLayout<MediaSegment>.stride <= 48)
    }
}
