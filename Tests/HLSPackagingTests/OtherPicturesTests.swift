import Foundation
import HLSPackaging
import MediaFormats
import Testing

/// The poster replaces the front cover (picture type 3) and nothing else: a back cover, an artist
/// photo — pictures the segment's owner put there — keep their bytes, in every container
/// (ID3v2.4 frames §4.14; ID3TagEditor).
@Suite struct OtherPicturesTests {
    static func backCover(description: String = "back") throws -> AttachedPicture {
        AttachedPicture(
            mimeType: "image/png", pictureType: 4, description: description,
            data: try TestMedia.fixture("poster-alpha.png"))
    }

    static func oldFrontCover() throws -> AttachedPicture {
        AttachedPicture(
            mimeType: "image/png", pictureType: 3, description: "", data: try TestMedia.fixture("poster.png"))
    }

    /// The frame as a tag holds it (header and body): what must come out byte for byte.
    static func frameBytes(_ picture: AttachedPicture) -> [UInt8] {
        Array(ID3Tag(majorVersion: 4, frames: [.attachedPicture(picture)]).serialized().dropFirst(10))
    }

    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { whole in
            part.withUnsafeBufferPointer { needle in
                (0...(whole.count - needle.count)).contains { start in
                    memcmp(whole.baseAddress! + start, needle.baseAddress!, needle.count) == 0
                }
            }
        }
    }

    /// What every container must show after the embed: the new poster first, the only front
    /// cover, and the back cover's frame unchanged.
    static func expectPosterBesideTheBackCover(
        _ pictures: [AttachedPicture], output: [UInt8], poster: Poster, back: AttachedPicture
    ) {
        #expect(pictures.map(\.pictureType) == [3, 4])
        #expect(pictures.first?.data == poster.data)
        #expect(pictures.last == back)
        #expect(contains(output, frameBytes(back)), "the back cover's frame is byte-identical")
        #expect(!pictures.contains { $0.data == (try? oldFrontCover().data) })
    }

    static func pictures(_ tags: [FoundID3Tag]) -> [AttachedPicture] {
        tags.flatMap { $0.tag?.frames ?? [] }.compactMap {
            if case .attachedPicture(let picture) = $0 { return picture }
            return nil
        }
    }

    // MARK: Packed audio

    /// audio.aac with its leading tag replaced by one holding `frames` after the PRIV timestamp.
    static func packedAudio(_ frames: [ID3Frame]) throws -> [UInt8] {
        let original = try TestMedia.fixture("audio.aac")
        let (length, tags) = try PackedAudioPosterWriterTests.leadingTags(original)
        let timestamp = try #require(tags.first?.frames.first { $0.id == "PRIV" })
        return ID3Tag(majorVersion: 4, frames: [timestamp] + frames).serialized() + original[length...]
    }

    @Test func packedAudioKeepsTheBackCoverAndReplacesTheOldFrontCover() throws {
        let back = try Self.backCover()
        let segment = try Self.packedAudio([.attachedPicture(back), .attachedPicture(try Self.oldFrontCover())])
        let poster = try TestMedia.jpegPoster()
        let output = try PackedAudioPosterWriter.rewrite(segment, poster: poster, timestampIfMissing: nil)
        let found = EmbeddedID3.tags(in: output, container: .packedAudio)
        Self.expectPosterBesideTheBackCover(Self.pictures(found), output: output, poster: poster, back: back)
        #expect(found.first?.tag?.frames.first?.id == "PRIV")
        // Taking the poster out leaves the back cover.
        let removed = try PackedAudioPosterWriter.rewrite(output, poster: nil, timestampIfMissing: nil)
        #expect(Self.pictures(EmbeddedID3.tags(in: removed, container: .packedAudio)) == [back])
    }

    /// ID3 allows one picture per description: a poster without description beside a back cover
    /// without description is written as "poster", and the back cover stays.
    @Test func aPosterWhoseDescriptionABackCoverHasTakesAnotherOne() throws {
        let back = try Self.backCover(description: "")
        let segment = try Self.packedAudio([.attachedPicture(back)])
        let poster = try TestMedia.pngPoster()
        #expect(poster.description == "")
        let output = try PackedAudioPosterWriter.rewrite(segment, poster: poster, timestampIfMissing: nil)
        let pictures = Self.pictures(EmbeddedID3.tags(in: output, container: .packedAudio))
        #expect(pictures.map(\.description) == ["poster", ""])
        #expect(pictures.last == back)
        #expect(pictures.first?.data == poster.data && pictures.first?.pictureType == 3)
    }

    // MARK: MPEG-TS

    @Test func transportStreamKeepsTheBackCoverAndReplacesTheOldFrontCover() throws {
        let original = try TestMedia.variantSegments()[0]
        var writer = TransportStreamPosterWriter()
        let embedded = try writer.rewrite(original, poster: try TestMedia.pngPoster())
        let pid = try #require(writer.metadataPID)
        // The timed-ID3 PES now holds a back cover and an old front cover.
        let back = try Self.backCover()
        var counter: UInt8 = 0
        let pes = TransportStream.timedID3Packets(
            tag: ID3Tag(frames: [.attachedPicture(back), .attachedPicture(try Self.oldFrontCover())]).serialized(),
            pts90k: 1234, pid: pid, continuityCounter: &counter)
        var segment: [UInt8] = []
        var inserted = false
        for (packet, raw) in zip(TS.packets(embedded), TS.rawPackets(embedded)) {
            if packet.pid == pid {
                if !inserted { segment += pes; inserted = true }
            } else {
                segment += raw
            }
        }

        let poster = try TestMedia.jpegPoster()
        var other = TransportStreamPosterWriter()
        let output = try other.rewrite(segment, poster: poster)
        let found = EmbeddedID3.tags(in: output, container: .mpegTS)
        #expect(found.count == 1, "the poster joins the tag of the back cover")
        // The timed-ID3 PES reassembled from its packets' payloads.
        let payload = TS.packets(output).filter { $0.pid == pid }.flatMap(\.payload)
        Self.expectPosterBesideTheBackCover(Self.pictures(found), output: payload, poster: poster, back: back)

        let removed = try other.rewrite(output, poster: nil)
        #expect(Self.pictures(EmbeddedID3.tags(in: removed, container: .mpegTS)) == [back])
    }

    // MARK: fMP4

    @Test func fragmentedMP4KeepsTheBackCoverAndReplacesTheOldFrontCover() throws {
        let original = try TestMedia.fixture("fmp4-seg0.m4s")
        let boxes = FragmentedMP4PosterWriterTests.boxes(original)
        let back = try Self.backCover()
        let id3 = EventMessageBox.id3(
            tag: ID3Tag(frames: [.attachedPicture(back), .attachedPicture(try Self.oldFrontCover())]), pts90k: 4500
        ).serialized()
        let segment = Array(boxes[0].bytes + boxes[1].bytes + id3 + boxes[2].bytes + boxes[3].bytes)

        let poster = try TestMedia.jpegPoster()
        let output = try FragmentedMP4PosterWriter.rewrite(segment, initSection: nil, poster: poster)
        let found = EmbeddedID3.tags(in: output, container: .fragmentedMP4)
        #expect(found.count == 1, "the poster joins the event message of the back cover")
        Self.expectPosterBesideTheBackCover(Self.pictures(found), output: output, poster: poster, back: back)

        let removed = try FragmentedMP4PosterWriter.rewrite(output, initSection: nil, poster: nil)
        #expect(Self.pictures(EmbeddedID3.tags(in: removed, container: .fragmentedMP4)) == [back])
    }

    /// A segment whose only picture is a back cover, rewritten without poster (`--remove`), is
    /// left as it is in every container.
    @Test func removingLeavesASegmentWithOnlyABackCoverUnchanged() throws {
        let packed = try Self.packedAudio([.attachedPicture(try Self.backCover())])
        #expect(try PackedAudioPosterWriter.rewrite(packed, poster: nil, timestampIfMissing: nil) == packed)
        let boxes = FragmentedMP4PosterWriterTests.boxes(try TestMedia.fixture("fmp4-seg0.m4s"))
        let id3 = EventMessageBox.id3(tag: ID3Tag(frames: [.attachedPicture(try Self.backCover())]), pts90k: 4500)
            .serialized()
        let fragment = Array(boxes[0].bytes + boxes[1].bytes + id3 + boxes[2].bytes + boxes[3].bytes)
        #expect(try FragmentedMP4PosterWriter.rewrite(fragment, initSection: nil, poster: nil) == fragment)
    }
}
