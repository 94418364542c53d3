import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// One media segment of a playlist: its file and, for a single-file variant, its byte range
/// (and that of its EXT-X-MAP init section), as the playlist's text says.
struct ListedSegment {
    var file: String
    var range: (length: Int, offset: Int)?
    var initFile: String?
    var initRange: (length: Int, offset: Int)?
    var extinf: String

    /// The playlist's segments, read with string handling of our own (not hlscheck's parser).
    static func all(in playlist: String) throws -> [ListedSegment] {
        let base = (playlist as NSString).deletingLastPathComponent
        func range(_ text: Substring) -> (length: Int, offset: Int)? {
            let parts = text.split(separator: "@").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        var result: [ListedSegment] = []
        var map: (file: String, range: (length: Int, offset: Int)?)?
        var pendingRange: (length: Int, offset: Int)?
        var extinf = ""
        for line in try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("#EXT-X-MAP:") {
                let uri = line.split(separator: "\"")[1]
                let byteRange = line.range(of: "BYTERANGE=\"").map { line[$0.upperBound...].prefix { $0 != "\"" } }
                map = ((base as NSString).appendingPathComponent(String(uri)), byteRange.flatMap(range))
            } else if line.hasPrefix("#EXT-X-BYTERANGE:") {
                pendingRange = range(line.dropFirst("#EXT-X-BYTERANGE:".count))
            } else if line.hasPrefix("#EXTINF:") {
                extinf = String(line)
            } else if !line.hasPrefix("#"), !line.isEmpty {
                result.append(
                    ListedSegment(
                        file: (base as NSString).appendingPathComponent(String(line)), range: pendingRange,
                        initFile: map?.file, initRange: map?.range, extinf: extinf))
                pendingRange = nil
            }
        }
        return result
    }

