@testable import HLSCheck
import HLSPlaylist
@testable import MediaFormats
import MediaInspection
import Testing

/// The compact store of measured segments gives back, field for field, the records it was given:
/// every report, rule and `hlscheck embed` reads segments through it.
@Suite struct SegmentRecordsTests {
    /// Seven segments, one of them an EXT-X-GAP (which has no record): a media sequence that
    /// does not start at 0, a discontinuity, a byte range, AES-128 and SAMPLE-AES keys.
    static let playlist = PlaylistParser.parse(
        """
        #EXTM3U
        #EXT-X-VERSION:5
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:41
        #EXTINF:6.0,
        a.ts
        #EXTINF:5.5,
        b.ts
        #EXT-X-GAP
        #EXTINF:6.0,
        gap.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-BYTERANGE:1000@0
        #EXTINF:6.0,
        c.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k.key"
        #EXTINF:6.0,
        d.ts
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k.key"
        #EXTINF:4.0,
        e.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:6.0,
        f.ts
        #EXT-X-ENDLIST
        """, uri: "/s/index.m3u8"
    ).media

    /// One record per segment that is not a gap, each field set to something its neighbours do
    /// not have, rare fields included.
    static func records(_ playlist: MediaPlaylist) -> [SegmentRecord] {
        let segments = playlist.segments.filter { !$0.gap }
        let poster = PictureFacts(
            mimeType: "image/jpeg", pictureType: 3, byteCount: 7342, contentHash: String(repeating: "ab", count: 32),
            width: 300, height: 300)
        let broken = PictureFacts(
            mimeType: "image/gif", pictureType: 0, byteCount: 10, contentHash: String(repeating: "cd", count: 32),
            decodeProblem: "not a JPEG or PNG")
        let edges = [
            TransportStreamContinuity.Edge(
                pid: 0, firstCounter: 3, firstHasPayload: true, firstSignalsDiscontinuity: false, lastCounter: 3),
            TransportStreamContinuity.Edge(
                pid: 0x100, firstCounter: 9, firstHasPayload: true, firstSignalsDiscontinuity: true, lastCounter: 14),
        ]
        let decoding = [
            TrackDecodeFacts(
                kind: .audio, codecName: "aac", frameCount: 258, failedFrameCount: 2, reasons: ["invalid band type"])
        ]
        var records = segments.map(SegmentRecords.playlistPart(of:))

        // A clear TS segment with video, a poster in a TS PES, continuity gaps and decode results.
        records[0].bytes = 412_000
        records[0].container = .mpegTS
        records[0].measuredDuration = 6.006
        records[0].codecs = ["avc1.64001f", "mp4a.40.2"]
        records[0].hasAudio = true
        records[0].hasVideo = true
        records[0].videoResolution = Resolution(width: 1280, height: 720)
        records[0].artwork = poster
        records[0].posterOverhead = 7_708
        records[0].posterLayout = .transportStream(otherTagBytes: 73)
        records[0].firstPTS = 10.0
        records[0].continuity = TransportStreamContinuity(
            errors: [ContinuityError(pid: 0x100, packetIndex: 17, expected: 4, found: 6)], errorCount: 3, edges: edges)
        records[0].videoStartsWithKeyframe = true
        records[0].keyframeHasParameterSets = false
        records[0].decoding = decoding
        records[0].trackIDs = [0x100, 0x101]
        records[0].timingDuration = 6.0
        records[0].timingStart = 10.04
        records[0].frameDuration = 0.04
        records[0].audioSampleRate = 48_000

        // The same content as the first (shared storage), other measured numbers, no gaps.
        records[1] = records[0].with { record in
            record.uri = segments[1].uri
            record.line = segments[1].extinfLine ?? segments[1].uriLine
            record.extinf = segments[1].duration
            record.mediaSequence = segments[1].mediaSequence
            record.bytes = 399_999
            record.measuredDuration = nil
            record.firstPTS = 16.006
            record.continuity = TransportStreamContinuity(edges: Array(edges.reversed()))
            record.decoding = nil
            record.timingDuration = 5.96
        }

        // Unreadable.
        records[2].problem = "is missing"

        // AES-128, decrypted: packed audio with a broken poster and no timestamp tag.
        records[3].bytes = 48_016
        records[3].decrypted = true
        records[3].container = .adts
        records[3].codecs = ["mp4a.40.5"]
        records[3].hasAudio = true
        records[3].artwork = broken
        records[3].posterOverhead = 21
        records[3].startsWithTimestampTag = false
        records[3].firstPTS = 0
        records[3].measuredDuration = 0
        records[3].decoding = []
        records[3].trackIDs = [nil]

        // fMP4 with decode spans.
        records[4].decodeSpans = [DecodeSpan(trackID: 1, timeScale: 90_000, start: 540_000, end: 1_080_000)]

        // SAMPLE-AES: bytes count, content hidden.
        records[4].bytes = 30_000
        records[4].hiddenContentReason = "METHOD=SAMPLE-AES encrypts the samples; hlscheck decrypts AES-128 only"

        // Left out by --sample.
        records[5].sampledOut = true
        return records
    }

