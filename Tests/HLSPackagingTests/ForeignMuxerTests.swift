import Testing
import MediaFormats
import MediaInspection
import HLSPackaging

/// Segments muxed by something else than FFmpeg. GStreamer's mpegtsmux (hlssink2) pads its PAT
/// and PMT packets with adaptation-field stuffing, so the PMT's own packet has no 0xFF room left
/// for the timed-ID3 declaration: the writer reclaims the stuffing instead of refusing.
@Suite struct ForeignMuxerTests {
    static let audioPID: UInt16 = 0x0041

    @Test func gstreamerSegmentGainsThePosterWithItsAudioUntouched() async throws {
        let original = try TestMedia.fixture("gstreamer-audio.ts")
        let pmtPID = try #require(TS.pmtPID(original))
        // What made this fixture interesting: the PMT packet is mostly adaptation-field stuffing.
        let pmtPacket = try #require(TS.packets(original).first { $0.pid == pmtPID })
        #expect(pmtPacket.hasAdaptationField && pmtPacket.payload.count < 40)

        var writer = TransportStreamPosterWriter()
        let output = try writer.rewrite(original, poster: try TestMedia.jpegPoster())
        let id3PID = try #require(writer.metadataPID)

        // Audio and PAT packets byte-identical and in order; the PMT keeps its packet count.
        #expect(TS.packets(output, excluding: [pmtPID, id3PID]) == TS.packets(original, excluding: [pmtPID]))
        #expect(TS.packets(output).count(where: { $0.pid == pmtPID }) == TS.packets(original).count(where: { $0.pid == pmtPID }))
        let section = try #require(TS.firstSection(output, pid: pmtPID))
        #expect(CRC32MPEG2.checksum(section) == 0)
        let pmt = try #require(ProgramMapSection(section[...]))
        #expect(pmt.streams.first { $0.pid == id3PID }?.streamType == 0x15)
        #expect(pmt.streams.first?.pid == Self.audioPID)
        #expect(TransportStream.continuityErrors(in: output).isEmpty)

        // libavformat sees the same audio plus the timed metadata, and the poster in it.
        let after = try await TestMedia.inspect(output, name: "seg1.ts")
        #expect(after.problem == nil)
        #expect(after.tracks.contains { $0.kind == .timedMetadata })
        #expect(after.artwork.first?.byteCount == (try TestMedia.fixture("poster.jpg")).count)
        let before = try await TestMedia.inspect(original, name: "seg1.ts")
        #expect(after.tracks.filter { $0.kind == .audio } == before.tracks.filter { $0.kind == .audio })

        // Taking the poster out again leaves the audio as GStreamer wrote it and no ID3 stream.
        var remover = TransportStreamPosterWriter()
        let removed = try remover.rewrite(output, poster: nil)
        #expect(TS.packets(removed, excluding: [pmtPID]) == TS.packets(original, excluding: [pmtPID]))
        let restored = try #require(TS.pmt(removed))
        #expect(restored.streams == (try #require(TS.pmt(original))).streams)
    }

    @Test func adaptationStuffingIsReclaimedOnlyWhenThePMTWouldNotFit() throws {
        // The FFmpeg-made sample has 0xFF room in its PMT packet: its headers stay as they were.
        let original = try TestMedia.variantSegments()[0]
        let pmtPID = try #require(TS.pmtPID(original))
        var writer = TransportStreamPosterWriter()
        let output = try writer.rewrite(original, poster: try TestMedia.jpegPoster())
        let headers = { (bytes: [UInt8]) in
            TS.packets(bytes).filter { $0.pid == pmtPID }.map { $0.hasAdaptationField }
        }
        #expect(headers(output) == headers(original))
    }
}
