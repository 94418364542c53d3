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
        #expect(
            TS.packets(output).count(where: { $0.pid == pmtPID })
                == TS.packets(original).count(where: { $0.pid == pmtPID }))
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

    /// The sample's segments with every PMT grown (a private descriptor in program_info) until
    /// the section fills its one packet: the timed-ID3 declaration cannot fit.
    static func segmentsWithAFullPMT() throws -> (segments: [[UInt8]], pmtPID: UInt16) {
        let originals = try TestMedia.variantSegments()
        let pmtPID = try #require(TS.pmtPID(originals[0]))
        var pmt = try #require(TS.pmt(originals[0]))
        let room = 183 - pmt.serialized().count  // 184 payload bytes, one of them the pointer_field
        pmt.programInfo += [0xF0, UInt8(room - 2)] + Array(repeating: 0x2A, count: room - 2)
        let section = pmt.serialized()
        #expect(section.count == 183)
        let segments = originals.map { segment -> [UInt8] in
            var copy = segment
            for offset in stride(from: 0, to: copy.count, by: 188)
            where (UInt16(copy[offset + 1] & 0x1F) << 8 | UInt16(copy[offset + 2])) == pmtPID
                && copy[offset + 1] & 0x40 != 0
            {
                copy.replaceSubrange(
                    offset..<(offset + 188),
                    with: [0x47, 0x40 | UInt8(pmtPID >> 8), UInt8(pmtPID & 0xFF), 0x10 | copy[offset + 3] & 0x0F, 0]
                        + section)
            }
            return copy
        }
        return (segments, pmtPID)
    }

    /// The PMT section on `pid`, reassembled across its packets.
    static func pmtSection(_ bytes: [UInt8], pid: UInt16) throws -> ProgramMapSection {
        let packets = TS.packets(bytes).filter { $0.pid == pid }
        let start = try #require(packets.firstIndex { $0.payloadUnitStart })
        var data = Array(packets[start].payload.dropFirst(1 + Int(packets[start].payload.first ?? 0)))
        for packet in packets[(start + 1)...] where !packet.payloadUnitStart { data += packet.payload }
        let length = 3 + (Int(data[1] & 0x0F) << 8 | Int(data[2]))
        #expect(CRC32MPEG2.checksum(Array(data.prefix(length))) == 0)
        return try #require(ProgramMapSection(data.prefix(length)))
    }

    @Test func aPMTThatOutgrowsItsPacketGetsAnotherWithCountersContinuous() async throws {
        let (segments, pmtPID) = try Self.segmentsWithAFullPMT()
        var writer = TransportStreamPosterWriter()
        let poster = try TestMedia.jpegPoster()
        let outputs = try segments.map { segment throws(PackagingError) in try writer.rewrite(segment, poster: poster) }
        let id3PID = try #require(writer.metadataPID)
        for (original, output) in zip(segments, outputs) {
            // One more packet per PMT, everything else (audio, PAT) byte-identical and in order.
            let before = TS.packets(original).count(where: { $0.pid == pmtPID })
            #expect(TS.packets(output).count(where: { $0.pid == pmtPID }) == 2 * before)
            #expect(TS.packets(output, excluding: [pmtPID, id3PID]) == TS.packets(original, excluding: [pmtPID]))
            let pmt = try Self.pmtSection(output, pid: pmtPID)
            #expect(pmt.streams.first { $0.pid == id3PID }?.streamType == 0x15)
        }
        // Continuous across the variant's segments, the PMT PID's added packets included.
        #expect(TransportStream.continuityErrors(in: segments.flatMap { $0 }).isEmpty)
        #expect(TransportStream.continuityErrors(in: outputs.flatMap { $0 }) == [])
        // libavformat reads the program with its new stream and finds the poster.
        let facts = try await TestMedia.inspect(outputs[1], name: "seg1.ts")
        #expect(facts.problem == nil)
        #expect(facts.tracks.contains { $0.kind == .timedMetadata })
        #expect(facts.artwork.count == 1)
    }
}
