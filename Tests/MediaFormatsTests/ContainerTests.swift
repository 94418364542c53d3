import Testing
@testable import MediaFormats

/// A minimal TS: PAT, PMT (AAC PID 0x101, timed ID3 PID 0x102), then the given packets.
func buildTransportStream(id3Packets: [UInt8], ccStart: UInt8 = 0) -> [UInt8] {
    var patCC: UInt8 = 0, pmtCC: UInt8 = 0
    let pat = TransportStream.sectionPackets(
        ProgramAssociationSection.serialized(programs: [(1, 0x100)]), pid: 0, continuityCounter: &patCC)
    let pmt = ProgramMapSection(
        programNumber: 1, pcrPID: 0x101,
        programInfo: TimedID3Descriptors.metadataPointer(programNumber: 1),
        streams: [
            ElementaryStreamInfo(streamType: 0x0F, pid: 0x101),
            ElementaryStreamInfo(streamType: 0x15, pid: 0x102, descriptors: TimedID3Descriptors.metadata),
        ])
    let pmtPackets = TransportStream.sectionPackets(pmt.serialized(), pid: 0x100, continuityCounter: &pmtCC)
    return pat + pmtPackets + id3Packets
}

func adtsFrame(payloadLength: Int) -> [UInt8] {
    let length = 7 + payloadLength
    // MPEG-4, no CRC, AAC LC (profile 1), 48 kHz (index 3), 2 channels.
    return [
        0xFF, 0xF1, 0x4C, 0x80 | UInt8((length >> 11) & 0x03), UInt8((length >> 3) & 0xFF),
        UInt8((length & 0x07) << 5) | 0x1F, 0xFC,
    ]
        + [UInt8](repeating: 0x21, count: payloadLength)
}

@Suite("Finding ID3 in containers")
struct ContainerTests {
    let poster = ID3Tag(
        majorVersion: 4,
        frames: [
            TransportStreamTimestamp.makeFrame(pts90k: 123_456),
            .attachedPicture(AttachedPicture(mimeType: "image/jpeg", data: [UInt8](repeating: 0xAB, count: 1000))),
        ])

    @Test("a TS built with our packetiser yields the tag, its PTS, and clean continuity")
    func extractsFromBuiltTransportStream() throws {
        var cc: UInt8 = 14
        let first = TransportStream.timedID3Packets(
            tag: poster.serialized(), pts90k: 8_589_934_591, pid: 0x102, continuityCounter: &cc)
        let second = TransportStream.timedID3Packets(
            tag: ID3Tag(frames: [.text(id: "TIT2", value: "next")]).serialized(),
            pts90k: 900_000, pid: 0x102, continuityCounter: &cc)
        #expect(first.count == (poster.serialized().count + 14 + 183) / 184 * 188)
        let ts = buildTransportStream(id3Packets: first + second)
        #expect(EmbeddedID3.sniffContainer(ts[...]) == .mpegTS)
        let found = EmbeddedID3.tags(in: ts, container: .mpegTS)
        #expect(found.map(\.offset) == [376, 376 + first.count])
        #expect(found.map(\.pts90k) == [8_589_934_591, 900_000])
        #expect(found.first?.tag == poster)
        #expect(found.last?.tag?.frames == [.text(id: "TIT2", value: "next")])
        #expect(TransportStream.continuityErrors(in: ts).isEmpty)
    }

    @Test("a tag over 64 KiB travels in an unbounded PES (PES_packet_length 0)")
    func extractsUnboundedPES() throws {
        let big = ID3Tag(frames: [
            .attachedPicture(AttachedPicture(mimeType: "image/png", data: [UInt8](repeating: 7, count: 70_000)))
        ])
        let pes = PESPacket.build(streamID: 0xBD, pts90k: 42, payload: big.serialized())
        #expect(pes[4] == 0 && pes[5] == 0)
        var cc: UInt8 = 0
        let found = EmbeddedID3.tags(
            in: buildTransportStream(
                id3Packets: TransportStream.packetize(pes: pes, pid: 0x102, continuityCounter: &cc)), container: .mpegTS
        )
        #expect(found.count == 1)
        #expect(found.first?.tag == big)
        #expect(found.first?.pts90k == 42)
    }

