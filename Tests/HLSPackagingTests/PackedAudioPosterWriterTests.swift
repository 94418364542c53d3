import Testing
import MediaFormats
import MediaInspection
import HLSPackaging

@Suite struct PackedAudioPosterWriterTests {
    /// Leading ID3 tags of a packed-audio segment: their total length and the parsed tags.
    static func leadingTags(_ bytes: [UInt8]) throws -> (length: Int, tags: [ID3Tag]) {
        var position = 0
        var tags: [ID3Tag] = []
        while bytes.count - position >= 10, bytes[position..<(position + 3)].elementsEqual([0x49, 0x44, 0x33]) {
            let (tag, count) = try ID3Tag.parse(bytes[position...])
            tags.append(tag)
            position += count
        }
        return (position, tags)
    }

    /// ADTS frames, header included, walked by their frame_length (ISO/IEC 14496-3 §1.A.2.2).
    static func adtsFrames(_ audio: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var frames: [ArraySlice<UInt8>] = []
        var index = audio.startIndex
        while let header = ADTSHeader(audio[index...]), index + header.frameLength <= audio.endIndex {
            frames.append(audio[index..<(index + header.frameLength)])
            index += header.frameLength
        }
        return frames
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var extensionName: String
        var timestampInInput: Int64?
        var testDescription: String { fixture }
    }

    static let cases = [
        Case(fixture: "audio.aac", extensionName: "aac", timestampInInput: 0x15F90),
        Case(fixture: "audio-apic.mp3", extensionName: "mp3", timestampInInput: 0),
        Case(fixture: "audio.ac3", extensionName: "ac3", timestampInInput: nil),
    ]

    @Test(arguments: cases)
    func putsThePosterInTheLeadingTagAndLeavesTheAudioAlone(_ testCase: Case) async throws {
        let original = try TestMedia.fixture(testCase.fixture)
        let poster = try TestMedia.pngPoster()
        let fallback: Int64 = 540_000
        let output = try PackedAudioPosterWriter.rewrite(original, poster: poster, timestampIfMissing: fallback)

        let before = try Self.leadingTags(original)
        let after = try Self.leadingTags(output)
        // Audio bytes after the tag: identical.
        #expect(output[after.length...] == original[before.length...])
        if testCase.extensionName == "aac" {
            let frames = Self.adtsFrames(output[after.length...])
            #expect(frames.count > 50)
            #expect(frames == Self.adtsFrames(original[before.length...]))
        }
        // One ID3v2.4 tag: the timestamp (kept, or the fallback) and the poster.
        let tag = try #require(after.tags.first)
        #expect(after.tags.count == 1)
        #expect(tag.majorVersion == 4)
        #expect(tag.transportStreamTimestamp?.pts90k == (testCase.timestampInInput ?? fallback))
        #expect(tag.frames.filter { $0.id == "APIC" } == [poster.frame])
        // Frames other than APIC are those of the input, in order.
        let otherBefore =
            before.tags.first?.frames.filter { $0.id != "APIC" } ?? [
                TransportStreamTimestamp.makeFrame(pts90k: fallback)
            ]
        #expect(tag.frames.filter { $0.id != "APIC" } == otherBefore)
        // Found where players look, with the image unchanged.
        let found = EmbeddedID3.tags(in: output, container: .packedAudio)
        #expect(found.first?.offset == 0)
        #expect(
            TestMedia.pictures(in: output, container: .packedAudio).map(\.data) == [try TestMedia.fixture("poster.png")]
        )

