import Testing
import MediaFormats
import MediaInspection
import HLSPackaging

@Suite struct TransportStreamPosterWriterTests {
    static let audioPID: UInt16 = 0x0100

    @Test func embedsThePosterInEverySegmentOfAVariantWithoutTouchingAudio() async throws {
        let originals = try TestMedia.variantSegments()
        let poster = try TestMedia.jpegPoster()
        var writer = TransportStreamPosterWriter()
        let rewritten = try originals.map { segment throws(PackagingError) in
            try writer.rewrite(segment, poster: poster)
        }
        let id3PID = try #require(writer.metadataPID)
        #expect(id3PID == 0x0101)  // next free PID after the audio stream

        for (original, output) in zip(originals, rewritten) {
            let pmtPID = try #require(TS.pmtPID(original))
            // Every audio, PAT and SDT packet byte-identical and in order.
            #expect(TS.packets(output, excluding: [pmtPID, id3PID]) == TS.packets(original, excluding: [pmtPID]))
            #expect(
                TS.packets(output).count(where: { $0.pid == pmtPID })
                    == TS.packets(original).count(where: { $0.pid == pmtPID }))

            // PMT: valid CRC, the ID3 stream with metadata_descriptor, the pointer in program_info.
            let section = try #require(TS.firstSection(output, pid: pmtPID))
            #expect(CRC32MPEG2.checksum(section) == 0)
            let pmt = try #require(ProgramMapSection(section[...]))
            let id3Stream = try #require(pmt.streams.first { $0.pid == id3PID })
            #expect(id3Stream.streamType == 0x15)
            #expect(id3Stream.descriptors == TimedID3Descriptors.metadata)
            #expect(pmt.programInfo.starts(with: [0x25]))
            #expect(pmt.programInfo == TimedID3Descriptors.metadataPointer(programNumber: pmt.programNumber))
            #expect(pmt.streams.first?.pid == Self.audioPID)

            // The ID3 PES follows the first PMT and carries the JPEG unchanged, timed at the first audio PTS.
            let packets = TS.packets(output)
            let firstPMT = try #require(packets.firstIndex { $0.pid == pmtPID })
            #expect(packets[firstPMT + 1].pid == id3PID)
            #expect(packets[firstPMT + 1].payloadUnitStart)
            let found = EmbeddedID3.tags(in: output, container: .mpegTS)
            #expect(found.count == 1)
            let tag = try #require(found.first?.tag)
            #expect(tag.majorVersion == 4)
            #expect(tag.frames == [poster.frame])
            #expect(tag.attachedPicture?.data == (try TestMedia.fixture("poster.jpg")))
            #expect(tag.attachedPicture?.mimeType == "image/jpeg")
            #expect(tag.attachedPicture?.pictureType == 3)
            #expect(found.first?.pts90k == TS.firstPTS(original, pid: Self.audioPID))
        }