    @Test func everyFieldReadBackIsTheOneStored() throws {
        let playlist = try #require(Self.playlist)
        let expected = Self.records(playlist)
        #expect(expected[3].encrypted && expected[4].encrypted && !expected[5].encrypted)
        var store = SegmentRecords(playlist.segments)
        #expect(store.capacity == 6)
        for record in expected { store.append(record) }
        #expect(store.count == expected.count)
        for (index, record) in expected.enumerated() {
            #expect(store[index] == record, "record \(index)")
        }
        #expect(Array(store) == expected)
        // The gap has no record: the fourth record is c.ts, after it.
        #expect(store.segment(at: 2).uri == "c.ts")
        #expect(store[2].discontinuity && store[2].mediaSequence == 44)
    }

    /// A measurement's passes read a summary of each record from the columns: what it says must
    /// be what the whole record says, for unreadable, sampled-out and encrypted segments too.
    @Test func aSummarySaysWhatTheWholeRecordSays() throws {
        let playlist = try #require(Self.playlist)
        let expected = Self.records(playlist)
        var store = SegmentRecords(playlist.segments)
        for record in expected { store.append(record) }
        for (index, record) in expected.enumerated() {
            let whole = SegmentRecords.Summary(
                extinf: record.extinf, bytes: record.bytes, posterOverhead: record.posterOverhead,
                isMeasured: record.isMeasured, isInspected: record.isInspected, hasAudio: record.hasAudio,
                hasVideo: record.hasVideo, videoFrameRate: record.videoFrameRate)
            #expect(store.summary(at: index) == whole, "record \(index)")
        }
        #expect(expected.map(\.isMeasured) == [true, true, false, true, true, false])
        #expect(expected.map(\.isInspected) == [true, true, false, true, false, false])
    }

    @Test func aMeasurementOfCompactRecordsKnowsWhatItsRecordsSay() throws {
        let playlist = try #require(Self.playlist)
        let expected = Self.records(playlist)
        var store = SegmentRecords(playlist.segments)
        for record in expected { store.append(record) }
        let measurement = PlaylistMeasurement(playlistURI: "/s/index.m3u8", playlist: playlist, records: store)
        #expect(measurement.codecs == ["avc1.64001f", "mp4a.40.2", "mp4a.40.5"])
        #expect(measurement.measuredSegmentCount == 4)
        #expect(!measurement.isComplete)
        #expect(measurement.containsVideo && measurement.containsAudio && measurement.hasInspectedSegments)
        #expect(Array(measurement.inspectedRecords) == expected.filter(\.isInspected))
        #expect(measurement.inspectedRecords.map(\.uri) == ["a.ts", "b.ts", "d.ts"])
        // Equal stores are equal measurements, whatever order their shared values were met in.
        var again = SegmentRecords(playlist.segments)
        for record in expected { again.append(record) }
        #expect(PlaylistMeasurement(playlistURI: "/s/index.m3u8", playlist: playlist, records: again) == measurement)
    }
}

extension SegmentRecord {
    fileprivate func with(_ change: (inout SegmentRecord) -> Void) -> SegmentRecord {
        var copy = self
        change(&copy)
        return copy
    }
}
