import Foundation
import Testing
import TestSupport

/// A stream on disk whose URIs are URIs (RFC 8216 §4.1, RFC 3986): percent-encoded names, query
/// strings and fragments name the decoded file, and an encoded '/' cannot climb out of the root.
@Suite("Local URIs (CLI)")
struct LocalURICommandTests {
    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> CommandResult {
        let result = try HLSCheckBinary.run(arguments, in: folder.url, timeLimit: .seconds(120))
        #expect(!result.killedBySignal, "hlscheck \(arguments) did not finish: \(result.stderr)")
        return result
    }

    /// Samples/compliant copied, its audio folder renamed `au dio`, its first segment `seg 0.ts`;
    /// the playlists name them `au%20dio/` and `seg%200.ts`, the other segments carry a query
    /// and a fragment (what a CDN download and an encoding tool leave on disk).
    func encodedStream() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let files = FileManager.default
        let stream = folder.url.appendingPathComponent("stream")
        try files.copyItem(at: PackageRoot.url.appendingPathComponent("Samples/compliant"), to: stream)
        let audio = stream.appendingPathComponent("au dio")
        try files.moveItem(at: stream.appendingPathComponent("audio"), to: audio)
        try files.moveItem(at: audio.appendingPathComponent("seg0.ts"), to: audio.appendingPathComponent("seg 0.ts"))
        try rewrite(audio.appendingPathComponent("index.m3u8")) {
            $0.replacingOccurrences(of: "\nseg0.ts\n", with: "\nseg%200.ts\n")
                .replacingOccurrences(of: "\nseg1.ts\n", with: "\nseg1.ts?token=abc&v=1\n")
                .replacingOccurrences(of: "\nseg2.ts\n", with: "\nseg2.ts#t=0\n")
        }
        try rewrite(stream.appendingPathComponent("master.m3u8")) {
            $0.replacingOccurrences(of: "\naudio/index.m3u8", with: "\nau%20dio/index.m3u8")
        }
        return folder
    }

    func rewrite(_ url: URL, _ change: (String) -> String) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = change(text)
        try #require(changed != text, "\(url.lastPathComponent) was not rewritten")
        try Data(changed.utf8).write(to: url)
    }

    @Test func percentEncodedNamesAndQueriesCheckClean() throws {
        let folder = try encodedStream()
        let result = try run(["check", "stream/master.m3u8", "--show-variants"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("unreadable"))
        // The location keeps the URI as written; the bit rate is measured from the decoded files.
        let row = result.stdout.split(separator: "\n").first { $0.contains("au%20dio/index.m3u8") }
        #expect(row?.contains("47 kbit/s / 47 kbit/s") == true, "\(result.stdout)")
        #expect(row?.contains("3 (18.0 s)") == true, "\(result.stdout)")
    }

    /// EXT-X-MAP's URI attribute is a URI too: `in%20it.mp4?v=3` names the file `in it.mp4`.
    @Test func encodedInitSectionURIIsRead() throws {
        let folder = try TemporaryFolder()
        let audio = folder.url.appendingPathComponent("audio")
        try FileManager.default.copyItem(at: PackageRoot.url.appendingPathComponent("Samples/fmp4/audio"), to: audio)
        try FileManager.default.moveItem(
            at: audio.appendingPathComponent("init.mp4"), to: audio.appendingPathComponent("in it.mp4"))
        try rewrite(audio.appendingPathComponent("index.m3u8")) {
            $0.replacingOccurrences(of: "URI=\"init.mp4\"", with: "URI=\"in%20it.mp4?v=3\"")
        }
        let result = try run(["check", "audio/index.m3u8", "--show-variants"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("- / 44 kbit/s"))
        #expect(result.stdout.contains("3 (18.0 s)"))
    }

    @Test func artworkAndInspectReadAnEncodedStream() throws {
        let folder = try encodedStream()
        let artwork = try run(["artwork", "stream/master.m3u8", "--extract", "poster.jpg"], in: folder)
        #expect(artwork.status == 0, "\(artwork.stdout)\(artwork.stderr)")
        // The files that were read, by their paths (the playlists name them au%20dio/, seg%200.ts).
        #expect(
            artwork.stdout.contains(
                "stream/au dio/index.m3u8 (stream/au dio/seg 0.ts): image/jpeg, 6449 bytes, 320x180"),
            "\(artwork.stdout)")
        let extracted = try Data(contentsOf: folder.url.appendingPathComponent("poster.jpg"))
        #expect(extracted.starts(with: [0xFF, 0xD8]))
        let inspect = try run(["inspect", "stream/au dio/seg 0.ts"], in: folder)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("APIC image/jpeg (6449 bytes)"))
    }

    /// `secret.ts` lies beside the stream's folder; every spelling below reaches it only by
    /// decoding, and none is read.
    @Test(arguments: [[String](), ["--root", "stream"]])
    func encodedSlashCannotEscapeTheRoot(_ rootArguments: [String]) throws {
        let folder = try TemporaryFolder([
            "secret.ts": "TOP-SECRET-CONTENT\n",
            "stream/index.m3u8": """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            ..%2Fsecret.ts
            #EXTINF:6,
            %2E%2E/secret.ts
            #EXTINF:6,
            ok.ts%00.txt
            #EXT-X-ENDLIST

            """,
        ])
        let result = try run(["check"] + rootArguments + ["stream/index.m3u8"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("index.m3u8:4: error: ..%2Fsecret.ts names no file inside the stream's root"))
        #expect(result.stdout.contains("holds %2F, an encoded '/'"))
        #expect(result.stdout.contains("index.m3u8:6: error: %2E%2E/secret.ts lies outside the stream's root"))
        #expect(result.stdout.contains("index.m3u8:8: error: ok.ts%00.txt names no file inside the stream's root"))
        #expect(!result.stdout.contains("TOP-SECRET"))
        #expect(!result.stdout.contains("segment-unreadable"))
    }

    @Test func encodedSlashIsRefusedEvenOutsideTheRoot() throws {
        let folder = try TemporaryFolder([
            "secret.ts": "TOP-SECRET-CONTENT\n",
            "stream/index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n..%2Fsecret.ts\n#EXT-X-ENDLIST\n",
        ])
        let result = try run(["check", "--allow-outside-root", "stream/index.m3u8"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.contains("segment ..%2Fsecret.ts: not read: its path holds %2F"))
        #expect(!result.stdout.contains("TOP-SECRET"))
    }

    /// Missing under its decoded name, a file is read under the name as written (a tool that
    /// wrote `a%20b.ts` to disk); invalid percent-encoding stays literal; when neither name
    /// exists, the finding names both.
    @Test func decodedNameFirstThenTheNameAsWrittenAndBothNamedWhenMissing() throws {
        let folder = try TemporaryFolder()
        let segment = try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg0.ts"))
        try folder.write(segment, to: "lit%20eral.ts")
        try folder.write(segment, to: "100%.ts")
        try folder.write(
            Data(
                """
                #EXTM3U
                #EXT-X-TARGETDURATION:7
                #EXTINF:6.013967,
                lit%20eral.ts
                #EXTINF:6.013967,
                100%.ts
                #EXTINF:6.013967,
                gone%20away.ts?v=2
                #EXT-X-ENDLIST

                """.utf8), to: "index.m3u8")
        let result = try run(["check", "index.m3u8"], in: folder)
        let unreadable = result.stdout.split(separator: "\n").filter { $0.contains("[segment-unreadable]") }
        #expect(unreadable.count == 1, "\(result.stdout)")
        #expect(
            unreadable.first?.contains(
                "index.m3u8:7: error: segment gone%20away.ts?v=2: no such file: tried 'gone away.ts'") == true)
        #expect(
            unreadable.first?.contains(
                "and 'gone%20away.ts?v=2' (as written); it is left out of this playlist's bit-rate measurement") == true
        )
    }

    /// A decoded name that is a looping link is the file meant: the finding says the link loops,
    /// not "no such file" (it said that, since a loop has no real path).
    @Test func aLoopingLinkNamedByAnEncodedURISaysItLoops() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("lo op.ts"), withDestinationPath: "lo op.ts")
        try folder.write(
            Data("#EXTM3U\n#EXT-X-TARGETDURATION:7\n#EXTINF:6.0,\nlo%20op.ts\n#EXT-X-ENDLIST\n".utf8), to: "index.m3u8")
        let result = try run(["check", "index.m3u8"], in: folder)
        let unreadable = result.stdout.split(separator: "\n").filter { $0.contains("[segment-unreadable]") }
        #expect(unreadable.count == 1, "\(result.stdout)")
        #expect(
            unreadable.first?.contains("index.m3u8:3: error: segment lo%20op.ts: is a symbolic link in a loop of links")
                == true, "\(result.stdout)")
        #expect(unreadable.first?.contains("no such file") == false)
    }

    @Test func embedRefusesEncodedURIsBeforeWritingAnything() throws {
        let folder = try encodedStream()
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted()
        let multivariant = try Data(contentsOf: folder.url.appendingPathComponent("stream/master.m3u8"))
        let result = try run(
            [
                "embed", "--image", PackageRoot.url.appendingPathComponent("Samples/poster.jpg").path, "--in-place",
                "stream/master.m3u8",
            ],
            in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "stream/master.m3u8:9: embed cannot rewrite au%20dio/index.m3u8: it names the file 'stream/au dio/index.m3u8'"
            ))
        #expect(result.stderr.contains("rename the file or folder to a plain name"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted() == before)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("stream/master.m3u8")) == multivariant)
    }

    @Test func embedNamesTheSegmentLineWithAQuery() throws {
        let folder = try encodedStream()
        // Only the segments are encoded: the audio playlist's folder has a plain name again.
        try FileManager.default.moveItem(
            at: folder.url.appendingPathComponent("stream/au dio"),
            to: folder.url.appendingPathComponent("stream/audio"))
        try rewrite(folder.url.appendingPathComponent("stream/master.m3u8")) {
            $0.replacingOccurrences(of: "au%20dio/", with: "audio/")
        }
        let result = try run(
            [
                "embed", "--image", PackageRoot.url.appendingPathComponent("Samples/poster.jpg").path,
                "--output", "out", "stream/master.m3u8",
            ], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "stream/audio/index.m3u8:7: embed cannot rewrite seg%200.ts: it names the file 'stream/audio/seg 0.ts'")
        )
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }
}