        // A player reading the variant sees no continuity gap on any PID, the new one included.
        #expect(TransportStream.continuityErrors(in: originals.flatMap { $0 }).isEmpty)
        #expect(TransportStream.continuityErrors(in: rewritten.flatMap { $0 }) == [])
    }

    @Test func libavformatStillDemuxesTheSameAudioPlusATimedMetadataTrack() async throws {
        let original = try TestMedia.variantSegments()[1]
        var writer = TransportStreamPosterWriter()
        let output = try writer.rewrite(original, poster: try TestMedia.pngPoster())
        let before = try await TestMedia.inspect(original, name: "seg1.ts")
        let after = try await TestMedia.inspect(output, name: "seg1.ts")
        #expect(after.problem == nil)
        let audioBefore = try #require(before.tracks.first { $0.kind == .audio })
        let audioAfter = try #require(after.tracks.first { $0.kind == .audio })
        #expect(audioAfter == audioBefore)
        #expect(after.firstPTS == before.firstPTS)
        let metadata = try #require(after.tracks.first { $0.kind == .timedMetadata })
        #expect(metadata.codecName == "timed_id3")
        #expect(metadata.packetCount == 1)
        #expect(after.artwork.count == 1)
        #expect(after.tracks.filter { $0.kind == .audio }.count == 1)
    }

    /// ffmpeg CLI output with a PAT/PMT every 0.1 s (PMT packets with adaptation fields), and a
    /// muxed H.264 + AAC stream: every PMT is rewritten, video and audio stay byte-identical.
    @Test(arguments: ["audio-aac.ts", "video-h264-aac.ts"])
    func rewritesEveryPMTOfMuxedAndTableHeavyStreams(_ fixture: String) async throws {
        let original = try TestMedia.fixture(fixture)
        var writer = TransportStreamPosterWriter()
        let output = try writer.rewrite(original, poster: try TestMedia.jpegPoster())
        let pid = try #require(writer.metadataPID)
        let pmtPID = try #require(TS.pmtPID(original))
        #expect(TS.packets(output, excluding: [pmtPID, pid]) == TS.packets(original, excluding: [pmtPID]))
        let pmtPackets = zip(TS.packets(output), TS.rawPackets(output)).filter { $0.0.pid == pmtPID }
        let originalPMTPackets = zip(TS.packets(original), TS.rawPackets(original)).filter { $0.0.pid == pmtPID }.map(
            \.1)
        #expect(pmtPackets.count == originalPMTPackets.count)
        for ((packet, raw), originalRaw) in zip(pmtPackets, originalPMTPackets) {
            let pointer = Int(packet.payload[packet.payload.startIndex])
            let section = packet.payload.dropFirst(1 + pointer)
            let pmt = try #require(ProgramMapSection(section))
            #expect(
                pmt.streams.last
                    == ElementaryStreamInfo(streamType: 0x15, pid: pid, descriptors: TimedID3Descriptors.metadata))
            // Header, counter and adaptation field kept: the bytes before the section are the same.
            let headerLength = 188 - packet.payload.count + 1 + pointer
            #expect(raw.prefix(headerLength).elementsEqual(originalRaw.prefix(headerLength)))
        }
        #expect(TransportStream.continuityErrors(in: output) == TransportStream.continuityErrors(in: original))
        let audioPID = try #require(TS.pmt(original)?.streams.first { $0.streamType == 0x0F }?.pid)
        #expect(
            EmbeddedID3.tags(in: output, container: .mpegTS).map(\.pts90k) == [TS.firstPTS(original, pid: audioPID)])

        let before = try await TestMedia.inspect(original, name: fixture)
        let after = try await TestMedia.inspect(output, name: fixture)
        #expect(after.tracks.filter { $0.kind != .timedMetadata } == before.tracks)
        #expect(after.tracks.count { $0.kind == .timedMetadata } == 1)
    }

    @Test func embeddingTwiceGivesTheSameBytesAsOnceApartFromContinuingCounters() throws {
        let original = try TestMedia.variantSegments()[0]
        let poster = try TestMedia.jpegPoster()
        var once = TransportStreamPosterWriter()
        let first = try once.rewrite(original, poster: poster)
        var twice = TransportStreamPosterWriter()
        let second = try twice.rewrite(try twice.rewrite(original, poster: poster), poster: poster)
        let pid = try #require(once.metadataPID)
        #expect(second.count == first.count)
        #expect(TS.maskingContinuity(second, pid: pid) == TS.maskingContinuity(first, pid: pid))
        #expect(first != second)  // the counters did continue
        // Same segment twice: only the timed-ID3 PID is continuous across the two outputs.
        #expect(TransportStream.continuityErrors(in: first + second).filter { $0.pid == pid }.isEmpty)
    }

    @Test func replacingThePosterSwapsTheImageInPlace() throws {
        let original = try TestMedia.variantSegments()[2]
        var writer = TransportStreamPosterWriter()
        let withJPEG = try writer.rewrite(original, poster: try TestMedia.jpegPoster())
        let withPNG = try writer.rewrite(withJPEG, poster: try TestMedia.pngPoster())
        #expect(
            TestMedia.pictures(in: withPNG, container: .mpegTS).map(\.data) == [try TestMedia.fixture("poster.png")])
        #expect(TestMedia.pictures(in: withPNG, container: .mpegTS).map(\.mimeType) == ["image/png"])
        let pid = try #require(writer.metadataPID)
        #expect(TransportStream.continuityErrors(in: withJPEG + withPNG).filter { $0.pid == pid }.isEmpty)
    }

    /// The writer keeps the poster's tag and the last PMT it changed for the segments that follow:
    /// a segment with another poster, or with another PMT, still gets its own.
    @Test func aLaterSegmentWithAnotherPosterOrAnotherPMTGetsItsOwn() throws {
        let segments = try TestMedia.variantSegments()
        // The last segment with the next PMT version (§2.4.4.8 version_number): a section of the same size.
        var changed = segments[2]
        let pmtPID = try #require(TS.pmtPID(changed))
        let original = try #require(TS.pmt(changed))
        var pmt = original
        pmt.versionNumber = (original.versionNumber + 1) & 0x1F
        let section = pmt.serialized()
        let packet = try #require(TS.packets(changed).first { $0.pid == pmtPID && $0.payloadUnitStart })
        let start = packet.payload.startIndex + 1 + Int(packet.payload[packet.payload.startIndex])
        #expect(section.count == TS.firstSection(changed, pid: pmtPID)?.count)
        changed.replaceSubrange(start..<(start + section.count), with: section)
        #expect(TS.pmt(changed) == pmt)

        var writer = TransportStreamPosterWriter()
        let outputs = [
            try writer.rewrite(segments[0], poster: try TestMedia.jpegPoster()),
            try writer.rewrite(segments[1], poster: try TestMedia.pngPoster()),
            try writer.rewrite(changed, poster: try TestMedia.pngPoster()),
        ]
        #expect(
            outputs.map { TestMedia.pictures(in: $0, container: .mpegTS).map(\.mimeType) } == [
                ["image/jpeg"], ["image/png"], ["image/png"],
            ])
        let pid = try #require(writer.metadataPID)
        #expect(
            outputs.map { TS.pmt($0)?.versionNumber } == [
                original.versionNumber, original.versionNumber, pmt.versionNumber,
            ])
        #expect(outputs.allSatisfy { TS.pmt($0)?.streams.last?.pid == pid })
        #expect(TransportStream.continuityErrors(in: outputs.flatMap { $0 }).filter { $0.pid == pid }.isEmpty)
    }

    @Test func removingThePosterRestoresTheOriginalSegment() throws {
        let original = try TestMedia.variantSegments()[0]
        var writer = TransportStreamPosterWriter()
        let embedded = try writer.rewrite(original, poster: try TestMedia.jpegPoster())
        var remover = TransportStreamPosterWriter()
        let removed = try remover.rewrite(embedded, poster: nil)
        #expect(EmbeddedID3.tags(in: removed, container: .mpegTS).isEmpty)
        #expect(TS.pmt(removed)?.streams.contains { $0.streamType == 0x15 } == false)
        #expect(removed == original)
        // Removing from a segment that never had a poster changes nothing.
        #expect(try remover.rewrite(original, poster: nil) == original)
    }

    @Test func keepsOtherTimedMetadataFramesAndTheirStream() throws {
        // A segment whose timed-ID3 stream already carries TXXX and an old APIC in one tag.
        let original = try TestMedia.variantSegments()[0]
        var writer = TransportStreamPosterWriter()
        let embedded = try writer.rewrite(original, poster: try TestMedia.pngPoster())
        let pid = try #require(writer.metadataPID)
        let text = ID3Frame.userText(description: "chapter", value: "Intro")
        var counter: UInt8 = 0
        let mixedPES = TransportStream.timedID3Packets(
            tag: ID3Tag(frames: [text, try TestMedia.pngPoster().frame]).serialized(),
            pts90k: 1234, pid: pid, continuityCounter: &counter)
        var mixed: [UInt8] = []
        var insertedPES = false
        for (packet, raw) in zip(TS.packets(embedded), TS.rawPackets(embedded)) {
            if packet.pid == pid {
                if !insertedPES { mixed += mixedPES; insertedPES = true }
            } else {
                mixed += raw
            }
        }

        var other = TransportStreamPosterWriter()
        let replaced = try other.rewrite(mixed, poster: try TestMedia.jpegPoster())
        let tags = EmbeddedID3.tags(in: replaced, container: .mpegTS)
        #expect(tags.map(\.tag?.frames) == [[text, try TestMedia.jpegPoster().frame]])
        #expect(tags.first?.pts90k == 1234)  // the existing PES keeps its own time

        let removed = try other.rewrite(replaced, poster: nil)
        #expect(EmbeddedID3.tags(in: removed, container: .mpegTS).map(\.tag?.frames) == [[text]])
        #expect(TS.pmt(removed)?.streams.contains { $0.pid == pid && $0.streamType == 0x15 } == true)
        #expect(TransportStream.continuityErrors(in: replaced + removed).filter { $0.pid == pid }.isEmpty)
    }

    @Test func tagsOver64KiBUseAnUnboundedPESPacket() async throws {
        // A JPEG with 100 KB of trailing bytes after its EOI marker: decoders ignore them.
        let big = try Poster(image: try TestMedia.fixture("poster.jpg") + [UInt8](repeating: 0x5A, count: 100_000))
        let original = try TestMedia.variantSegments()[0]
        var writer = TransportStreamPosterWriter()
        let output = try writer.rewrite(original, poster: big)
        let pid = try #require(writer.metadataPID)
        let start = try #require(TS.packets(output).first { $0.pid == pid && $0.payloadUnitStart })
        let pes = try #require(PESPacket(start.payload))
        #expect(pes.packetLength == 0)  // ISO/IEC 13818-1 §2.4.3.7: 0 = unbounded
        #expect(TestMedia.pictures(in: output, container: .mpegTS).map(\.data) == [big.data])
        #expect(TransportStream.continuityErrors(in: output).isEmpty)
        let facts = try await TestMedia.inspect(output, name: "big.ts")
        #expect(facts.tracks.contains { $0.kind == .audio })
        #expect(facts.problem == nil)
    }

    // MARK: Refusals

    @Test func rejectsSegmentsThatAreNotWholePackets() throws {
        var writer = TransportStreamPosterWriter()
        let cut = Array(try TestMedia.variantSegments()[0].dropLast(100))
        let error = try #require(throws: PackagingError.self) {
            try writer.rewrite(cut, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .misalignedTransportStream)
        #expect(error.description.contains("188"))
    }

    @Test func rejectsScrambledPackets() throws {
        var segment = try TestMedia.variantSegments()[0]
        let audioPacket = try #require(TS.packets(segment).lastIndex { $0.pid == Self.audioPID })
        segment[audioPacket * 188 + 3] |= 0x80  // transport_scrambling_control '10'
        var writer = TransportStreamPosterWriter()
        let error = try #require(throws: PackagingError.self) {
            try writer.rewrite(segment, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .encrypted)
        #expect(error.description.contains("encrypt"))
    }

    @Test func rejectsSampleAESStreams() throws {
        var counter: UInt8 = 0, pmtCounter: UInt8 = 0
        let pat = TransportStream.sectionPackets(
            ProgramAssociationSection.serialized(programs: [(1, 0x1000)]), pid: 0, continuityCounter: &counter)
        let pmt = TransportStream.sectionPackets(
            ProgramMapSection(pcrPID: 0x100, streams: [ElementaryStreamInfo(streamType: 0xCF, pid: 0x100)])
                .serialized(),
            pid: 0x1000, continuityCounter: &pmtCounter)
        var writer = TransportStreamPosterWriter()
        let error = try #require(throws: PackagingError.self) {
            try writer.rewrite(pat + pmt, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .encrypted)
        #expect(error.description.contains("SAMPLE-AES"))
    }

    @Test func rejectsStreamsWithoutAudio() throws {
        var counter: UInt8 = 0, pmtCounter: UInt8 = 0
        let pat = TransportStream.sectionPackets(
            ProgramAssociationSection.serialized(programs: [(1, 0x1000)]), pid: 0, continuityCounter: &counter)
        let pmt = TransportStream.sectionPackets(
            ProgramMapSection(pcrPID: 0x100, streams: [ElementaryStreamInfo(streamType: 0x1B, pid: 0x100)])
                .serialized(),
            pid: 0x1000, continuityCounter: &pmtCounter)
        var writer = TransportStreamPosterWriter()
        let error = try #require(throws: PackagingError.self) {
            try writer.rewrite(pat + pmt, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .missingAudio)
    }

    @Test func rejectsGarbageAndStreamsWithoutProgramTables() throws {
        var writer = TransportStreamPosterWriter()
        // Audio packets only: the PAT and PMT were cut away.
        let segment = try TestMedia.variantSegments()[0]
        let audioOnly = zip(TS.packets(segment), TS.rawPackets(segment)).filter { $0.0.pid == Self.audioPID }.flatMap(
            \.1)
        let missing = try #require(throws: PackagingError.self) {
            try writer.rewrite(audioOnly, poster: try TestMedia.jpegPoster())
        }
        #expect(missing.kind == .missingProgramTables)
        #expect(missing.description.contains("PAT"))
        // Deterministic noise that happens to be a multiple of 188 bytes.
        var state: UInt32 = 12345
        let noise = (0..<(188 * 4)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345; return UInt8(state >> 24)
        }
        #expect(throws: PackagingError.self) { try writer.rewrite(noise, poster: try TestMedia.jpegPoster()) }
        #expect(throws: PackagingError.self) { try writer.rewrite([], poster: try TestMedia.jpegPoster()) }
    }
}

