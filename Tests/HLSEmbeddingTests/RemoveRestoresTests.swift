import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// `embed --remove` gives back the bytes from before the embed, and says what it keeps: the
/// PRIV timestamp packed audio must start with (RFC 8216 §3.4), even one an embed added.
@Suite struct RemoveRestoresTests {
    static func run(_ input: String, _ poster: Poster?, into output: String) async throws -> EmbedOutcome {
        try await PosterEmbedder(
            EmbedRequest(input: input, poster: poster, posterName: "p", destination: .folder(output))
        ).run()
    }

    /// Bytes of the ID3 tags at the very start of a packed-audio segment.
    static func leadingTagBytes(_ bytes: [UInt8]) -> Int {
        var position = 0
        while bytes.count - position >= 10, Array(bytes[position..<position + 3]) == Array("ID3".utf8) {
            let size = bytes[(position + 6)..<(position + 10)].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            position += 10 + size
        }
        return position
    }

    @Test(arguments: ["compliant", "packed-audio", "fmp4"])
    func removingGivesBackTheBytesFromBeforeTheEmbed(_ sample: String) async throws {
        let (folder, multivariant) = try sampleCopy(sample)
        // The samples carry a poster: first a poster-free stream, then the poster in and out again.
        let clean = try await Self.run(multivariant, nil, into: folder.path("clean"))
        let embedded = try await Self.run(
            clean.output, try Poster(image: fixture("poster.jpg")), into: folder.path("with"))
        #expect(try snapshot(folder.path("with")) != snapshot(folder.path("clean")))
        let back = try await Self.run(embedded.output, nil, into: folder.path("back"))
        #expect(
            try snapshot(folder.path("back")) == snapshot(folder.path("clean")), "every byte of every file restored")
        let notes = back.targets.flatMap(\.notes)
        if sample == "packed-audio" {
            #expect(
                notes.count == 1
                    && notes[0].hasPrefix("kept the ID3 PRIV timestamp that starts 3 packed-audio segments"), "\(notes)"
            )
            #expect(notes.first?.contains("RFC 8216 §3.4") == true)
        } else {
            #expect(notes.isEmpty, "nothing kept in \(sample): \(notes)")
        }
    }

    @Test func removalKeepsThePRIVTimestampAnEmbedAddedAndSaysSo() async throws {
        let (folder, multivariant) = try sampleCopy("packed-audio")
        // Packed audio as some packagers write it: no ID3 tag at all, hence no timestamp.
        var stripped: [String: [UInt8]] = [:]
        for index in 0..<3 {
            let path = folder.path("packed-audio/audio/seg\(index).aac")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            stripped["seg\(index).aac"] = Array(bytes.dropFirst(Self.leadingTagBytes(bytes)))
            try Data(stripped["seg\(index).aac"] ?? []).write(to: URL(fileURLWithPath: path))
        }
        let embedded = try await Self.run(
            multivariant, try Poster(image: fixture("poster.jpg")), into: folder.path("with"))
        #expect(
            embedded.targets.flatMap(\.notes).contains {
                $0.hasPrefix("added an ID3 PRIV timestamp to 3 packed-audio segments")
            },
            "\(embedded.targets.flatMap(\.notes))")

        let back = try await Self.run(embedded.output, nil, into: folder.path("back"))
        #expect(
            back.targets.flatMap(\.notes).contains {
                $0.hasPrefix("kept the ID3 PRIV timestamp that starts 3 packed-audio segments")
            })
        let files = try segmentFiles(of: folder.path("back/audio/index.m3u8"))
        #expect(files.count == 3)
        for (index, file) in files.enumerated() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            let tagBytes = Self.leadingTagBytes(bytes)
            // The audio is back byte for byte; only the timestamp tag stays in front of it.
            #expect(Array(bytes.dropFirst(tagBytes)) == stripped["seg\(index).aac"])
            let tag = try #require(try ID3Tag.parse(bytes[..<tagBytes]).tag)
            #expect(tag.frames.map(\.id) == ["PRIV"])
            #expect(tag.transportStreamTimestamp != nil)
        }
        #expect(!back.verification.diagnostics.contains { $0.rule == "packed-audio-timestamp-missing" })
    }
}