    /// The segment's bytes (its range of the file), behind its init section's when it has one:
    /// what a player demuxes.
    func playable() throws -> [UInt8] {
        func read(_ path: String, _ range: (length: Int, offset: Int)?) throws -> [UInt8] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let range else { return bytes }
            return Array(bytes[range.offset..<(range.offset + range.length)])
        }
        return (try initFile.map { try read($0, initRange) } ?? []) + (try read(file, range))
    }

    /// `playable()` in a file of its own under `folder`, for ffprobe.
    func playableFile(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("segment-\(UUID().uuidString)")
        try Data(try playable()).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// ffmpeg's `-hls_flags single_file` streams (MPEG-TS and fMP4, every segment an EXT-X-BYTERANGE
/// of one file): `embed` writes the poster into them — the file written again whole under a new
/// name, its ranges moved — and `--add-audio-only` takes its audio from them.
@Suite(.serialized) struct SingleFileTests {
    static let frame = 1024.0 / 48_000

    /// The ladder with BANDWIDTH and AVERAGE-BANDWIDTH as the checker measures them, so that the
    /// source checks clean and what the re-check finds is what embed wrote.
    static func ladder(
        _ kind: SingleFileLadder, in folder: TemporaryFolder, audioOnlyVariant: Bool = true, muxed: Bool = false
    ) async throws -> String {
        let multivariant = try kind.make(in: folder.path("stream"), audioOnlyVariant: audioOnlyVariant, muxed: muxed)
        let analysis = try await Checker(configuration: CheckConfiguration()).analyse(multivariant)
        var text = try String(contentsOfFile: multivariant, encoding: .utf8)
        for variant in analysis.variants {
            let peak = try #require(variant.measuredPeakBitrate), average = try #require(variant.measuredAverageBitrate)
            let line = "\n\(variant.uri)\n"
            let before = try #require(text.range(of: line))
            let tag = try #require(text[..<before.lowerBound].range(of: "BANDWIDTH=1,", options: .backwards))
            text.replaceSubrange(tag, with: "BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        return multivariant
    }

    /// `files` (a snapshot of the stream) written again under `folder/reference`, for ffmpeg to
    /// read the stream as it was before embed.
    static func copy(of files: [String: Data], in folder: TemporaryFolder) throws -> String {
        let copy = folder.path("reference")
        for (file, bytes) in files {
            let target = (copy as NSString).appendingPathComponent(file)
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: target))
        }
        return copy
    }

    static func container(_ kind: SingleFileLadder) -> ContainerKind {
        kind == .transportStream ? .mpegTS : .fragmentedMP4
    }

    enum Destination: String, CaseIterable, Sendable { case output, inPlace, inPlaceKeepingNames }

    static let embedCases = SingleFileLadder.allCases.flatMap { kind in Destination.allCases.map { (kind, $0) } }

    @Test(arguments: embedCases)
    func embedWritesTheFileAgainWithItsRangesMovedAndEverySegmentCarriesThePoster(
        _ kind: SingleFileLadder, _ destination: Destination
    ) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Self.ladder(kind, in: folder)
        let stream = folder.path("stream")
        let before = try snapshot(stream)
        let reference = try Self.copy(of: before, in: folder)
        let sourceSegments = try ListedSegment.all(in: reference + "/audio/index.m3u8")
        #expect(sourceSegments.count == 3 && sourceSegments.allSatisfy { $0.range != nil })

        var request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .inPlace)
        let written: String
        switch destination {
        case .output:
            written = folder.path("out")
            request.destination = .folder(written)
        case .inPlace:
            written = stream
        case .inPlaceKeepingNames:
            written = stream
            request.keepNames = true
        }
        let outcome = try await PosterEmbedder(request).run()

        // hlscheck's own re-check: nothing wrong in what embed wrote, the poster everywhere,
        // BANDWIDTH as measured.
        #expect(outcome.verdict.written.filter { $0.severity >= .warning }.isEmpty, "\(outcome.verdict.written)")
        let variant = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(variant.artwork?.segmentsWithArtwork == 3)
        #expect(variant.declaredBandwidth == variant.measuredPeakBitrate)
        let notes = try #require(outcome.targets.first?.notes).joined(separator: "\n")
        #expect(
            notes.contains(
                "audio.\(kind.fileExtension), whose byte ranges are 3 segments of audio/index.m3u8, again whole under a new name"
            ), "\(notes)")
        #expect(
            notes.contains("--keep-names cannot keep its name") == (destination == .inPlaceKeepingNames), "\(notes)")

        // One new file, named after its bytes; every range of the playlist in it, back to back
        // from its start (the init section first for fMP4): nothing left over, nothing missing.
        let newSegments = try ListedSegment.all(in: written + "/audio/index.m3u8")
        #expect(newSegments.count == 3)
        let newFile = try #require(newSegments.first?.file)
        #expect(
            (newFile as NSString).lastPathComponent.hasPrefix("audio.embed-")
                && newFile.hasSuffix("." + kind.fileExtension), "\(newFile)")
        #expect(newSegments.allSatisfy { $0.file == newFile && ($0.initFile == nil || $0.initFile == newFile) })
        let size = try #require(try FileManager.default.attributesOfItem(atPath: newFile)[.size] as? Int)
        var expectedOffset = newSegments.first?.initRange?.length ?? 0
        if let initRange = newSegments.first?.initRange { #expect(initRange.offset == 0) }
        for segment in newSegments {
            let range = try #require(segment.range)
            #expect(range.offset == expectedOffset)
            expectedOffset = range.offset + range.length
        }
        #expect(expectedOffset == size, "the ranges cover the whole new file")
        let listing = try FileManager.default.contentsOfDirectory(atPath: written + "/audio").sorted()
        #expect(
            listing == [(newFile as NSString).lastPathComponent, "index.m3u8"].sorted(),
            "the old single file is gone from what embed wrote: \(listing)")
        if destination == .output {
            #expect(try snapshot(stream) == before, "--output leaves the input as it was")
        }
        // Every line but the URIs and ranges as it was.
        let oldLines = String(decoding: try #require(before["audio/index.m3u8"]), as: UTF8.self).split(separator: "\n")
        let newLines = try String(contentsOfFile: written + "/audio/index.m3u8", encoding: .utf8).split(separator: "\n")
        #expect(oldLines.count == newLines.count)
        for (old, new) in zip(oldLines, newLines) where old != new {
            #expect(
                old.hasPrefix("#EXT-X-BYTERANGE:") || old.hasPrefix("#EXT-X-MAP:")
                    || old == "audio.\(kind.fileExtension)", "\(old) → \(new)")
        }

        // Each range: the poster (our ID3 reader), and to ffprobe the very audio packets of the
        // source's range — same timestamps and durations, so continuous and aligned as before.
        for (index, (old, new)) in zip(sourceSegments, newSegments).enumerated() {
            let bytes = try new.playable()
            let pictures = EmbeddedID3.tags(in: bytes, container: Self.container(kind)).flatMap { $0.tag?.frames ?? [] }
                .compactMap { frame -> AttachedPicture? in
                    if case .attachedPicture(let picture) = frame { return picture }
                    return nil
                }
            #expect(pictures.map(\.data) == [try fixture("poster.jpg")], "segment \(index)")
            let oldPackets = try Shell.audioPackets(old.playableFile(in: folder))
            let newPackets = try Shell.audioPackets(new.playableFile(in: folder))
            #expect(!newPackets.isEmpty)
            #expect(
                newPackets.map(\.pts) == oldPackets.map(\.pts)
                    && newPackets.map(\.duration) == oldPackets.map(\.duration), "segment \(index)")
            #expect(new.extinf == old.extinf)
        }
        // libavcodec through ffmpeg's own HLS demuxer (byte ranges and all): the same audio.
        let sourceSamples = try Shell.decodedSamples(reference + "/audio/index.m3u8")
        #expect(try Shell.decodedSamples(written + "/audio/index.m3u8") == sourceSamples)
    }

    @Test(arguments: SingleFileLadder.allCases)
    func removeGivesBackTheFileBytesAndEmbeddingAgainChangesNothing(_ kind: SingleFileLadder) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Self.ladder(kind, in: folder)
        let stream = folder.path("stream")
        let original = try snapshot(stream)
        let request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .inPlace)
        _ = try await PosterEmbedder(request).run()
        let embedded = try snapshot(stream)
        _ = try await PosterEmbedder(request).run()
        #expect(try snapshot(stream) == embedded, "the same poster again: nothing changes")

        var removal = request
        removal.poster = nil
        let removed = try await PosterEmbedder(removal).run()
        #expect(removed.verdict.written.filter { $0.severity >= .error }.isEmpty, "\(removed.verdict.written)")
        #expect(removed.verification.variants.first { $0.audioOnly }?.artwork?.segmentsWithArtwork ?? 0 == 0)
        let after = try snapshot(stream)
        let file = try #require(after.keys.first { $0.hasPrefix("audio/audio.embed-") })
        #expect(after[file] == original["audio/audio.\(kind.fileExtension)"], "the file's bytes as ffmpeg wrote them")
        let playlist = String(decoding: try #require(after["audio/index.m3u8"]), as: UTF8.self)
        let name = (file as NSString).lastPathComponent
        #expect(
            playlist.replacingOccurrences(of: name, with: "audio.\(kind.fileExtension)")
                == String(decoding: try #require(original["audio/index.m3u8"]), as: UTF8.self),
            "the playlist's ranges as they were")
    }

    static let addCases = SingleFileLadder.allCases.flatMap { kind in [false, true].map { (kind, $0) } }

    @Test(arguments: addCases)
    func addAudioOnlyTakesItsAudioFromASingleFileVariant(_ kind: SingleFileLadder, _ inPlace: Bool) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Self.ladder(kind, in: folder, audioOnlyVariant: false, muxed: true)
        let stream = folder.path("stream")
        let before = try snapshot(stream)
        let written = inPlace ? stream : folder.path("out")
        var request = AudioOnlyRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: inPlace ? .inPlace : .folder(written))
        request.audioFrom = "video/index.m3u8"
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.action == .added)
        #expect(outcome.verdict.written.filter { $0.severity >= .warning }.isEmpty, "\(outcome.verdict.written)")
        let variantURI = try #require(outcome.variantURI)
        let variant = try #require(outcome.verification?.variants.first { $0.uri == variantURI })
        #expect(variant.artwork?.segmentsWithArtwork == 3)
        #expect(try #require(variant.measuredPeakBitrate) <= 64_000)
        for (name, bytes) in before where name != "master.m3u8" {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: (written as NSString).appendingPathComponent(name))) == bytes,
                "\(name) stays as it was")
        }

        // Segment for segment on the source's ranges: whole files of their own (no byte range),
        // each starting within one audio frame of its source range, each EXTINF the duration of
        // the audio written into it (ffprobe's timestamps; the source's EXTINF are the video's).
        let source = try ListedSegment.all(in: stream + "/video/index.m3u8")
        let new = try ListedSegment.all(in: (written as NSString).appendingPathComponent(variantURI))
        #expect(source.count == 3 && source.allSatisfy { $0.range != nil })
        #expect(new.count == source.count)
        #expect(new.allSatisfy { $0.range == nil && $0.initRange == nil })
        for (index, (old, segment)) in zip(source, new).enumerated() {
            let sourceStart = try #require(try Shell.audioPackets(old.playableFile(in: folder)).first?.pts)
            let newStart = try #require(try Shell.audioPackets(segment.playableFile(in: folder)).first?.pts)
            #expect(
                abs(newStart - sourceStart) <= Self.frame,
                "segment \(index): starts at \(newStart), the source at \(sourceStart)")
            let extinf = try #require(Double(segment.extinf.dropFirst(8).split(separator: ",")[0]))
            let duration = try #require(try Shell.audioSpan(segment.playableFile(in: folder)))
            #expect(abs(duration - extinf) <= 0.000_5, "segment \(index): \(duration) s of audio for EXTINF \(extinf)")
            let pictures = EmbeddedID3.tags(in: try segment.playable(), container: Self.container(kind)).flatMap {
                $0.tag?.frames ?? []
            }
            .filter { if case .attachedPicture = $0 { return true } else { return false } }
            #expect(pictures.count == 1, "segment \(index)")
        }
        let newSamples = try Shell.decodedSamples((written as NSString).appendingPathComponent(variantURI))
        let sourceSamples = try Shell.decodedSamples(stream + "/video/index.m3u8")
        #expect(abs(newSamples - sourceSamples) <= 1024, "decoded \(newSamples) samples, the source \(sourceSamples)")
    }

    /// What cannot be rewritten consistently is refused before anything is written, naming the
    /// line: two ranges that share bytes, and a file another playlist of the stream lists too.
    @Test func refusesOverlappingRangesAndAFileAnotherPlaylistListsBeforeWritingAnything() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Self.ladder(.transportStream, in: folder)
        let stream = folder.path("stream")
        let playlist = stream + "/audio/index.m3u8"
        let original = try String(contentsOfFile: playlist, encoding: .utf8)
        let request = EmbedRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .inPlace)

        // The second range starts 188 bytes (one TS packet) early: it overlaps the first.
        let second = try #require(
            original.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.dropFirst().first)
        let parts = second.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { Int($0) }
        let overlapping = original.replacingOccurrences(
            of: String(second), with: "#EXT-X-BYTERANGE:\(parts[0] + 188)@\(parts[1] - 188)")
        try Data(overlapping.utf8).write(to: URL(fileURLWithPath: playlist))
        let before = try snapshot(stream)
        await #expect {
            try await PosterEmbedder(request).run()
        } throws: { error in
            let text = (error as? EmbedError)?.description ?? ""
            return text.contains("audio/index.m3u8:") && text.contains("overlaps the one on line")
                && text.contains("audio.ts")
        }
        #expect(try snapshot(stream) == before, "nothing was written")

        // A second playlist (an alternative rendition, say) over the same file.
        try Data(original.utf8).write(to: URL(fileURLWithPath: playlist))
        try Data(original.utf8).write(to: URL(fileURLWithPath: stream + "/audio/other.m3u8"))
        var text = try String(contentsOfFile: multivariant, encoding: .utf8)
        text += "#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio/other.m3u8\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        var one = request
        one.variants = ["audio/index.m3u8"]
        let shared = try snapshot(stream)
        await #expect {
            try await PosterEmbedder(one).run()
        } throws: { error in
            let text = (error as? EmbedError)?.description ?? ""
            return text.contains("other.m3u8") && text.contains("give each playlist its own file")
        }
        #expect(try snapshot(stream) == shared, "nothing was written")
    }

    /// RFC 8216 §4.3.2.2 lets a range leave out its offset when it follows the previous
    /// segment's range of the same file: the rewritten playlist gives every offset, and the
    /// ranges still cover the new file back to back.
    @Test func impliedOffsetsAreWrittenOutAndTheRangesStillCoverTheNewFile() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Self.ladder(.transportStream, in: folder)
        let playlist = folder.path("stream/audio/index.m3u8")
        var lines = try String(contentsOfFile: playlist, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        var seen = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-BYTERANGE:") {
            seen += 1
            if seen > 1, let at = line.firstIndex(of: "@") { lines[index] = String(line[..<at]) }
        }
        #expect(seen == 3)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: playlist))

        let outcome = try await PosterEmbedder(
            EmbedRequest(
                input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
                destination: .folder(folder.path("out")))
        ).run()
        #expect(outcome.verdict.written.filter { $0.severity >= .warning }.isEmpty, "\(outcome.verdict.written)")
        let written = try String(contentsOfFile: folder.path("out/audio/index.m3u8"), encoding: .utf8)
        #expect(
            written.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.allSatisfy { $0.contains("@") },
            "\(written)")
        let segments = try ListedSegment.all(in: folder.path("out/audio/index.m3u8"))
        var end = 0
        for segment in segments {
            let range = try #require(segment.range)
            #expect(range.offset == end)
            end += range.length
            let pictures = EmbeddedID3.tags(in: try segment.playable(), container: .mpegTS).flatMap {
                $0.tag?.frames ?? []
            }
            .filter { if case .attachedPicture = $0 { return true } else { return false } }
            #expect(pictures.count == 1)
        }
        let file = try #require(segments.first?.file)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(end == size)
    }
}