@Suite struct DamagedExistingTagTests {
    /// `segment` with the size of the ID3 tag in its first timed-ID3 PES set to 256 MB.
    static func claiming256MB(_ segment: [UInt8], pid: UInt16) throws -> [UInt8] {
        var bytes = segment
        let start = try #require(
            stride(from: 0, to: bytes.count, by: 188).first { offset in
                let packetPID = UInt16(bytes[offset + 1] & 0x1F) << 8 | UInt16(bytes[offset + 2])
                return packetPID == pid && bytes[offset + 1] & 0x40 != 0
            })
        let id3 = try #require(
            (start..<(start + 185)).first { bytes[$0..<($0 + 3)].elementsEqual([0x49, 0x44, 0x33]) })
        bytes.replaceSubrange((id3 + 6)..<(id3 + 10), with: [0x7F, 0x7F, 0x7F, 0x7F])
        return bytes
    }

    @Test func aTimedID3TagClaiming256MBIsReplacedNotKeptBesideANewPoster() throws {
        var first = TransportStreamPosterWriter()
        let withPoster = try first.rewrite(try TestMedia.variantSegments()[0], poster: try TestMedia.jpegPoster())
        let pid = try #require(first.metadataPID)
        let damaged = try Self.claiming256MB(withPoster, pid: pid)
        #expect(EmbeddedID3.tags(in: damaged, container: .mpegTS).contains { $0.tag == nil }, "the fixture is damaged")

        var writer = TransportStreamPosterWriter()
        let repaired = try writer.rewrite(damaged, poster: try TestMedia.pngPoster())
        let found = EmbeddedID3.tags(in: repaired, container: .mpegTS)
        #expect(found.count == 1, "one tag: the damaged one replaced, not a second one added")
        #expect(found.allSatisfy { $0.tag != nil })
        #expect(TestMedia.pictures(in: repaired, container: .mpegTS).map(\.mimeType) == ["image/png"])
        #expect(writer.metadataPID == pid, "the stream keeps its timed-ID3 PID")

        // Removing the poster takes the damaged tag out too.
        var remover = TransportStreamPosterWriter()
        let removed = try remover.rewrite(damaged, poster: nil)
        #expect(EmbeddedID3.tags(in: removed, container: .mpegTS).isEmpty)
    }

    /// An ID3v2.4 tag of `size` bytes whose only "frame" has an invalid ID: readable header, unreadable body.
    static func unreadableTag(size: Int = 20) -> [UInt8] {
        [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, UInt8(size)] + Array("!!!!".utf8) + [0, 0, 0, 4, 0, 0]
            + [UInt8](repeating: 0x41, count: size - 10)
    }

    @Test func anUnreadableSecondTagInPackedAudioIsDropped() throws {
        let original = try TestMedia.fixture("audio.aac")  // a leading tag with the PRIV timestamp
        let leading = try ID3Tag.parse(original).byteCount
        let damaged = Array(original.prefix(leading)) + Self.unreadableTag() + Array(original.dropFirst(leading))
        #expect(
            EmbeddedID3.tags(in: damaged, container: .packedAudio).contains { $0.tag == nil }, "the fixture is damaged")
        let output = try PackedAudioPosterWriter.rewrite(
            damaged, poster: try TestMedia.pngPoster(), timestampIfMissing: nil)
        let found = EmbeddedID3.tags(in: output, container: .packedAudio)
        #expect(found.count == 1 && found.allSatisfy { $0.tag != nil }, "\(found)")
        #expect(TestMedia.pictures(in: output, container: .packedAudio).map(\.mimeType) == ["image/png"])
        #expect(output.suffix(original.count - leading) == original.dropFirst(leading), "the audio is untouched")
    }

    @Test func anUnreadableID3EventMessageInFMP4IsReplacedByThePoster() throws {
        let initSection = try TestMedia.fixture("fmp4-init.mp4")
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let moof =
            try #require((4..<(original.count - 4)).first { original[$0..<($0 + 4)].elementsEqual(Array("moof".utf8)) })
            - 4
        let broken = EventMessageBox(timescale: 48_000, presentationTime: 0, messageData: Self.unreadableTag())
            .serialized()
        let damaged = Array(original.prefix(moof)) + broken + Array(original.dropFirst(moof))
        #expect(
            EmbeddedID3.tags(in: damaged, container: .fragmentedMP4).contains { $0.tag == nil },
            "the fixture is damaged")
        let output = try FragmentedMP4PosterWriter.rewrite(
            damaged, initSection: initSection, poster: try TestMedia.pngPoster())
        let found = EmbeddedID3.tags(in: output, container: .fragmentedMP4)
        #expect(found.count == 1 && found.allSatisfy { $0.tag != nil }, "\(found)")
        #expect(TestMedia.pictures(in: output, container: .fragmentedMP4).map(\.mimeType) == ["image/png"])
        let removed = try FragmentedMP4PosterWriter.rewrite(damaged, initSection: initSection, poster: nil)
        #expect(removed.elementsEqual(original), "removing the poster takes the damaged message out too")
    }
}
