import Foundation
import TestSupport
import Testing

/// Streams in folders whose names mean something in a URI (`Stream #1`, `what?`, `100%`,
/// `a%20b`): a path the user types is a file path, every character part of a name, while the
/// stream's own URIs stay URIs (docs/security.md, "Paths the user gives are not URIs").
@Suite("Paths the user types (CLI)")
struct TypedPathCommandTests {
    static let awkwardFolders = ["Stream #1", "what?", "100%", "a%20b"]

    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> CommandResult {
        let result = try HLSCheckBinary.run(arguments, in: folder.url, timeLimit: .seconds(180))
        #expect(!result.killedBySignal, "hlscheck \(arguments) did not finish: \(result.stderr)")
        return result
    }

    /// Samples/compliant copied to `<parent>/stream`, its audio folder renamed `au dio` and its
    /// first segment `seg 0.ts`, written `au%20dio/` and `seg%200.ts` in the playlists: the
    /// stream's URIs are encoded, the folder the user names is not. `findings` adds two: the
    /// audio variant's BANDWIDTH too low (master.m3u8:8:19) and a suppression that excuses
    /// nothing (au dio/index.m3u8:7).
    static func encodedStream(in folder: TemporaryFolder, parent: String, findings: Bool = false) throws {
        let files = FileManager.default
        let stream = folder.url.appendingPathComponent(parent).appendingPathComponent("stream")
        try files.createDirectory(at: stream.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(at: PackageRoot.url.appendingPathComponent("Samples/compliant"), to: stream)
        let audio = stream.appendingPathComponent("au dio")
        try files.moveItem(at: stream.appendingPathComponent("audio"), to: audio)
        try files.moveItem(at: audio.appendingPathComponent("seg0.ts"), to: audio.appendingPathComponent("seg 0.ts"))
        try rewrite(audio.appendingPathComponent("index.m3u8")) {
            $0.replacingOccurrences(
                of: "\nseg0.ts\n",
                with: findings ? "\n# hlscheck-disable-next-line codecs-mismatch\nseg%200.ts\n" : "\nseg%200.ts\n")
        }
        try rewrite(stream.appendingPathComponent("master.m3u8")) {
            let encoded = $0.replacingOccurrences(of: "\naudio/index.m3u8", with: "\nau%20dio/index.m3u8")
            return findings ? encoded.replacingOccurrences(of: "BANDWIDTH=47133", with: "BANDWIDTH=30000") : encoded
        }
    }

    static func rewrite(_ url: URL, _ change: (String) -> String) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = change(text)
        try #require(changed != text, "\(url.lastPathComponent) was not rewritten")
        try Data(changed.utf8).write(to: url)
    }

