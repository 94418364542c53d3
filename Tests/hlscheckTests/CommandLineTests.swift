import Foundation
import TestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func compliantSamplePassesInPlaylistOnlyMode() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--playlist-only", "--show-variants"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try Golden.expect(result.stdout, matches: "Tests/hlscheckTests/Golden/compliant-playlist-only.txt")
    }

    @Test func compliantSampleMeasuresClean() throws {
        // A clean stream says so in one line, as a linter does; its measurements on request.
        let plain = try HLSCheckBinary.run(["Samples/compliant/master.m3u8"])
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stdout == "1 stream checked: 0 errors, 0 warnings, 0 notes\n", "\(plain.stdout)")
        let text = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--show-variants"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        try Golden.expect(text.stdout, matches: "Tests/hlscheckTests/Golden/compliant.txt")
        let json = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--format", "json"])
        try Golden.expect(json.stdout, matches: "Tests/hlscheckTests/Golden/compliant.json")
    }

    @Test(arguments: ["Samples/packed-audio/master.m3u8", "Samples/fmp4/master.m3u8"])
    func packedAudioAndFragmentedSamplesPassClean(_ sample: String) throws {
        let result = try HLSCheckBinary.run([sample, "--format", "json", "--root", "Samples"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rules = (object["diagnostics"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }
        #expect(rules == [])
        let variants = try #require(object["variants"] as? [[String: Any]])
        let audio = try #require(variants.first { $0["audioOnly"] as? Bool == true })
        #expect((audio["measuredPeakBitrate"] as? Int ?? .max) <= 64_000)
        #expect((audio["artwork"] as? [String: Any])?["segmentsWithArtwork"] as? Int == 3)
    }

    @Test func aPartialMeasurementSaysHowManySegmentsWereMeasured() throws {
        let folder = try VerdictFixtures.make("partial")
        let text = try HLSCheckBinary.run([VerdictFixtures.multivariant(folder, "partial"), "--show-variants"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("measured 2 of 4 (12.0 s)"), "\(text.stdout)")
        let json = try HLSCheckBinary.run([VerdictFixtures.multivariant(folder, "partial"), "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let audio = try #require(
            (object["variants"] as? [[String: Any]])?.first { $0["uri"] as? String == "audio/index.m3u8" })
        #expect(audio["segmentsMeasured"] as? Int == 2)
        #expect(audio["measurementComplete"] as? Bool == false)
        #expect(audio["largestPosterBytes"] == nil)
    }

    @Test func inspectPrintsTracksAndTheTimestampTag() throws {
        let result = try HLSCheckBinary.run(["inspect", "Samples/packed-audio/audio/seg0.aac"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("audio, mp4a.40.2, 2 ch, 44100 Hz"))
        #expect(result.stdout.contains("PRIV com.apple.streaming.transportStreamTimestamp"))
        // On the TS variants' timeline (they start at 1.4 s), not from 0.
        #expect(result.stdout.contains("ID3 at byte 0, v2.4, PTS 126000"))
        #expect(result.stdout.contains("APIC image/jpeg"))
    }

    @Test func inspectFlagsASegmentThatDoesNotDemux() throws {
        let folder = try TemporaryFolder(["broken.ts": String(repeating: "x", count: 1000)])
        let result = try HLSCheckBinary.run(["inspect", folder.path("broken.ts")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("problem:"))
    }

    @Test func artworkExtractWritesTheEmbeddedImageByteForByte() throws {
        let folder = try TemporaryFolder()
        let fixtures = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures")
        let result = try HLSCheckBinary.run(
            ["artwork", fixtures.appendingPathComponent("audio-apic.mp3").path, "--extract", folder.path("poster.jpg")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let written = try Data(contentsOf: folder.url.appendingPathComponent("poster.jpg"))
        #expect(written == (try Data(contentsOf: fixtures.appendingPathComponent("poster.jpg"))))
        #expect(result.stdout.contains("image/jpeg"))
    }

    @Test func artworkExtractsTheSamplePosterFromTheStream() throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "artwork", "Samples/compliant/master.m3u8", "--extract", folder.path("p.jpg"),
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("Samples/compliant/audio/index.m3u8 (Samples/compliant/audio/seg0.ts): image/jpeg"))
        #expect(
            try Data(contentsOf: folder.url.appendingPathComponent("p.jpg"))
                == Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/poster.jpg")))
    }

    @Test func artworkReportsASegmentWithoutPoster() throws {
        let segment = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/video-h264-aac.ts")
            .path
        let result = try HLSCheckBinary.run(["artwork", segment])
        #expect(result.status == 1)
        #expect(result.stdout.contains("no poster found"))
    }

    @Test func missingAudioOnlyVariantFailsWithExitCode1() throws {
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--playlist-only", "--root", "Samples",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Samples/no-audio-only/master.m3u8:1: error: no audio-only variant"))
        try Golden.expect(result.stdout, matches: "Tests/hlscheckTests/Golden/no-audio-only-playlist-only.txt")
    }

    @Test func jsonReportHasTheDocumentedShape() throws {
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--playlist-only", "--format", "json", "--root", "Samples",
        ])
        #expect(result.status == 1)
        try Golden.expect(result.stdout, matches: "Tests/hlscheckTests/Golden/no-audio-only-playlist-only.json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary["errors"] == 1)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["rule"] as? String == "audio-only-variant-missing")
        let variants = try #require(object["variants"] as? [[String: Any]])
        #expect(variants.count == 2)
        #expect(variants.first?["declaredBandwidth"] as? Int == 254427)
    }

    @Test func budgetOptionChangesTheVerdict() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--playlist-only", "--budget-kbps", "32"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("over the 32 kbit/s budget [audio-only-over-budget]"))
    }

    @Test func failOnWarningCountsWarnings() throws {
        let stream = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000\naudio.m3u8\n",
            "audio.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n",
        ])
        let lenient = try HLSCheckBinary.run([stream.path("master.m3u8"), "--playlist-only"])
        #expect(lenient.status == 0, "\(lenient.stdout)")
        #expect(lenient.stdout.contains("[codecs-missing]"))
        let strict = try HLSCheckBinary.run([stream.path("master.m3u8"), "--playlist-only", "--fail-on", "warning"])
        #expect(strict.status == 1)
    }

    @Test func unreadablePlaylistExitsWith2AndSaysWhy() throws {
        let result = try HLSCheckBinary.run(["no/such/master.m3u8"])
        #expect(result.status == 2)
        // The text report says it, once: a run that checked nothing never reads as clean, and a
        // log that takes both standard output and standard error (2>&1, CI) shows it one time.
        #expect(
            result.stdout == """
                error: no/such/master.m3u8: no such file or folder [input-unreadable]

                What each rule checks and how to fix it: hlscheck rules input-unreadable

                0 streams checked, 1 could not be read: 1 error, 0 warnings, 0 notes

                """, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // With a machine format on standard output, standard error is where a person reads it.
        let json = try HLSCheckBinary.run(["no/such/master.m3u8", "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stderr == "hlscheck: no/such/master.m3u8: no such file or folder\n", "\(json.stderr)")
        let file = try TemporaryFolder()
        let toFile = try HLSCheckBinary.run(["no/such/master.m3u8", "--output", "text=\(file.path("report.txt"))"])
        #expect(toFile.stderr == "hlscheck: no/such/master.m3u8: no such file or folder\n", "\(toFile.stderr)")
    }

    @Test func usageErrorExitsWith64() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--format", "yaml"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("yaml"))
    }

    /// --decode reads every segment, --playlist-only none: together they would silently decode
    /// nothing, so they are refused as a usage error.
    @Test func decodeWithPlaylistOnlyIsAUsageError() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--decode", "--playlist-only"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--decode") && result.stderr.contains("--playlist-only"))
        #expect(result.stdout.isEmpty)
    }

    @Test func checksEveryStreamOfAFolderInOneRunAndWritesSeveralFormats() throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "Samples", "--playlist-only", "--format", "text", "--output", "json=\(folder.path("report.json"))",
        ])
        #expect(result.status == 1, "no-audio-only fails the run")
        #expect(result.stdout.contains("4 streams checked: 1 error"))
        let json = try Data(contentsOf: folder.url.appendingPathComponent("report.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(
            object["inputs"] as? [String] == [
                "Samples/compliant/master.m3u8", "Samples/fmp4/master.m3u8",
                "Samples/no-audio-only/master.m3u8", "Samples/packed-audio/master.m3u8",
            ])
    }

    @Test func writesJUnitSARIFAndGitHubReportsForCI() throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--playlist-only", "--root", "Samples", "--format", "github",
            "--output", "junit=\(folder.path("r.xml"))", "--output", "sarif=\(folder.path("r.sarif"))",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "::group::hlscheck Samples/no-audio-only/master.m3u8: fails (1 error)\n::error file=Samples/no-audio-only/master.m3u8,line=1,"
            ))
        let junit = try String(contentsOfFile: folder.path("r.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuite ") && junit.contains("<failure"))
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("r.sarif")))
                as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
    }

    @Test func failOnNeverAlwaysExitsZeroWhenTheCheckRan() throws {
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--playlist-only", "--fail-on", "never",
        ])
        #expect(result.status == 0)
    }

    @Test func configurationFileBesideTheStreamChangesTheVerdict() throws {
        let folder = try TemporaryFolder([
            ".hlscheck.yml": "rules:\n  audio-only-variant-missing: warning\n",
            "master.m3u8":
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360\nv.m3u8\n",
            "v.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
        ])
        let relaxed = try HLSCheckBinary.run([folder.path("master.m3u8"), "--playlist-only"])
        #expect(relaxed.status == 0, "\(relaxed.stdout)")
        #expect(relaxed.stdout.contains("warning: no audio-only variant"))
        let broken = try TemporaryFolder([".hlscheck.yml": "budget: 12\n", "master.m3u8": "#EXTM3U\n"])
        let refused = try HLSCheckBinary.run([broken.path("master.m3u8")])
        #expect(refused.status == 2)
        #expect(refused.stdout.contains(".hlscheck.yml:1:1: unknown setting \"budget\""), "\(refused.stdout)")
    }

    @Test(arguments: [["--shard", "3/2"], ["--format", "json", "--format", "text"], ["--output", "yaml=x"]])
    func rejectsContradictoryOptionsAsUsageErrors(_ options: [String]) throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8"] + options)
        #expect(result.status == 64, "\(result.stderr)")
    }

    @Test func rulesCommandListsTheCatalogue() throws {
        let result = try HLSCheckBinary.run(["rules"])
        #expect(result.status == 0)
        for id in [
            "playlist-syntax", "playlist-unreadable", "target-duration-exceeded",
            "audio-only-variant-missing", "audio-only-over-budget",
        ] {
            #expect(result.stdout.contains(id))
        }
    }

    @Test func verboseRulesQuoteTheSpecItemsEachRuleEnforces() throws {
        let result = try HLSCheckBinary.run(["rules", "--verbose", "--profile", "apple-ios"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // The item follows its rule's line, with both numberings where bis-22 renumbered the RFC.
        let rule = try #require(lines.firstIndex { $0.hasPrefix("target-duration-exceeded ") })
        let next = lines[(rule + 1)...].prefix { $0.hasPrefix(" ") }
        #expect(
            next.contains {
                $0.contains(
                    "- bis-22 §4.4.3.1 (RFC 8216 §4.3.3.1) MUST: Each EXTINF duration, rounded to the nearest integer")
            })
        #expect(next.contains { $0.contains("- AS 7.7 MUST:") })
        #expect(result.stdout.contains("- AS iOS 9.21 MUST: A multivariant playlist delivered over cellular networks"))
    }

    @Test func helpMentionsExitCodesAndOptions() throws {
        let result = try HLSCheckBinary.run(["check", "--help"])
        #expect(result.status == 0)
        for option in ["--format", "--budget-kbps", "--fail-on", "--playlist-only"] {
            #expect(result.stdout.contains(option))
        }
    }
}

