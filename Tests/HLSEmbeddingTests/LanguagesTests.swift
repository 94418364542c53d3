import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// `--add-audio-only` on a ladder with English and French AUDIO renditions: a low-rate AUDIO
/// group with one rendition per language (the source's NAME, LANGUAGE, DEFAULT, AUTOSELECT) and
/// an audio-only variant over it, within the budget whichever language plays.
@Suite(.serialized) struct LanguagesTests {
    @Test func twoLanguagesGetOneAudioOnlyRenditionEachWithinTheBudget() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await RuntLadder(languages: [("English", "en"), ("Français", "fr")]).make(in: folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: multivariant))
        var request = AudioOnlyRequest(
            input: multivariant, poster: try samplePoster(), posterName: "poster.jpg", destination: .inPlace)
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.action == .added)
        #expect(outcome.languages == ["en", "fr"])
        #expect(outcome.variantURI == "audio-only/en/index.m3u8")
        let peak = try #require(outcome.peak)
        #expect(peak <= 64_000)

        // The multivariant playlist: the input's bytes, then the group and the variant over it.
        let written = try Data(contentsOf: URL(fileURLWithPath: multivariant))
        #expect(written.starts(with: original))
        let added = String(decoding: written.dropFirst(original.count), as: UTF8.self).split(separator: "\n").map(
            String.init)
        #expect(added.count == 4, "\(added)")
        #expect(
            added[0]
                == "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio-only\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio-only/en/index.m3u8\""
        )
        #expect(
            added[1]
                == "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"audio-only\",NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=NO,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio-only/fr/index.m3u8\""
        )
        #expect(added[2].hasPrefix("#EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH="))
        #expect(added[2].hasSuffix(",CODECS=\"mp4a.40.2\",AUDIO=\"audio-only\""))
        #expect(added[3] == "audio-only/en/index.m3u8")

        // The re-check: clean; the audio-only variant measured over each language alone.
        let verification = try #require(outcome.verification)
        #expect(verification.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(verification.diagnostics)")
        let variant = try #require(verification.variants.first { $0.uri == "audio-only/en/index.m3u8" })
        #expect(variant.measuredPeakBitrate == peak)
        #expect(variant.declaredBandwidth == peak)

        // Each language from its own source: decoded to the source's length by libavcodec, the
        // poster in every segment but the runt, its EXTINF its own audio's.
        let stream = (multivariant as NSString).deletingLastPathComponent
        for language in ["en", "fr"] {
            let playlist = stream + "/audio-only/\(language)/index.m3u8"
            let decoded = try Shell.decodedSamples(playlist)
            let source = try Shell.decodedSamples(stream + "/audio-\(language)/index.m3u8")
            #expect(abs(decoded - source) <= 1024, "\(language): \(decoded) samples, the source \(source)")
            let files = try segmentFiles(of: playlist)
            #expect(try files.map { try pictures(in: $0, container: .mpegTS).count } == [1, 1, 1, 0], "\(language)")
            // Each EXTINF is the duration of the audio in its segment, as ffprobe's timestamps give it.
            let entries = try playlistEntries(playlist)
            #expect(entries.extinf.count == files.count)
            for (line, file) in zip(entries.extinf, entries.files) {
                let extinf = try #require(Double(line.dropFirst(8).split(separator: ",")[0]))
                let duration = try #require(try Shell.audioSpan(file))
                #expect(abs(duration - extinf) <= 0.000_5, "\(language) \(file): \(duration) s for EXTINF \(extinf)")
            }
        }
        // The tone tells the languages apart: 440 Hz English, 660 Hz French (RuntLadder); ffmpeg's
        // volumedetect behind a narrow band-pass measures each.
        func level(_ language: String, _ frequency: Int) throws -> Double {
            let output = try Shell.run([
                "sh", "-c",
                "ffmpeg -nostdin -v info -i \"$0\" -map 0:a:0 -af bandpass=f=\(frequency):width_type=h:w=40,volumedetect -f null - 2>&1",
                stream + "/audio-only/\(language)/index.m3u8",
            ])
            let line = try #require(output.split(separator: "\n").first { $0.contains("mean_volume:") })
            return try #require(Double(line.split(separator: " ").dropLast().last ?? ""))
        }
        #expect(try level("en", 440) > level("en", 660) + 10)
        #expect(try level("fr", 660) > level("fr", 440) + 10)

        // A second run finds it; --remove gives back the multivariant playlist byte for byte.
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .alreadyPresent)
        request.remove = true
        request.poster = nil
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .removed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: multivariant)) == original)
        let left = try FileManager.default.subpathsOfDirectory(atPath: stream + "/audio-only").filter {
            !$0.hasSuffix("en") && !$0.hasSuffix("fr")
        }
        #expect(left.isEmpty, "\(left)")
    }
}