    /// Beside `a%20b/`, a folder `a b/` holding a broken copy: reading the decoded name instead
    /// of the one typed would find its errors.
    static func decodedNeighbour(of parent: String, in folder: TemporaryFolder) throws {
        guard parent == "a%20b" else { return }
        try encodedStream(in: folder, parent: "a b")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("a b/stream/au dio/seg 0.ts"))
        try rewrite(folder.url.appendingPathComponent("a b/stream/master.m3u8")) {
            $0.replacingOccurrences(of: "BANDWIDTH=47133", with: "BANDWIDTH=1000")
        }
    }

    @Test(arguments: awkwardFolders)
    func aStreamInAFolderNamedLikeAURIChecksClean(_ parent: String) throws {
        let folder = try TemporaryFolder()
        try Self.encodedStream(in: folder, parent: parent)
        try Self.decodedNeighbour(of: parent, in: folder)
        for arguments in [
            ["\(parent)/stream/master.m3u8"], [folder.path("\(parent)/stream/master.m3u8")], ["\(parent)/stream"],
            ["--root", parent, "\(parent)/stream/master.m3u8"],
        ] {
            let result = try run(["check", "--show-variants"] + arguments, in: folder)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(
                !result.stdout.contains("unreadable") && !result.stdout.contains("uri-outside-root"),
                "\(arguments): \(result.stdout)")
            #expect(
                result.stdout.contains("1 stream checked: 0 errors, 0 warnings, 0 notes"),
                "\(arguments): \(result.stdout)")
            // Named as typed, as it opens from here (text shows paths from the working directory,
            // --root or not).
            #expect(
                result.stdout.contains("Variants of \(parent)/stream/master.m3u8\n"), "\(arguments): \(result.stdout)")
            // Every segment was read and measured, the encoded ones too.
            let audio = result.stdout.split(separator: "\n").first { $0.hasPrefix("  au%20dio/index.m3u8 ") }
            #expect(
                audio?.contains("47 kbit/s / 47 kbit/s") == true && audio?.contains("3 (18.0 s)") == true,
                "\(result.stdout)")
        }
    }

    /// Each format names the file for its reader: text, JUnit, GitHub and HTML by the path as
    /// typed, JSON likewise, SARIF by a URI reference encoded exactly once.
    @Test func everyReportFormatNamesTheFileAsTyped() throws {
        let folder = try TemporaryFolder()
        try Self.encodedStream(in: folder, parent: "Stream #1", findings: true)
        let multivariant = "Stream #1/stream/master.m3u8"
        let audio = "Stream #1/stream/au dio/index.m3u8"

        let text = try run(["check", multivariant], in: folder)
        #expect(text.status == 1)
        #expect(
            text.stdout.contains("\(multivariant):8:19: error: BANDWIDTH=30000 but au%20dio/index.m3u8 peaks at"),
            "\(text.stdout)")
        #expect(
            text.stdout.contains("\(audio):7: warning: # hlscheck-disable-next-line codecs-mismatch excused nothing"),
            "\(text.stdout)")
        #expect(text.stdout.contains("1 stream checked: 1 error, 1 warning, 0 notes"), "\(text.stdout)")

        let json = try run(["check", "--format", "json", multivariant], in: folder)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["inputs"] as? [String] == [multivariant])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let jsonFiles = Set(diagnostics.compactMap { ($0["location"] as? [String: Any])?["uri"] as? String })
        #expect(jsonFiles == [multivariant, audio], "\(json.stdout)")

        let junit = try run(["check", "--format", "junit", multivariant], in: folder)
        #expect(junit.stdout.contains("file=\"\(audio)\""), "\(junit.stdout)")
        #expect(
            junit.stdout.contains("file=\"\(multivariant)\"") || junit.stdout.contains("classname=\"\(multivariant)\""),
            "\(junit.stdout)")
        #expect(!junit.stdout.contains("Stream %231") && !junit.stdout.contains("Stream%20%231"), "\(junit.stdout)")

        let github = try run(["check", "--format", "github", multivariant], in: folder)
        #expect(
            github.stdout.contains("::error file=\(multivariant),line=8,col=19,title=hlscheck bandwidth-below-peak::"),
            "\(github.stdout)")
        #expect(
            github.stdout.contains("::warning file=\(audio),line=7,title=hlscheck suppression-unused::"),
            "\(github.stdout)")

        let sarif = try run(["check", "--format", "sarif", multivariant], in: folder)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let artifacts = Set(
            results.compactMap { result -> String? in
                let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                return (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
            })
        #expect(
            artifacts == ["Stream%20%231/stream/master.m3u8", "Stream%20%231/stream/au%20dio/index.m3u8"],
            "\(sarif.stdout)")
        #expect(!sarif.stdout.contains("%25"), "an escape was encoded twice")

        let html = try run(["check", "--format", "html", multivariant], in: folder)
        #expect(html.stdout.contains("\(multivariant):8:19"), "the HTML report names \(multivariant)")
        #expect(html.stdout.contains(audio))
        #expect(!html.stdout.contains("Stream %231"))
    }

    /// A baseline records the files by their paths and the lines read from them; the next run
    /// excuses those findings. A suppression comment in the encoded playlist is found at its line.
    @Test func baselinesAndSuppressionsWorkInSuchAFolder() throws {
        let folder = try TemporaryFolder()
        try Self.encodedStream(in: folder, parent: "what?/Stream #1", findings: true)
        let multivariant = "what?/Stream #1/stream/master.m3u8"
        let written = try run(["check", multivariant, "--write-baseline", "baseline.json"], in: folder)
        #expect(written.status == 1, "\(written.stdout)\(written.stderr)")
        let baseline = try String(contentsOf: folder.url.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(baseline.contains("\"file\" : \"\(multivariant)\""), "\(baseline)")
        #expect(
            baseline.contains("\"source\" : \"#EXT-X-STREAM-INF:BANDWIDTH=30000,"),
            "the line was read from the file: \(baseline)")
        #expect(baseline.contains("\"source\" : \"# hlscheck-disable-next-line codecs-mismatch\""), "\(baseline)")
        let excused = try run(["check", multivariant, "--baseline", "baseline.json"], in: folder)
        #expect(excused.status == 0, "\(excused.stdout)\(excused.stderr)")
        #expect(excused.stdout.contains("0 errors, 0 warnings"), "\(excused.stdout)")

        // A comment in the playlist excuses the finding on its next line.
        try Self.rewrite(folder.url.appendingPathComponent(multivariant)) {
            $0.replacingOccurrences(
                of: "#EXT-X-STREAM-INF:BANDWIDTH=30000",
                with: "# hlscheck-disable-next-line bandwidth-below-peak\n#EXT-X-STREAM-INF:BANDWIDTH=30000")
        }
        let suppressed = try run(["check", multivariant], in: folder)
        #expect(suppressed.status == 0, "\(suppressed.stdout)")
        #expect(
            suppressed.stdout.contains("1 stream checked: 0 errors, 1 warning, 0 notes (1 suppressed)"),
            "\(suppressed.stdout)")
    }

    /// embed reads the stream from, and writes it into, folders named like URIs: the output
    /// plays (ffprobe reads every rewritten segment) and checks clean.
    @Test(arguments: [EmbedCommandTests.Container.transportStream, .packedAudio])
    func embedWritesIntoAndFromFoldersNamedLikeURIs(_ container: EmbedCommandTests.Container) throws {
        let folder = try TemporaryFolder()
        let input = try EmbedCommandTests.smallStream(container, in: folder, name: "Stream #1/in?put")
        let output = folder.path("out #2 100%/a%20b")
        let copied = try run(
            ["embed", "--image", EmbedCommandTests.poster, "\(input)/master.m3u8", "--output", output], in: folder)
        #expect(copied.status == 0, "\(copied.stdout)\(copied.stderr)")
        #expect(copied.stdout.contains("wrote \(output)/master.m3u8\n"), "\(copied.stdout)")
        #expect(copied.stdout.contains("0 errors, 0 warnings"), "\(copied.stdout)")
        try Self.expectPlays(output, container: container)
        let recheck = try run(["check", "\(output)/master.m3u8", "--show-variants"], in: folder)
        #expect(recheck.status == 0, "\(recheck.stdout)")
        #expect(recheck.stdout.contains("in 3/3"), "every segment carries the poster: \(recheck.stdout)")

        let inPlace = try run(
            ["embed", "--image", EmbedCommandTests.poster, "\(input)/master.m3u8", "--in-place"], in: folder)
        #expect(inPlace.status == 0, "\(inPlace.stdout)\(inPlace.stderr)")
        #expect(inPlace.stdout.contains("embedded the poster in 3 segments of audio/index.m3u8"), "\(inPlace.stdout)")
        try Self.expectPlays(input, container: container)
        let checked = try run(["check", "\(input)/master.m3u8", "--show-variants"], in: folder)
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("in 3/3"), "\(checked.stdout)")
    }

    /// ffprobe decodes the audio of every segment the stream's audio playlist lists.
    static func expectPlays(_ stream: String, container: EmbedCommandTests.Container) throws {
        let playlist = try String(contentsOfFile: "\(stream)/audio/index.m3u8", encoding: .utf8)
        let segments = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(segments.count == 3, "\(playlist)")
        for segment in segments {
            let probed = try ChildProcess.capture(
                ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", "\(stream)/audio/\(segment)"],
                executable: "/usr/bin/ffprobe")
            #expect(
                probed.status == 0 && !probed.killedBySignal && probed.stdout.contains("aac"),
                "\(container) \(segment): \(probed.stdout)\(probed.stderr)")
        }
    }

    @Test func addAudioOnlyWorksInAFolderNamedLikeAURI() throws {
        let folder = try TemporaryFolder()
        let parent = folder.url.appendingPathComponent("Stream #1?")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        for name in ["no-audio-only", "compliant"] {
            try FileManager.default.copyItem(
                at: PackageRoot.url.appendingPathComponent("Samples/\(name)"), to: parent.appendingPathComponent(name))
        }
        let result = try run(
            [
                "embed", "--add-audio-only", "--image", EmbedCommandTests.poster,
                "Stream #1?/no-audio-only/master.m3u8", "--in-place",
                "--root", "Stream #1?",
            ], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("added the audio-only variant audio-only/index.m3u8 "), "\(result.stdout)")
        #expect(result.stdout.contains("1 stream checked: 0 errors, 0 warnings, 0 notes"), "\(result.stdout)")
        let check = try run(["check", "Stream #1?/no-audio-only/master.m3u8", "--root", "Stream #1?"], in: folder)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// `artwork` and `inspect` take paths too: `a%20b/seg.ts` is that file, not `a b/seg.ts`.
    @Test func artworkAndInspectReadTheFilesTyped() throws {
        let folder = try TemporaryFolder()
        try Self.encodedStream(in: folder, parent: "Stream #1")
        let artwork = try run(["artwork", "Stream #1/stream/master.m3u8"], in: folder)
        #expect(artwork.status == 0, "\(artwork.stdout)\(artwork.stderr)")
        #expect(
            artwork.stdout.contains(
                "Stream #1/stream/au dio/index.m3u8 (Stream #1/stream/au dio/seg 0.ts): image/jpeg, 6449 bytes, 320x180"
            ),
            "\(artwork.stdout)")

        let samples = PackageRoot.url.appendingPathComponent("Samples/compliant")
        for (name, source) in [("a%20b", "audio/seg0.ts"), ("a b", "v0/seg0.ts")] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(source), to: folder.url.appendingPathComponent("\(name)/seg.ts"))
        }
        let inspect = try run(["inspect", "a%20b/seg.ts"], in: folder)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.hasPrefix("a%20b/seg.ts: mpegts"), "\(inspect.stdout)")
        #expect(
            inspect.stdout.contains("APIC image/jpeg (6449 bytes)"), "the audio segment was read: \(inspect.stdout)")
        #expect(!inspect.stdout.contains("video"), "the neighbour a b/seg.ts was read: \(inspect.stdout)")
        let poster = try run(["artwork", "a%20b/seg.ts"], in: folder)
        #expect(poster.stdout.contains("a%20b/seg.ts: image/jpeg, 6449 bytes"), "\(poster.stdout)\(poster.stderr)")
    }

    /// A folder name cannot forge a line of a report or a message: a line break and a
    /// right-to-left override in it are shown escaped, in check's text and GitHub output and in
    /// what embed prints about its output folder.
    @Test func aFolderNameCannotForgeALine() throws {
        let folder = try TemporaryFolder()
        let hostile = "x\nhlscheck: forged\u{202E}y"
        try Self.encodedStream(in: folder, parent: hostile, findings: true)
        let escaped = "x\\x0ahlscheck: forged\\u{202e}y"
        for format in ["text", "github"] {
            let result = try run(["check", "--format", format, "\(hostile)/stream/master.m3u8"], in: folder)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            let lines = (result.stdout + result.stderr).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("hlscheck: forged") }, "\(format): \(result.stdout)")
            #expect(!(result.stdout + result.stderr).contains("\u{202E}"), "\(format)")
            // GitHub's workflow commands encode a line break and a property's ':' themselves.
            let github = "x%0Ahlscheck%3A forged\\u{202e}y"
            #expect(
                result.stdout.contains(
                    format == "text"
                        ? "\(escaped)/stream/master.m3u8:8:19: error:" : "file=\(github)/stream/master.m3u8,line=8"),
                "\(format): \(result.stdout)")
        }
        let input = try EmbedCommandTests.smallStream(.packedAudio, in: folder, name: "plain")
        let embedded = try run(
            [
                "embed", "--image", EmbedCommandTests.poster, "\(input)/master.m3u8", "--output",
                folder.path(hostile + "-out"),
            ], in: folder)
        #expect(embedded.status == 0, "\(embedded.stdout)\(embedded.stderr)")
        let lines = (embedded.stdout + embedded.stderr).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("hlscheck: forged") }, "\(embedded.stdout)")
        #expect(!(embedded.stdout + embedded.stderr).contains("\u{202E}"))
        #expect(
            embedded.stdout.contains("wrote \(folder.path("x"))\\x0ahlscheck: forged\\u{202e}y-out/master.m3u8"),
            "\(embedded.stdout)")
    }
}