extension CommandLineTests {
    @Test func inspectGivenAPlaylistSaysItIsOneNotThatMemoryRanOut() throws {
        let result = try HLSCheckBinary.run(["inspect", "Samples/compliant/audio/index.m3u8"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("problem: is a playlist (it starts with #EXTM3U), not a media segment"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("Cannot allocate memory"), "\(result.stdout)")
    }
}

extension CommandLineTests {
    /// A poster in every segment but the first (a pre-roll, a segment packaged without it):
    /// the stream has a poster, and artwork shows it.
    @Test func artworkFindsThePosterWhenTheFirstSegmentHasNone() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        try manager.copyItem(
            atPath: PackageRoot.url.appendingPathComponent("Samples/compliant").path, toPath: folder.path("stream"))
        // The first audio segment without its poster: the video variant's first segment has none either.
        let audio = folder.path("stream/audio")
        let fixture = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/audio-aac.ts").path
        try manager.removeItem(atPath: audio + "/seg0.ts")
        try manager.copyItem(atPath: fixture, toPath: audio + "/seg0.ts")
        for input in ["stream/master.m3u8", "stream/audio/index.m3u8"] {
            let result = try HLSCheckBinary.run(["artwork", input, "--extract", folder.path("p.jpg")], in: folder.url)
            #expect(result.status == 0, "\(input): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("(stream/audio/seg1.ts): image/jpeg"), "\(input): \(result.stdout)")
            #expect(!result.stdout.contains("stream/audio/index.m3u8: no poster"), "\(input): \(result.stdout)")
        }
        #expect(
            try Data(contentsOf: folder.url.appendingPathComponent("p.jpg"))
                == Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/poster.jpg")))
    }
}
