import Foundation
import TestSupport
import Testing

@Suite struct EmbedCommandTests {
    /// A fresh copy of Samples/compliant in its own temporary folder.
    static func copyOfCompliantSample() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: PackageRoot.url.appendingPathComponent("Samples/compliant"),
            to: folder.url.appendingPathComponent("stream"))
        return (folder, folder.path("stream"))
    }

    static let poster = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/poster.jpg").path

    static let fixtures = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures")
    static let otherPoster = fixtures.appendingPathComponent("poster.png").path

    enum Container: String, CaseIterable, Sendable {
        case transportStream = "compliant", packedAudio = "packed-audio", fragmentedMP4 = "fmp4"
    }

    enum Mode: String, CaseIterable, Sendable {
        case output, inPlace
    }

    /// A small stream: the audio-only variant of a bundled sample, alone under a multivariant
    /// playlist (three segments of 6 s, about 100 KB).
    static func smallStream(_ container: Container, in folder: TemporaryFolder, name: String = "stream") throws
        -> String
    {
        let stream = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: PackageRoot.url.appendingPathComponent("Samples/\(container.rawValue)/audio"),
            to: stream.appendingPathComponent("audio"))
        let multivariant =
            "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-STREAM-INF:BANDWIDTH=47133,AVERAGE-BANDWIDTH=46782,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
        try Data(multivariant.utf8).write(to: stream.appendingPathComponent("master.m3u8"))
        return stream.path
    }

    /// Runs `hlscheck embed`; nil when the process was killed (by the test hook). A run killed
    /// at its time limit (a hang) is returned, with its signal as the status, so that it fails.
    static func embed(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult? {
        let result = try ChildProcess.capture(
            ["embed"] + arguments, executable: HLSCheckBinary.executable, environment: environment)
        return result.killedBySignal && !result.timedOut ? nil : result
    }

    /// Starts `hlscheck embed` so that it stops itself (SIGSTOP) after write step `step`, and
    /// returns once it has stopped.
    static func startStopped(_ arguments: [String], atStep step: Int) throws -> ChildProcess {
        let run = try ChildProcess(
            HLSCheckBinary.executable, ["embed"] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(["HLSCHECK_TEST_STOP_AT_STEP": String(step)]) {
                $1
            })
        _ = run.waitUntilStopped()
        return run
    }

    /// What a player reads, checked against the two complete versions: the multivariant playlist,
    /// the media playlist and every file it references are each entirely one version, and the
    /// files the media playlist references are all of its own version.
    static func versions(in folder: String, _ versions: [[String: Data]]) -> (
        multivariant: Int?, media: Int?, problems: [String]
    ) {
        func version(_ path: String) -> Int? {
            let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(path))
            return versions.firstIndex { $0[path] == data && data != nil }
        }
        guard let multivariant = version("master.m3u8") else {
            return (nil, nil, ["master.m3u8 is of neither version"])
        }
        guard let media = version("audio/index.m3u8") else {
            return (multivariant, nil, ["audio/index.m3u8 is of neither version"])
        }
        var problems: [String] = []
        for uri in referencedURIs(versions[media]["audio/index.m3u8"] ?? Data()) {
            let path = "audio/" + uri
            let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(path))
            if data == nil || data != versions[media][path] {
                problems.append(
                    "\(path), referenced by audio/index.m3u8 of version \(media), is \(data == nil ? "missing" : "of another version")"
                )
            }
        }
        return (multivariant, media, problems)
    }

    static func referencedURIs(_ playlist: Data) -> [String] {
        String(decoding: playlist, as: UTF8.self).split(separator: "\n").flatMap { line -> [String] in
            if !line.hasPrefix("#") { return [String(line)] }
            guard let start = line.range(of: "URI=\""), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                return []
            }
            return [String(line[start.upperBound..<end])]
        }
    }

    static func temporaryFiles(_ folder: String) throws -> Set<String> {
        Set(try snapshot(folder).keys.filter { $0.contains(".hlscheck-embed-") && $0.hasSuffix(".tmp") })
    }

    static let killCases: [(Container, Mode)] = Container.allCases.flatMap { container in
        Mode.allCases.map { (container, $0) }
    }

    /// 50 runs killed with SIGKILL, each at a step drawn with a fixed seed among every write
    /// (4 KiB chunks), rename and removal the run makes, one after the other on the same stream,
    /// each embedding the poster the stream does not hold, in both modes and for every container. After each kill a
    /// player sees one version or the other, each whole; each run removes what the one before
    /// left; the last run, not killed, leaves exactly the stream a clean run writes.
    @Test(
        .enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"),
        arguments: killCases)
    func killedAtAnyStepLeavesTheOldOrTheNewStreamAndTheNextRunFinishes(_ container: Container, _ mode: Mode) throws {
        try Self.killedRuns(container, mode, keepNames: false)
    }

    /// The same 50 kills with `--keep-names`, where each rewritten segment is renamed over the
    /// file of its own name and the media playlist keeps its bytes: after each kill every
    /// segment is wholly the old or the new one (never missing, never a mix of the two), the
    /// multivariant playlist is new only once every segment is, the next run removes what the
    /// killed one left, and the last run leaves exactly the stream a clean run writes.
    @Test(
        .enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"),
        arguments: killCases)
    func killedAtAnyStepWithKeptNamesLeavesEachSegmentOldOrNewAndTheNextRunFinishes(
        _ container: Container, _ mode: Mode
    ) throws {
        try Self.killedRuns(container, mode, keepNames: true)
    }

    /// What a player reads under `--keep-names`, against the two complete versions (the same
    /// names in both): the version of the multivariant playlist, of each other file, and what is
    /// neither.
    static func keptNameVersions(in folder: String, _ versions: [[String: Data]]) -> (
        multivariant: Int?, segments: [Int?], problems: [String]
    ) {
        func version(_ path: String) -> Int? {
            let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(path))
            return versions.firstIndex { $0[path] == data && data != nil }
        }
        var problems: [String] = []
        let multivariant = version("master.m3u8")
        if multivariant == nil { problems.append("master.m3u8 is of neither version") }
        #expect(Set(versions[0].keys) == Set(versions[1].keys), "--keep-names: both versions have the same file names")
        var segments: [Int?] = []
        for path in versions[0].keys.sorted() where path != "master.m3u8" && versions[0][path] != versions[1][path] {
            let current = version(path)
            if current == nil {
                problems.append(
                    "\(path) is \(FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(path)) ? "of neither version" : "missing")"
                )
            }
            segments.append(current)
        }
        for path in versions[0].keys.sorted()
        where path != "master.m3u8" && versions[0][path] == versions[1][path] && version(path) == nil {
            problems.append("\(path), the same in both versions, changed or is missing")
        }
        return (multivariant, segments, problems)
    }

    /// The same 50 kills on a single-file stream (ffmpeg's `-hls_flags single_file`: every
    /// segment a byte range of one file, written again whole under a new name with its ranges
    /// moved): after each kill the media playlist and the file its ranges point into are of one
    /// version, and the next run finishes.
    @Test(
        .enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"),
        arguments: SingleFileLadder.allCases.flatMap { kind in Mode.allCases.map { (kind, $0) } })
    func killedAtAnyStepASingleFileStreamStaysOldOrNewAndTheNextRunFinishes(_ kind: SingleFileLadder, _ mode: Mode)
        throws
    {
        // One file of ≈ 25 KB and its playlist: fewer 4 KiB writes than the three segments above.
        let seed = 60 + (SingleFileLadder.allCases.firstIndex(of: kind) ?? 0) * 2 + (mode == .output ? 0 : 1)
        try Self.killedRuns(seed: seed, mode, keepNames: false, minimumSteps: 15) { folder in
            _ = try kind.make(in: folder.path("stream"))
        }
    }

    static func killedRuns(_ container: Container, _ mode: Mode, keepNames: Bool) throws {
        let seed = (Self.killCases.firstIndex { $0 == (container, mode) } ?? 0) + (keepNames ? 40 : 8)
        try killedRuns(seed: seed, mode, keepNames: keepNames) { folder in
            _ = try Self.smallStream(container, in: folder)
        }
    }

    /// Kills runs of `embed` on the stream `make` writes into `folder/stream` (see
    /// killedAtAnyStepLeavesTheOldOrTheNewStreamAndTheNextRunFinishes).
    static func killedRuns(
        seed: Int, _ mode: Mode, keepNames: Bool, minimumSteps: Int = 20, make: (TemporaryFolder) throws -> Void
    ) throws {
        let posters = [Self.otherPoster, Self.poster]
        func arguments(_ folder: TemporaryFolder, _ poster: Int) -> [String] {
            ["--image", posters[poster], folder.path("stream/master.m3u8")]
                + (mode == .output ? ["--output", folder.path("out")] : ["--in-place"])
                + (keepNames ? ["--keep-names"] : [])
        }
        func destination(_ folder: TemporaryFolder) -> String { folder.path(mode == .output ? "out" : "stream") }

        // The two complete versions (poster 0, then poster 1 over it) and each run's step count.
        let reference = try TemporaryFolder()
        try make(reference)
        let input = try snapshot(reference.path("stream"))
        var versions: [[String: Data]] = []
        var steps: [Int] = []
        for poster in [0, 1] {
            let run = try #require(
                try Self.embed(arguments(reference, poster), environment: ["HLSCHECK_TEST_COUNT_STEPS": "1"]))
            #expect(run.status == 0, "\(run.stderr)")
            versions.append(try snapshot(destination(reference)))
            steps.append(
                run.stderr.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.max()
                    ?? 0)
        }
        #expect(versions[0] != versions[1])
        #expect(steps.allSatisfy { $0 > minimumSteps }, "runs of \(steps) steps")
        if keepNames {
            #expect(
                versions[0]["audio/index.m3u8"] == input["audio/index.m3u8"],
                "--keep-names: the media playlist keeps its bytes")
        }

        let folder = try TemporaryFolder()
        try make(folder)
        let first = try #require(try Self.embed(arguments(folder, 0)))
        #expect(first.status == 0, "\(first.stderr)")
        var generator = SplitMix64(seed: UInt64(seed))
        var kills = 0
        var leftoversSeen = 0
        var run = 0
        while kills < 50 && run < 60 {
            run += 1
            // The other poster than the segments hold, so that every run has all of them to rewrite.
            let poster: Int
            let step: Int
            let result: CommandResult?
            let temporaries: Set<String>
            if keepNames {
                let before = Self.keptNameVersions(in: destination(folder), versions)
                poster = before.segments.allSatisfy { $0 == 1 } ? 0 : 1
                step = Int.random(in: 1...steps[poster], using: &generator)
                temporaries = try Self.temporaryFiles(destination(folder))
                result = try Self.embed(
                    arguments(folder, poster), environment: ["HLSCHECK_TEST_KILL_AT_STEP": String(step)])
                let after = Self.keptNameVersions(in: destination(folder), versions)
                #expect(after.problems.isEmpty, "run \(run), killed at step \(step): \(after.problems)")
                // The multivariant playlist is swapped in last: new only once every segment is.
                if versions[0]["master.m3u8"] != versions[1]["master.m3u8"], before.multivariant != poster,
                    after.multivariant == poster
                {
                    #expect(
                        after.segments.allSatisfy { $0 == poster },
                        "run \(run), killed at step \(step): the new master.m3u8 came before the new segments")
                }
            } else {
                let before = Self.versions(in: destination(folder), versions)
                poster = 1 - (before.media ?? 1)
                step = Int.random(in: 1...steps[poster], using: &generator)
                temporaries = try Self.temporaryFiles(destination(folder))
                result = try Self.embed(
                    arguments(folder, poster), environment: ["HLSCHECK_TEST_KILL_AT_STEP": String(step)])
                let after = Self.versions(in: destination(folder), versions)
                #expect(after.problems.isEmpty, "run \(run), killed at step \(step): \(after.problems)")
                // The input playlist is swapped in last: never new while its media playlist is old.
                if before.multivariant == before.media, after.multivariant == poster {
                    #expect(
                        after.media == poster,
                        "run \(run), killed at step \(step): the new master.m3u8 came before the new audio/index.m3u8")
                }
            }
            // What the run before left was removed first, and said so.
            let remaining = try Self.temporaryFiles(destination(folder))
            #expect(
                remaining.isDisjoint(with: temporaries),
                "run \(run): \(remaining.intersection(temporaries)) left from the run before")
            if !temporaries.isEmpty {
                leftoversSeen += 1
                #expect(result == nil || result?.stderr.contains("of an interrupted run") == true)
            }
            if let result {
                // The step was past the end of this run (it had less to do): it finished.
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    try snapshot(destination(folder)) == versions[poster],
                    "run \(run) finished but left something else than the clean result")
            } else {
                kills += 1
            }
        }
        #expect(kills == 50)
        #expect(leftoversSeen > 0, "some kills land in the middle of a file")
        let last = try #require(try Self.embed(arguments(folder, 1)))
        #expect(last.status == 0, "\(last.stderr)")
        #expect(
            try snapshot(destination(folder)) == versions[1], "the run after the kills leaves exactly the clean result")
        if mode == .output {
            #expect(try snapshot(folder.path("stream")) == input, "--output never changes the input")
        }
    }

    /// Starts `hlscheck embed`, which stops itself (SIGSTOP) at writing step `step`; returns once it has.
    /// `--output` to a folder that does not exist yet is built in a staging folder beside it and
    /// renamed into place once: killed at any of its steps, the folder is either absent or the
    /// complete copy, and the next run removes the staging folder and finishes.
    @Test(
        .enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"),
        arguments: Container.allCases)
    func killedWhileWritingANewOutputFolderLeavesNoFolderOrTheWholeCopy(_ container: Container) throws {
        let reference = try TemporaryFolder()
        _ = try Self.smallStream(container, in: reference)
        let counted = try #require(
            try Self.embed(
                ["--image", Self.poster, reference.path("stream/master.m3u8"), "--output", reference.path("out")],
                environment: ["HLSCHECK_TEST_COUNT_STEPS": "1"]))
        #expect(counted.status == 0, "\(counted.stderr)")
        let complete = try snapshot(reference.path("out"))
        let steps =
            counted.stderr.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.max()
            ?? 0
        #expect(steps > 20, "a run of \(steps) steps")

        let folder = try TemporaryFolder()
        _ = try Self.smallStream(container, in: folder)
        let input = try snapshot(folder.path("stream"))
        var generator = SplitMix64(seed: UInt64(Container.allCases.firstIndex(of: container) ?? 0) + 100)
        var leftoversSeen = 0
        for run in 1...20 {
            let step = Int.random(in: 1...steps, using: &generator)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
                $0.hasPrefix(".out.hlscheck-embed-")
            }
            let result = try Self.embed(
                ["--image", Self.poster, folder.path("stream/master.m3u8"), "--output", folder.path("out")],
                environment: ["HLSCHECK_TEST_KILL_AT_STEP": String(step)])
            if !leftovers.isEmpty {
                leftoversSeen += 1
                #expect(
                    result == nil || result?.stderr.contains("of an interrupted run") == true,
                    "run \(run): \(result?.stderr ?? "")")
                let remaining = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
                #expect(Set(leftovers).isDisjoint(with: remaining), "run \(run): \(leftovers) left from the run before")
            }
            if FileManager.default.fileExists(atPath: folder.path("out")) {
                #expect(
                    try snapshot(folder.path("out")) == complete,
                    "run \(run), killed at step \(step): out/ exists but is not the whole copy")
                try FileManager.default.removeItem(atPath: folder.path("out"))
            }
            if let result { #expect(result.status == 0, "\(result.stderr)") }
        }
        #expect(leftoversSeen > 0, "some kills land in the middle of the copy")
        let last = try #require(
            try Self.embed(["--image", Self.poster, folder.path("stream/master.m3u8"), "--output", folder.path("out")]))
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try snapshot(folder.path("out")) == complete)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["out", "stream"],
            "nothing of the runs is left beside the copy")
        #expect(try snapshot(folder.path("stream")) == input, "--output never changes the input")
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"))
    func aSecondRunOnTheSameStreamRefusesAndNamesTheFirstWhichFinishes() throws {
        let folder = try TemporaryFolder()
        let stream = try Self.smallStream(.transportStream, in: folder)
        let multivariant = stream + "/master.m3u8"
        let first = try Self.startStopped(["--image", Self.poster, multivariant, "--in-place"], atStep: 5)
        #expect(first.isRunning, "the first run stopped in the middle of writing")
        let lockHolder = try String(contentsOfFile: stream + "/.hlscheck-embed.lock", encoding: .utf8)
        #expect(lockHolder.hasPrefix("pid \(first.processIdentifier) on "))

        let second = try #require(try Self.embed(["--image", Self.otherPoster, multivariant, "--in-place"]))
        #expect(second.status == 2)
        #expect(
            second.stderr.contains("another hlscheck embed (pid \(first.processIdentifier) on "), "\(second.stderr)")
        #expect(second.stderr.contains("nothing was changed") && second.stderr.contains("--wait"))
        // A copy into another folder is not held up: the lock belongs to the folder written in.
        let copy = try #require(
            try Self.embed(["--image", Self.otherPoster, multivariant, "--output", folder.path("copy")]))
        #expect(copy.status == 0, "another folder: no conflict")

        first.signal(SIGCONT)
        #expect(first.wait().termination == .exited(0))
        // The first run's poster is what the stream holds; no lock file is left.
        let audio = try String(contentsOfFile: stream + "/audio/index.m3u8", encoding: .utf8)
        #expect(audio.contains(".embed-"))
        let copied = try String(contentsOfFile: folder.path("copy/audio/index.m3u8"), encoding: .utf8)
        #expect(copied != audio, "the copy carries the other poster")
        #expect(!FileManager.default.fileExists(atPath: stream + "/.hlscheck-embed.lock"))
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"))
    func aFileAnotherProgramSavesIntoTheStreamFolderDuringTheRunStays() throws {
        let folder = try TemporaryFolder()
        let stream = try Self.smallStream(.fragmentedMP4, in: folder)
        let run = try Self.startStopped(["--image", Self.poster, stream + "/master.m3u8", "--in-place"], atStep: 12)
        #expect(run.isRunning)
        try Data("saved while embed ran".utf8).write(to: URL(fileURLWithPath: stream + "/audio/notes.txt"))
        try Data("saved while embed ran".utf8).write(to: URL(fileURLWithPath: stream + "/cover.jpg"))
        run.signal(SIGCONT)
        #expect(run.wait().termination == .exited(0))
        #expect(FileManager.default.contents(atPath: stream + "/audio/notes.txt") == Data("saved while embed ran".utf8))
        #expect(FileManager.default.contents(atPath: stream + "/cover.jpg") == Data("saved while embed ran".utf8))
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"))
    func withWaitTheSecondRunWaitsForTheFirstAndBothResultsArriveInOrder() throws {
        let folder = try TemporaryFolder()
        let stream = try Self.smallStream(.packedAudio, in: folder)
        let multivariant = stream + "/master.m3u8"
        let first = try Self.startStopped(["--image", Self.poster, multivariant, "--in-place"], atStep: 5)
        let second = try ChildProcess(
            HLSCheckBinary.executable, ["embed", "--image", Self.otherPoster, multivariant, "--in-place", "--wait"],
            environment: ProcessInfo.processInfo.environment)
        // Until the second run says it waits (it writes nothing before that line).
        let said = second.read(.standardError) { $0.contains("\n") }
        #expect(
            said.contains("waiting for \(stream)/.hlscheck-embed.lock, held by pid \(first.processIdentifier)"),
            "\(said)")

        first.signal(SIGCONT)
        #expect(first.wait().termination == .exited(0))
        let secondEnded = second.wait()
        #expect(secondEnded.termination == .exited(0), "\(String(decoding: secondEnded.standardError, as: UTF8.self))")
        // The second poster (PNG) is the one the stream holds: it ran after the first, on its result.
        let segments = Self.referencedURIs(try Data(contentsOf: URL(fileURLWithPath: stream + "/audio/index.m3u8")))
        let segment = try Data(contentsOf: URL(fileURLWithPath: stream + "/audio/" + segments[0]))
        #expect(segment.range(of: Data("image/png".utf8)) != nil)
        #expect(segment.range(of: Data("image/jpeg".utf8)) == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: stream + "/audio")
        #expect(names.count == 4, "the playlist and three segments, nothing of the first run: \(names)")
    }

    @Test func refusesWithoutADestinationAndWithANonImage() throws {
        let (folder, stream) = try Self.copyOfCompliantSample()
        let noDestination = try HLSCheckBinary.run(["embed", "--image", Self.poster, stream + "/master.m3u8"])
        #expect(noDestination.status == 64)
        #expect(noDestination.stderr.contains("--output DIR for a copy, or --in-place"))
        let notImage = try HLSCheckBinary.run([
            "embed", "--image", stream + "/master.m3u8", stream + "/master.m3u8", "--output", folder.path("out"),
        ])
        #expect(notImage.status == 2)
        #expect(notImage.stderr.contains("master.m3u8"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func budgetRefusalPrintsTheNumbersAndExits2() throws {
        let (folder, stream) = try Self.copyOfCompliantSample()
        let large = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/poster-large.jpg").path
        let result = try HLSCheckBinary.run([
            "embed", "--image", large, stream + "/master.m3u8", "--output", folder.path("out"), "--budget-kbps", "48",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("poster-large.jpg is "))
        #expect(result.stderr.contains("would peak at"))
        #expect(result.stderr.contains("at most"))
    }

    // MARK: - Another program writing the stream meanwhile

    /// What a live encoder does at each new segment: the oldest segment leaves the playlist, a
    /// new one arrives, and the playlist is replaced by a rename (as ffmpeg's hls muxer does).
    static func slideWindow(_ stream: String) throws {
        let playlist = stream + "/audio/index.m3u8"
        var lines = try String(contentsOfFile: playlist, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("#EXTINF") })
        let dropped = lines[first + 1]
        lines.removeSubrange(first...first + 1)
        lines = lines.map { $0 == "#EXT-X-MEDIA-SEQUENCE:0" ? "#EXT-X-MEDIA-SEQUENCE:1" : $0 }
        let ending = (dropped as NSString).pathExtension
        try FileManager.default.copyItem(atPath: stream + "/audio/" + dropped, toPath: stream + "/audio/seg9." + ending)
        let end = try #require(lines.firstIndex(of: "#EXT-X-ENDLIST"))
        lines.insert(contentsOf: ["#EXTINF:6.0,", "seg9." + ending], at: end)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: stream + "/audio/.index.m3u8.new"))
        #expect(rename(stream + "/audio/.index.m3u8.new", playlist) == 0)
    }

    @Test(
        .enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"),
        arguments: [Container.transportStream, .packedAudio], Mode.allCases)
    func aPlaylistAnotherProgramRewritesDuringTheRunIsNeverOverwrittenNorShifted(_ container: Container, _ mode: Mode)
        throws
    {
        let folder = try TemporaryFolder()
        let stream = try Self.smallStream(container, in: folder)
        var arguments = ["--image", Self.poster, stream + "/master.m3u8"]
        arguments += mode == .inPlace ? ["--in-place"] : ["--output", folder.path("out")]
        let run = try Self.startStopped(arguments, atStep: 1)
        #expect(run.isRunning, "stopped after reading the stream, before writing it")
        try Self.slideWindow(stream)
        // Without the stopped run's lock file, which it removes when it ends.
        let written = try snapshot(stream).filter { !$0.key.hasSuffix(".hlscheck-embed.lock") }
        run.signal(SIGCONT)
        let ended = run.wait()
        let stderr = String(decoding: ended.standardError, as: UTF8.self)

        // Before: the new names went onto the lines the old playlist had them on — one segment
        // off after the slide, the newest segment dropped — and the old files were removed.
        #expect(ended.termination == .exited(2))
        #expect(
            stderr.contains(
                "\(stream)/audio/index.m3u8 changed while embed ran: another program is writing the stream"),
            "\(stderr)")
        #expect(
            try snapshot(stream) == written, "what the other program wrote stays, byte for byte, and nothing is added")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "no copy made from a stream that changed")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["stream"],
            "nothing left beside the stream")
    }

    @Test func inPlaceRefusesALivePlaylistItsEncoderWouldWriteBackButACopyIsMade() throws {
        let folder = try TemporaryFolder()
        let stream = try Self.smallStream(.transportStream, in: folder)
        let playlist = stream + "/audio/index.m3u8"
        let live = try String(contentsOfFile: playlist, encoding: .utf8).replacingOccurrences(
            of: "#EXT-X-ENDLIST\n", with: "")
        try Data(live.utf8).write(to: URL(fileURLWithPath: playlist))
        let before = try snapshot(stream)

        let inPlace = try #require(try Self.embed(["--image", Self.poster, stream + "/master.m3u8", "--in-place"]))
        #expect(inPlace.status == 2)
        #expect(inPlace.stderr.contains("audio/index.m3u8 has no EXT-X-ENDLIST"), "\(inPlace.stderr)")
        #expect(inPlace.stderr.contains("--output"), "says what to do instead")
        #expect(try snapshot(stream) == before, "nothing written")

        let copy = try #require(
            try Self.embed(["--image", Self.poster, stream + "/master.m3u8", "--output", folder.path("out")]))
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(try String(contentsOfFile: folder.path("out/audio/index.m3u8"), encoding: .utf8).contains(".embed-"))
    }

    /// A file the stream lists but the disk lacks — here a video segment embed would only copy
    /// — stops embed before it writes anything, naming the file (the first missing one, in
    /// sorted order, so every run names the same), with --output and --in-place alike.
    @Test func aMissingFileOfTheStreamIsNamedAndNothingIsWritten() throws {
        let (folder, stream) = try Self.copyOfCompliantSample()
        try FileManager.default.removeItem(atPath: stream + "/v1/seg2.ts")
        try FileManager.default.removeItem(atPath: stream + "/v1/seg1.ts")
        let before = try snapshot(stream)
        for destination in [["--output", folder.path("out")], ["--in-place"]] {
            let result = try #require(try Self.embed(["--image", Self.poster, stream + "/master.m3u8"] + destination))
            #expect(result.status == 2, "\(destination): \(result.stderr)")
            let real = try #require(realpath(stream + "/v1", nil).map { String(cString: $0) })
            #expect(
                result.stderr.contains("\(real)/seg1.ts: missing; embed writes complete streams only"),
                "\(destination): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
            #expect(try snapshot(stream) == before, "nothing written")
        }
    }
}

/// A deterministic generator (SplitMix64), so the kill points are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