    @Test("PMT section round-trips and identifies the timed-ID3 stream; CRC checks")
    func pmtRoundTrip() throws {
        let pmt = ProgramMapSection(
            programNumber: 7, versionNumber: 3, pcrPID: 0x101,
            programInfo: TimedID3Descriptors.metadataPointer(programNumber: 7),
            streams: [ElementaryStreamInfo(streamType: 0x06, pid: 0x102, descriptors: TimedID3Descriptors.metadata)])
        let bytes = pmt.serialized()
        #expect(CRC32MPEG2.checksum(bytes) == 0)
        #expect(CRC32MPEG2.checksum(Array("123456789".utf8)) == 0x0376_E6E7)  // CRC-32/MPEG-2 check value
        let parsed = try #require(ProgramMapSection(bytes[...]))
        #expect(parsed == pmt)
        #expect(parsed.streams.first?.carriesTimedID3 == true)
        var damaged = bytes
        damaged[10] ^= 1
        #expect(ProgramMapSection(damaged[...]) == nil)
    }

    @Test("continuity errors are reported per PID with the packet index")
    func reportsContinuityErrors() {
        var cc: UInt8 = 0
        var packets = TransportStream.timedID3Packets(
            tag: poster.serialized(), pts90k: 0, pid: 0x102, continuityCounter: &cc)
        packets.removeSubrange(188..<376)  // drop the second packet
        let ts = buildTransportStream(id3Packets: packets)
        #expect(
            TransportStream.continuityErrors(in: ts) == [
                ContinuityError(pid: 0x102, packetIndex: 3, expected: 1, found: 2)
            ])
        // A duplicate packet is allowed once.
        let duplicated = buildTransportStream(id3Packets: Array(packets[0..<188]) + Array(packets[0..<188]))
        #expect(TransportStream.continuityErrors(in: duplicated).isEmpty)
    }

    @Test("packed audio: leading tag and later tags between ADTS frames")
    func extractsFromPackedAAC() throws {
        let lead = poster.serialized()
        let later = ID3Tag(frames: [TransportStreamTimestamp.makeFrame(pts90k: 999), .text(id: "TIT2", value: "later")])
            .serialized()
        // 0xFF in the payload must not be mistaken for a sync word while frames are walked.
        let frame = adtsFrame(payloadLength: 200)
        let bytes = lead + frame + frame + later + frame + Array("ID3".utf8) + frame
        #expect(EmbeddedID3.sniffContainer(bytes[...]) == .packedAudio)
        let found = EmbeddedID3.tags(in: bytes, container: .packedAudio)
        #expect(found.map(\.offset) == [0, lead.count + 2 * frame.count, lead.count + 3 * frame.count + later.count])
        #expect(found.map(\.pts90k) == [123_456, 999, nil])
        #expect(found[0].tag == poster)
        #expect(found[2].tag == nil && found[2].error != nil)
        let header = try #require(ADTSHeader(frame[...]))
        #expect(header.sampleRate == 48_000 && header.channelConfiguration == 2 && header.audioObjectType == 2)
        #expect(header.frameLength == 207 && header.headerLength == 7)
    }

    @Test("fMP4: emsg v1 and v0 with the AOM ID3 scheme; largesize and size-0 boxes")
    func extractsFromFragmentedMP4() throws {
        let v1 = EventMessageBox(
            version: 1, timescale: 48_000, presentationTime: 48_000 * 10 + 24_000, messageData: poster.serialized())
        let v0 = EventMessageBox(version: 0, timescale: 1000, presentationTime: 5, messageData: poster.serialized())
        let other = EventMessageBox(
            schemeIDURI: "urn:scte:scte35:2013:bin", timescale: 1, presentationTime: 0, messageData: [1, 2])
        let styp: [UInt8] = [0, 0, 0, 16] + Array("stypmsdh".utf8) + [0, 0, 0, 0]
        // A 'free' box using a 64-bit largesize.
        let free: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0, 0, 0, 0, 0, 0, 0, 20] + [9, 9, 9, 9]
        let mdatToEnd: [UInt8] = [0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3]
        let bytes = styp + v1.serialized() + free + other.serialized() + v0.serialized() + mdatToEnd
        #expect(EmbeddedID3.sniffContainer(bytes[...]) == .fragmentedMP4)
        let found = EmbeddedID3.tags(in: bytes, container: .fragmentedMP4)
        #expect(found.count == 2)
        #expect(found.map(\.pts90k) == [900_000 + 45_000, nil])
        #expect(found.allSatisfy { $0.tag == poster })
        #expect(found.first?.offset == 16)
        let parsed = try #require(EventMessageBox(payload: v1.serialized().dropFirst(8)))
        #expect(parsed == v1)
        #expect(EventMessageBox.id3(tag: poster, pts90k: 90).presentationTime90k == 90)
    }

    @Test(
        "AC-3 and E-AC-3 frame sizes",
        arguments: [
            // fscod/frmsizecod byte, bsid byte, expected bytes
            ([0x0B, 0x77, 0, 0, 0x14, 0x40] as [UInt8], 768),  // 48 kHz, 192 kbit/s
            ([0x0B, 0x77, 0, 0, 0x40, 0x40], 138),  // 44.1 kHz, 32 kbit/s, even
            ([0x0B, 0x77, 0, 0, 0x41, 0x40], 140),  // 44.1 kHz, 32 kbit/s, odd
            ([0x0B, 0x77, 0x02, 0xFF, 0x3F, 0x80], 1536),  // E-AC-3 frmsiz 767
        ])
    func dolbyFrameLengths(header: [UInt8], expected: Int) {
        #expect(DolbyAudioFrame.frameLength(header[...]) == expected)
    }

    @Test("hostile container bytes never trap", arguments: [ContainerKind.mpegTS, .packedAudio, .fragmentedMP4])
    func survivesDamage(kind: ContainerKind) {
        var cc: UInt8 = 0
        let ts = buildTransportStream(
            id3Packets: TransportStream.timedID3Packets(
                tag: poster.serialized(), pts90k: 1, pid: 0x102, continuityCounter: &cc))
        let fmp4 = EventMessageBox.id3(tag: poster, pts90k: 1).serialized()
        let packed = poster.serialized() + adtsFrame(payloadLength: 30)
        let bytes = kind == .mpegTS ? ts : kind == .fragmentedMP4 ? fmp4 : packed
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = EmbeddedID3.tags(in: Array(bytes.prefix(length)), container: kind)
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                damaged[Int(state >> 33) % damaged.count] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            }
            for found in EmbeddedID3.tags(in: damaged, container: kind) {
                #expect(found.tag != nil || found.error != nil)
            }
        }
        // Lying sizes: a box claiming 2^64−1 bytes, a PES claiming 65535 bytes in one packet.
        let hugeBox: [UInt8] = [0, 0, 0, 1] + Array("emsg".utf8) + [UInt8](repeating: 0xFF, count: 8) + [1, 0, 0, 0]
        #expect(EmbeddedID3.tags(in: hugeBox, container: .fragmentedMP4).isEmpty)
    }
}

@Suite("Packed MP3")
struct PackedMP3Tests {
    @Test("walks MPEG-1 Layer III frames and finds a later tag")
    func extractsFromPackedMP3() throws {
        // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes.
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
        #expect(MPEGAudioFrame.frameLength(header[...]) == 417)
        // MPEG-2 Layer III, 64 kbit/s, 22.05 kHz, padded: 72 × 64000 / 22050 + 1 = 209.
        #expect(MPEGAudioFrame.frameLength([0xFF, 0xF3, 0x82, 0x00][...]) == 209)
        let frame = header + [UInt8](repeating: 0x49, count: 413)  // 'I'-filled payload
        let lead = ID3Tag(majorVersion: 3, frames: [TransportStreamTimestamp.makeFrame(pts90k: 10)]).serialized()
        let later = ID3Tag(frames: [TransportStreamTimestamp.makeFrame(pts90k: 20)]).serialized()
        let bytes = lead + frame + later + frame
        #expect(EmbeddedID3.sniffContainer(frame[...]) == .packedAudio)
        let found = EmbeddedID3.tags(in: bytes, container: .packedAudio)
        #expect(found.map(\.offset) == [0, lead.count + frame.count])
        #expect(found.map(\.pts90k) == [10, 20])
    }
}
