import Testing
import MediaFormats
import MediaInspection
import HLSPackaging

@Suite struct FragmentedMP4PosterWriterTests {
    struct Box: Equatable {
        var type: String
        var bytes: ArraySlice<UInt8>
    }

    /// Top-level boxes (32-bit sizes, as the fixtures use).
    static func boxes(_ bytes: [UInt8]) -> [Box] {
        var result: [Box] = []
        var index = 0
        while bytes.count - index >= 8 {
            let size =
                Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8
                | Int(bytes[index + 3])
            guard size >= 8, index + size <= bytes.count else { break }
            result.append(
                Box(
                    type: String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self),
                    bytes: bytes[index..<(index + size)]))
            index += size
        }
        return result
    }

    static func uint32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        let s = bytes.startIndex + offset
        return UInt32(bytes[s]) << 24 | UInt32(bytes[s + 1]) << 16 | UInt32(bytes[s + 2]) << 8 | UInt32(bytes[s + 3])
    }

    /// baseMediaDecodeTime of the fixture's tfdt (version 1 box inside moof/traf).
    static func baseMediaDecodeTime(_ fragment: [UInt8]) throws -> UInt64 {
        let tfdt = try #require(
            fragment.indices.dropLast(4).first { fragment[$0..<($0 + 4)].elementsEqual("tfdt".utf8) })
        let version = fragment[tfdt + 4]
        let start = tfdt + 8
        return version == 1
            ? UInt64(uint32(fragment[...], at: start)) << 32 | UInt64(uint32(fragment[...], at: start + 4))
            : UInt64(uint32(fragment[...], at: start))
    }

    @Test func insertsAnID3EventMessageBeforeTheMoofAndLeavesTheMediaAlone() async throws {
        let initSection = try TestMedia.fixture("fmp4-init.mp4")
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let poster = try TestMedia.jpegPoster()
        let output = try FragmentedMP4PosterWriter.rewrite(original, initSection: initSection, poster: poster)

        let before = Self.boxes(original), after = Self.boxes(output)
        #expect(before.map(\.type) == ["styp", "sidx", "moof", "mdat"])
        #expect(after.map(\.type) == ["styp", "sidx", "emsg", "moof", "mdat"])
        #expect(after.filter { !["emsg", "sidx"].contains($0.type) } == before.filter { $0.type != "sidx" })

        // The emsg: v1, AOM ID3 scheme, mdhd timescale, tfdt time, one ID3v2.4 tag with the APIC.
        let emsgBox = try #require(after.first { $0.type == "emsg" })
        let message = try #require(EventMessageBox(payload: emsgBox.bytes.dropFirst(8)))
        #expect(message.version == 1)
        #expect(message.schemeIDURI == "https://aomedia.org/emsg/ID3")
        #expect(message.value == "")
        #expect(message.timescale == 44_100)  // the AAC track's mdhd
        #expect(message.presentationTime == (try Self.baseMediaDecodeTime(original)))
        #expect(message.eventDuration == 0xFFFF_FFFF)
        #expect(message.id == 0)
        let tag = try ID3Tag.parse(message.messageData).tag
        #expect(tag.majorVersion == 4)
        #expect(tag.frames == [poster.frame])
        #expect(
            TestMedia.pictures(in: output, container: .fragmentedMP4).map(\.data) == [
                try TestMedia.fixture("poster.jpg")
            ])

        // sidx: the subsegment now includes the emsg; everything else in the box is unchanged.
        let sidxBefore = try #require(before.first { $0.type == "sidx" }).bytes
        let sidxAfter = try #require(after.first { $0.type == "sidx" }).bytes
        let referenceOffset = 8 + 4 + 8 + 16 + 4  // header, version/flags, IDs/timescale, v1 times, reserved+count
        #expect(
            Self.uint32(sidxAfter, at: referenceOffset) == Self.uint32(sidxBefore, at: referenceOffset)
                + UInt32(emsgBox.bytes.count))
        #expect(sidxAfter.prefix(referenceOffset) == sidxBefore.prefix(referenceOffset))
        #expect(sidxAfter.dropFirst(referenceOffset + 4) == sidxBefore.dropFirst(referenceOffset + 4))

        // libavformat demuxes the same audio from init + fragment.
        let factsBefore = try await TestMedia.inspect(original, name: "seg0.m4s", initSection: initSection)
        let factsAfter = try await TestMedia.inspect(output, name: "seg0.m4s", initSection: initSection)
        #expect(factsAfter.problem == nil)
        #expect(factsAfter.tracks.filter { $0.kind == .audio } == factsBefore.tracks.filter { $0.kind == .audio })
        #expect(factsAfter.tracks.contains { $0.kind == .audio && $0.packetCount > 0 })
        #expect(factsAfter.firstPTS == factsBefore.firstPTS)
    }

    @Test func embeddingTwiceEqualsOnceAndRemovalRestoresTheFragment() throws {
        let initSection = try TestMedia.fixture("fmp4-init.mp4")
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let once = try FragmentedMP4PosterWriter.rewrite(
            original, initSection: initSection, poster: try TestMedia.pngPoster())
        let twice = try FragmentedMP4PosterWriter.rewrite(
            once, initSection: initSection, poster: try TestMedia.pngPoster())
        #expect(twice == once)
        let swapped = try FragmentedMP4PosterWriter.rewrite(
            once, initSection: initSection, poster: try TestMedia.jpegPoster())
        #expect(
            TestMedia.pictures(in: swapped, container: .fragmentedMP4).map(\.data) == [
                try TestMedia.fixture("poster.jpg")
            ])
        #expect(try FragmentedMP4PosterWriter.rewrite(swapped, initSection: initSection, poster: nil) == original)
        #expect(try FragmentedMP4PosterWriter.rewrite(original, initSection: nil, poster: nil) == original)
    }

    @Test func withoutInitSectionTheEmsgUses90kHz() throws {
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let output = try FragmentedMP4PosterWriter.rewrite(
            original, initSection: nil, poster: try TestMedia.jpegPoster())
        let emsg = try #require(Self.boxes(output).first { $0.type == "emsg" })
        #expect(EventMessageBox(payload: emsg.bytes.dropFirst(8))?.timescale == 90_000)
    }

    @Test func keepsOtherEventMessagesAndOtherID3Frames() throws {
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let boxes = Self.boxes(original)
        let scte = EventMessageBox(
            schemeIDURI: "urn:scte:scte35:2013:bin", timescale: 90_000, presentationTime: 10, messageData: [0xFC, 0x30]
        ).serialized()
        let text = ID3Frame.userText(description: "chapter", value: "Intro")
        let id3 = EventMessageBox.id3(tag: ID3Tag(frames: [text, try TestMedia.pngPoster().frame]), pts90k: 4500)
            .serialized()
        let segment = boxes[0].bytes + boxes[1].bytes + scte + id3 + boxes[2].bytes + boxes[3].bytes

        let replaced = try FragmentedMP4PosterWriter.rewrite(
            Array(segment), initSection: nil, poster: try TestMedia.jpegPoster())
        let after = Self.boxes(replaced)
        #expect(after.map(\.type) == ["styp", "sidx", "emsg", "emsg", "moof", "mdat"])
        #expect(after[2].bytes.elementsEqual(scte))
        let message = try #require(EventMessageBox(payload: after[3].bytes.dropFirst(8)))
        #expect(message.presentationTime == 4500)
        #expect(try ID3Tag.parse(message.messageData).tag.frames == [text, try TestMedia.jpegPoster().frame])

        let removed = try FragmentedMP4PosterWriter.rewrite(replaced, initSection: nil, poster: nil)
        let tags = EmbeddedID3.tags(in: removed, container: .fragmentedMP4)
        #expect(tags.map(\.tag?.frames) == [[text]])
        #expect(Self.boxes(removed)[2].bytes.elementsEqual(scte))
    }

    // MARK: Refusals

    @Test func refusesTheInitSectionAsAFragment() throws {
        let error = try #require(throws: PackagingError.self) {
            try FragmentedMP4PosterWriter.rewrite(
                try TestMedia.fixture("fmp4-init.mp4"), initSection: nil, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .wrongContainer)
        #expect(error.description.contains("moof"))
    }

    @Test(arguments: ["audio-aac.ts", "audio.aac", "poster.jpg"])
    func refusesSegmentsThatAreNotFMP4(_ fixture: String) throws {
        let error = try #require(throws: PackagingError.self) {
            try FragmentedMP4PosterWriter.rewrite(
                try TestMedia.fixture(fixture), initSection: nil, poster: try TestMedia.jpegPoster())
        }
        #expect(error.kind == .wrongContainer)
    }

    @Test func refusesATruncatedFragment() throws {
        let cut = Array(try TestMedia.fixture("fmp4-seg0.m4s").dropLast(10))
        let error = try #require(throws: PackagingError.self) {
            try FragmentedMP4PosterWriter.rewrite(cut, initSection: nil, poster: try TestMedia.jpegPoster())
        }
        #expect(error.description.contains("truncated"))
    }
}