        // libavformat sees the same audio, and (AAC, MP3) the poster as an attached picture.
        let name = "segment.\(testCase.extensionName)"
        let factsBefore = try await TestMedia.inspect(original, name: name)
        let factsAfter = try await TestMedia.inspect(output, name: name)
        #expect(factsAfter.problem == nil)
        #expect(factsAfter.tracks.filter { $0.kind == .audio } == factsBefore.tracks.filter { $0.kind == .audio })
        #expect(factsAfter.transportStreamTimestamp == (testCase.timestampInInput ?? fallback))
        if testCase.extensionName != "ac3" {
            #expect(factsAfter.tracks.contains { $0.kind == .attachedPicture && $0.codecName == "png" })
        }
    }

    @Test(arguments: cases)
    func embeddingTwiceEqualsEmbeddingOnce(_ testCase: Case) throws {
        let original = try TestMedia.fixture(testCase.fixture)
        let poster = try TestMedia.jpegPoster()
        let once = try PackedAudioPosterWriter.rewrite(original, poster: poster, timestampIfMissing: 0)
        let twice = try PackedAudioPosterWriter.rewrite(once, poster: poster, timestampIfMissing: nil)
        #expect(twice == once)
    }

    @Test func removingThePosterRestoresTheOriginalBytes() throws {
        let original = try TestMedia.fixture("audio.aac")  // PRIV timestamp and 10 bytes of padding
        let embedded = try PackedAudioPosterWriter.rewrite(
            original, poster: try TestMedia.jpegPoster(), timestampIfMissing: nil)
        #expect(embedded != original)
        #expect(try PackedAudioPosterWriter.rewrite(embedded, poster: nil, timestampIfMissing: nil) == original)
        // Nothing to remove: unchanged.
        #expect(try PackedAudioPosterWriter.rewrite(original, poster: nil, timestampIfMissing: nil) == original)
    }

    @Test func removingAnExistingPosterKeepsTheOtherFrames() throws {
        let original = try TestMedia.fixture("audio-apic.mp3")
        let before = try Self.leadingTags(original)
        let removed = try PackedAudioPosterWriter.rewrite(original, poster: nil, timestampIfMissing: nil)
        let after = try Self.leadingTags(removed)
        #expect(after.tags.first?.frames == before.tags.first?.frames.filter { $0.id != "APIC" })
        #expect(removed[after.length...] == original[before.length...])
        #expect(TestMedia.pictures(in: removed, container: .packedAudio).isEmpty)
        // Putting the same image back with the same description gives the input back.
        let picture = try #require(before.tags.first?.attachedPicture)
        let restored = try PackedAudioPosterWriter.rewrite(
            removed, poster: try Poster(image: picture.data, description: picture.description), timestampIfMissing: nil)
        #expect(TestMedia.pictures(in: restored, container: .packedAudio) == [picture])
    }

    @Test func movesAPictureFromASecondLeadingTagIntoTheFirst() throws {
        let audio = try TestMedia.fixture("audio.aac")
        let audioStart = try Self.leadingTags(audio).length
        let timestamp = TransportStreamTimestamp.makeFrame(pts90k: 90_000)
        let segment =
            ID3Tag(frames: [timestamp]).serialized()
            + ID3Tag(frames: [try TestMedia.pngPoster().frame]).serialized() + audio[audioStart...]
        let output = try PackedAudioPosterWriter.rewrite(
            segment, poster: try TestMedia.jpegPoster(), timestampIfMissing: nil)
        let after = try Self.leadingTags(output)
        #expect(after.tags.map(\.frames) == [[timestamp, try TestMedia.jpegPoster().frame]])
        #expect(output[after.length...] == audio[audioStart...])
    }

    @Test func convertsAnID3v23TagToID3v24() throws {
        let audio = try TestMedia.fixture("audio.aac")
        let audioStart = try Self.leadingTags(audio).length
        let text = ID3Frame.text(id: "TIT2", value: "Episode 1")
        let segment =
            ID3Tag(majorVersion: 3, frames: [TransportStreamTimestamp.makeFrame(pts90k: 7), text]).serialized()
            + audio[audioStart...]
        let output = try PackedAudioPosterWriter.rewrite(
            segment, poster: try TestMedia.jpegPoster(), timestampIfMissing: nil)
        let tag = try #require(try Self.leadingTags(output).tags.first)
        #expect(tag.majorVersion == 4)
        #expect(tag.frames == [TransportStreamTimestamp.makeFrame(pts90k: 7), text, try TestMedia.jpegPoster().frame])
    }

    // MARK: Refusals

    @Test func refusesASegmentWithoutTimestampWhenNoneIsGiven() throws {
        let error = try #require(throws: PackagingError.self) {
            try PackedAudioPosterWriter.rewrite(
                try TestMedia.fixture("audio.ac3"), poster: try TestMedia.jpegPoster(), timestampIfMissing: nil)
        }
        #expect(error.kind == .missingTimestamp)
        #expect(error.description.contains("RFC 8216 §3.4"))
        #expect(error.description.contains(TransportStreamTimestamp.owner))
    }

    @Test(arguments: ["audio-aac.ts", "fmp4-seg0.m4s", "poster.png"])
    func refusesSegmentsThatAreNotPackedAudio(_ fixture: String) throws {
        let error = try #require(throws: PackagingError.self) {
            try PackedAudioPosterWriter.rewrite(
                try TestMedia.fixture(fixture), poster: try TestMedia.jpegPoster(), timestampIfMissing: 0)
        }
        #expect(error.kind == .wrongContainer)
    }

    @Test func refusesATruncatedLeadingTag() throws {
        let cut = Array(try TestMedia.fixture("audio-apic.mp3").prefix(500))  // inside the APIC
        let error = try #require(throws: PackagingError.self) {
            try PackedAudioPosterWriter.rewrite(cut, poster: try TestMedia.jpegPoster(), timestampIfMissing: 0)
        }
        #expect(error.kind == .malformedID3)
        #expect(error.description.contains("truncated"))
    }
}
