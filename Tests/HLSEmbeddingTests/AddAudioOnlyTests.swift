import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import HLSPlaylist
import MediaFormats
import TestSupport
import Testing

/// A small ladder without an audio-only variant, made by the ffmpeg CLI at test time (three
/// 2-second segments, synthetic picture and tone, bit-exact flags): the kinds of stream
/// `embed --add-audio-only` must follow.
enum Ladder: String, CaseIterable, CustomStringConvertible {
    case tsMuxed, tsRendition, fmp4Rendition, packedRendition, tsDiscontinuity, fmp4Muxed

    var description: String { rawValue }

    /// The media playlist the audio comes from, relative to the multivariant playlist.
    var audioPlaylist: String {
        switch self {
        case .tsMuxed, .tsDiscontinuity, .fmp4Muxed: return "video/index.m3u8"
        default: return "audio/index.m3u8"
        }
    }

    var container: ContainerKind {
        switch self {
        case .fmp4Rendition, .fmp4Muxed: return .fragmentedMP4
        case .packedRendition: return .packedAudio
        default: return .mpegTS
        }
    }

    static let script = #"""
        set -e
        d=${2:-6}
        short=$(awk "BEGIN { print $d - 0.02 }")
        c="-hide_banner -loglevel error -y"
        x="-map_metadata -1 -fflags +bitexact -flags:a +bitexact -flags:v +bitexact"
        video="-f lavfi -i testsrc2=size=128x72:rate=25:duration=$d"
        audio="-f lavfi -i sine=frequency=440:beep_factor=4:sample_rate=48000:duration=$d"
        x264="-c:v libx264 -threads 1 -profile:v baseline -level 3.0 -pix_fmt yuv420p -g 50 -keyint_min 50 -sc_threshold 0 -b:v 100k"
        aac="-c:a aac -b:a 96k -ac 2"
        hls="-f hls -hls_time 2 -hls_playlist_type vod -hls_flags independent_segments"
        fmp4="-hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4"
        mkdir -p video audio
        group='#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"'
        case "$1" in
        tsMuxed)
          ffmpeg $c $video $audio $x264 $aac $x $hls -hls_segment_filename video/seg%d.ts video/index.m3u8
          printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=128x72\nvideo/index.m3u8\n' > master.m3u8 ;;
        tsDiscontinuity)
          ffmpeg $c $video $audio $x264 $aac -t $((d * 2 / 3)) $x $hls -hls_segment_filename video/a%d.ts video/a.m3u8
          ffmpeg $c $video $audio $x264 $aac -t $((d * 2 / 3)) -output_ts_offset 100 $x $hls -hls_segment_filename video/b%d.ts video/b.m3u8
          { grep -v '#EXT-X-ENDLIST' video/a.m3u8; echo '#EXT-X-DISCONTINUITY'; grep -A1 '#EXTINF' video/b.m3u8 | grep -v -- '--'; echo '#EXT-X-ENDLIST'; } > video/index.m3u8
          rm video/a.m3u8 video/b.m3u8
          printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=128x72\nvideo/index.m3u8\n' > master.m3u8 ;;
        fmp4Muxed)
          # Main profile with B-frames: ffmpeg delays both tracks behind empty edits (the audio
          # by 58 ms), so the audio does not start at 0.
          ffmpeg $c $video $audio $(echo "$x264" | sed 's/baseline/main/') -bf 2 $aac $x $hls $fmp4 -hls_segment_filename video/seg%d.m4s video/index.m3u8
          printf '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.4d401e,mp4a.40.2",RESOLUTION=128x72\nvideo/index.m3u8\n' > master.m3u8 ;;
        tsRendition|fmp4Rendition)
          if [ "$1" = fmp4Rendition ]; then ext=m4s; extra="$fmp4"; version=7; else ext=ts; extra=""; version=4; fi
          ffmpeg $c $video -an $x264 $x $hls $extra -hls_segment_filename video/seg%d.$ext video/index.m3u8
          ffmpeg $c $audio -t $short $aac $x $hls $extra -hls_segment_filename audio/seg%d.$ext audio/index.m3u8
          printf '#EXTM3U\n#EXT-X-VERSION:%s\n#EXT-X-INDEPENDENT-SEGMENTS\n%s\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=128x72,AUDIO="aud"\nvideo/index.m3u8\n' $version "$group" > master.m3u8 ;;
        packedRendition)
          ffmpeg $c $video -an $x264 $x $hls -hls_segment_filename video/seg%d.ts video/index.m3u8
          ffmpeg $c $audio -t $short $aac $x -f segment -segment_time 2 -segment_format adts -segment_list audio/index.m3u8 -segment_list_type m3u8 audio/seg%d.aac
          sed -i -e '/#EXT-X-ALLOW-CACHE/d' -e 's/#EXT-X-MEDIA-SEQUENCE:0/#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD/' -e 's/#EXT-X-TARGETDURATION:.*/#EXT-X-TARGETDURATION:2/' audio/index.m3u8
          printf '#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-INDEPENDENT-SEGMENTS\n%s\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=128x72,AUDIO="aud"\nvideo/index.m3u8\n' "$group" > master.m3u8 ;;
        esac
        """#

    /// Writes the ladder, `seconds` long in 2-second segments, into `folder/stream` and returns
    /// its multivariant playlist, with BANDWIDTH and AVERAGE-BANDWIDTH set to what the checker
    /// measures (so the source itself checks clean).
    func make(in folder: TemporaryFolder, seconds: Int = 6) async throws -> String {
        let stream = folder.url.appendingPathComponent("stream")
        try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
        _ = try Shell.run(["/bin/sh", "-c", Self.script, "ladder", rawValue, String(seconds)], in: stream)
        if self == .packedRendition {
            // The segment muxer writes no RFC 8216 §3.4 timestamp; give the source one, on the
            // video's timeline (ffmpeg starts TS at 1.4 s), so that it is valid HLS to start from.
            var timestamp: Int64 = 126_000
            for index in 0..<(seconds / 2) {
                let path = stream.appendingPathComponent("audio/seg\(index).aac")
                let bytes = [UInt8](try Data(contentsOf: path))
                try Data(try PackedAudioPosterWriter.rewrite(bytes, poster: nil, timestampIfMissing: timestamp)).write(
                    to: path)
                let frames = ADTSFrames.count(bytes)
                timestamp += Int64(frames * 1024) * 90_000 / 48_000
            }
        }
        let multivariant = stream.appendingPathComponent("master.m3u8").path
        let analysis = try await Checker(configuration: CheckConfiguration()).analyse(multivariant)
        let variant = try #require(analysis.variants.first)
        let peak = try #require(variant.measuredPeakBitrate), average = try #require(variant.measuredAverageBitrate)
        let text = try String(contentsOfFile: multivariant, encoding: .utf8)
            .replacingOccurrences(of: "BANDWIDTH=1,", with: "BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),")
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        return multivariant
    }
}

enum ADTSFrames {
    /// How many ADTS frames follow any leading ID3 tags.
    static func count(_ bytes: [UInt8]) -> Int {
        var position = 0
        while bytes.count - position >= 10, bytes[position..<(position + 3)].elementsEqual([0x49, 0x44, 0x33]) {
            let size = bytes[(position + 6)..<(position + 10)].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            position += 10 + size
        }
        var frames = 0
        while position + 7 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] & 0xF0 == 0xF0 {
            let length =
                Int(bytes[position + 3] & 0x03) << 11 | Int(bytes[position + 4]) << 3 | Int(bytes[position + 5]) >> 5
            guard length > 7 else { break }
            position += length
            frames += 1
        }
        return frames
    }
}

/// Tools we did not write: ffmpeg/ffprobe (libavformat, libavcodec), GStreamer, mutagen.
enum Shell {
    @discardableResult
    static func run(_ arguments: [String], in folder: URL? = nil) throws -> String {
        try ChildProcess.run(arguments, in: folder?.path)
    }

    static func available(_ tool: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(tool)"])) != nil
    }

    /// Audio packets of a file as ffprobe sees them: (pts, duration) in seconds.
    static func audioPackets(_ path: String) throws -> [(pts: Double, duration: Double)] {
        try run([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time", "-of",
            "csv=p=0", path,
        ])
        .split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            return fields.count >= 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// The span of a file's audio as ffprobe's packet timestamps give it: from the first packet's
    /// PTS to the end of the last (its PTS plus its duration), in seconds. Every packet counts,
    /// also the first of an fMP4 fragment, whose duration ffprobe prints as N/A.
    static func audioSpan(_ path: String) throws -> Double? {
        let packets = try run([
            "ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time", "-of",
            "csv=p=0", path,
        ])
        .split(separator: "\n").compactMap { line -> (pts: Double, duration: Double?)? in
            let fields = line.split(separator: ",")
            guard let pts = fields.first.flatMap({ Double($0) }) else { return nil }
            return (pts, fields.dropFirst().first.flatMap { Double($0) })
        }
        guard let first = packets.first, let last = packets.last, let duration = last.duration else { return nil }
        return last.pts + duration - first.pts
    }

    /// Samples (mono, 48 kHz) libavcodec decodes from a playlist, through the ffmpeg CLI.
    static func decodedSamples(_ playlist: String) throws -> Int {
        let output = try run([
            "sh", "-c", "ffmpeg -v error -i \"$0\" -map 0:a:0 -ac 1 -ar 48000 -f s16le - | wc -c", playlist,
        ])
        return (Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) / 2
    }
}

/// The media playlist's EXTINF lines and segment files, in order.
func playlistEntries(_ playlist: String) throws -> (extinf: [String], files: [String]) {
    let base = (playlist as NSString).deletingLastPathComponent
    let lines = try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n").map(String.init)
    return (
        lines.filter { $0.hasPrefix("#EXTINF:") },
        lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { (base as NSString).appendingPathComponent($0) }
    )
}

@Suite(.serialized) struct AddAudioOnlyTests {
    static let frame = 1024.0 / 48_000

    func request(_ multivariant: String, output: String, poster: String = "poster.jpg") throws -> AudioOnlyRequest {
        AudioOnlyRequest(
            input: multivariant, poster: try Poster(image: fixture(poster)), posterName: poster,
            destination: .folder(output))
    }

    /// Every file under `folder`, relative, with its bytes.
    func files(under folder: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                result[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return result
    }

    @Test(arguments: Ladder.allCases)
    func addsAnAlignedVariantWithinBudgetThatChecksClean(_ ladder: Ladder) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await ladder.make(in: folder)
        let inputFolder = (multivariant as NSString).deletingLastPathComponent
        let before = try files(under: inputFolder)
        let output = folder.path("out")

        let outcome = try await AudioOnlyVariantBuilder(request(multivariant, output: output)).run()
        #expect(outcome.action == .added)
        let verification = try #require(outcome.verification)
        #expect(verification.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(verification.diagnostics)")

        // The variant: within the budget, declared as measured, the poster in every segment.
        let variant = try #require(verification.variants.first { $0.uri == outcome.variantURI })
        #expect(variant.audioOnly)
        let peak = try #require(variant.measuredPeakBitrate)
        #expect(peak <= 64_000)
        #expect(variant.declaredBandwidth == peak)
        #expect(variant.artwork?.segmentsWithArtwork == 3 + (ladder == .tsDiscontinuity ? 1 : 0))
        #expect(variant.codecs.detected == ["mp4a.40.2"])

        // The multivariant playlist: the input's bytes, then the new variant; CODECS as detected.
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: outcome.output)))
        let original = try #require(before["master.m3u8"])
        #expect(written.starts(with: original))
        let added = String(decoding: written.dropFirst(original.count), as: UTF8.self)
        #expect(
            added
                == "#EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(variant.measuredAverageBitrate ?? 0),CODECS=\"mp4a.40.2\"\n\(outcome.variantURI ?? "")\n"
        )

        // Every file of the input is in the copy, byte for byte (the video untouched).
        let after = try files(under: output)
        for (name, bytes) in before where name != "master.m3u8" {
            #expect(after[name] == bytes, "\(name) changed")
        }

        // Same boundaries: as many segments, first timestamps within one frame; each EXTINF the
        // duration of the audio in its segment (ffprobe's packets), the source's line where that
        // is the source's EXTINF.
        let outputFolder = (outcome.output as NSString).deletingLastPathComponent
        let source = try playlistEntries((inputFolder as NSString).appendingPathComponent(ladder.audioPlaylist))
        let new = try playlistEntries(
            (outputFolder as NSString).appendingPathComponent(try #require(outcome.variantURI)))
        #expect(new.files.count == source.files.count)
        #expect(new.extinf.count == source.extinf.count)
        let ourFolder = (outputFolder as NSString).appendingPathComponent(
            ((outcome.variantURI ?? "") as NSString).deletingLastPathComponent)
        let newInit = (ourFolder as NSString).appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: ourFolder).first { $0.hasPrefix("init") } ?? "none")
        for (index, (sourceFile, newFile)) in zip(source.files, new.files).enumerated() {
            let extinf = try #require(Double(new.extinf[index].dropFirst(8).split(separator: ",")[0]))
            let sourceExtinf = try #require(Double(source.extinf[index].dropFirst(8).split(separator: ",")[0]))
            let sourceStart: Double, newStart: Double
            switch ladder.container {
            case .packedAudio:
                sourceStart = try #require(try Self.privTimestamp(sourceFile))
                newStart = try #require(try Self.privTimestamp(newFile))
            case .fragmentedMP4:
                let sourceInit = (sourceFile as NSString).deletingLastPathComponent + "/init.mp4"
                sourceStart = try #require(
                    try Shell.audioPackets(Self.joined(sourceInit, sourceFile, in: folder)).first?.pts)
                newStart = try #require(try Shell.audioPackets(Self.joined(newInit, newFile, in: folder)).first?.pts)
            default:
                sourceStart = try #require(try Shell.audioPackets(sourceFile).first?.pts)
                newStart = try #require(try Shell.audioPackets(newFile).first?.pts)
            }
            #expect(
                abs(newStart - sourceStart) <= Self.frame,
                "segment \(index): starts at \(newStart), the source at \(sourceStart)")
            // EXTINF is the audio's own duration, to well within a frame (ffprobe prints each
            // packet's duration with six decimals); a source whose audio segments are cut on its
            // own frames keeps its EXTINF lines byte for byte.
            let duration = try #require(
                try Shell.audioSpan(
                    ladder.container == .fragmentedMP4 ? Self.joined(newInit, newFile, in: folder) : newFile))
            #expect(
                abs(duration - extinf) <= 0.000_5,
                "segment \(index): \(duration) s of audio for EXTINF \(extinf) (the source's EXTINF \(sourceExtinf))")
            if abs(extinf - sourceExtinf) < 0.000_001 {
                #expect(new.extinf[index] == source.extinf[index], "segment \(index)")
            }
            // A source rendition cut on its own frames has those EXTINF already: all but the last
            // stay byte for byte (the source's last frame is short; the encoder writes it whole).
            if ladder.audioPlaylist == "audio/index.m3u8", index < source.extinf.count - 1 {
                #expect(new.extinf[index] == source.extinf[index], "segment \(index)")
            }
            let pictures = try pictures(in: newFile, container: ladder.container)
            #expect(pictures.map(\.data) == [try fixture("poster.jpg")], "segment \(index)")
        }

        // Decoded by libavcodec (the ffmpeg CLI through its HLS demuxer): the source's duration.
        let newSamples = try Shell.decodedSamples(
            (outputFolder as NSString).appendingPathComponent(try #require(outcome.variantURI)))
        let sourceSamples = try Shell.decodedSamples(
            (inputFolder as NSString).appendingPathComponent(ladder.audioPlaylist))
        #expect(abs(newSamples - sourceSamples) <= 1024, "decoded \(newSamples) samples, the source \(sourceSamples)")

        // GStreamer's playback of the new variant: GStreamerPlaybackTests.
        // mutagen reads the packed-audio tags: the PRIV timestamp and the APIC.
        if ladder == .packedRendition, Shell.available("python3"),
            (try? Shell.run(["python3", "-c", "import mutagen"])) != nil
        {
            let frames = try Shell.run(
                [
                    "python3", "-c",
                    "import sys, mutagen.id3\nfor f in sys.argv[1:]: print(sorted(k.split(':')[0] for k in mutagen.id3.ID3(f).keys()))",
                ] + new.files)
            #expect(frames == String(repeating: "['APIC', 'PRIV']\n", count: 3))
        }
    }

    /// The new media playlist writes each EXTINF the new audio lasts where it differs from the
    /// source's (the title after the comma kept), keeps the source's line where it is the same,
    /// raises TARGETDURATION when an EXTINF rounds above it (RFC 8216 §4.3.3.1) and EXT-X-VERSION
    /// to 3 for decimal EXTINF (§7): a player given the old TARGETDURATION may stall, and one given
    /// decimals under version 2 may refuse the playlist.
    @Test func writesTheNewAudiosDurationsWithATargetDurationAndVersionThatHoldThem() throws {
        let source =
            "#EXTM3U\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,first\na.ts\n#EXTINF:2,second\nb.ts\n#EXT-X-ENDLIST\n"
        let playlist = try #require(PlaylistParser.parse(source, uri: "/s/index.m3u8").media)
        let written = AudioOnlyVariantBuilder.mediaPlaylist(
            from: Array(source.utf8), playlist: playlist, names: ["a.new.ts", "b.new.ts"], initName: nil,
            durations: [2, 2.613333], targetDuration: 3)
        #expect(
            String(decoding: written, as: UTF8.self)
                == "#EXTM3U\n\(AudioOnlyVariantBuilder.marker)\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXTINF:2,first\na.new.ts\n#EXTINF:2.613333,second\nb.new.ts\n#EXT-X-ENDLIST\n"
        )
        // Durations that are the source's: the playlist is the source's but for names and marker.
        let same = AudioOnlyVariantBuilder.mediaPlaylist(
            from: Array(source.utf8), playlist: playlist, names: ["a.new.ts", "b.new.ts"], initName: nil,
            durations: [2, 2], targetDuration: 2)
        #expect(
            String(decoding: same, as: UTF8.self)
                == "#EXTM3U\n\(AudioOnlyVariantBuilder.marker)\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,first\na.new.ts\n#EXTINF:2,second\nb.new.ts\n#EXT-X-ENDLIST\n"
        )
    }

    /// ffmpeg's muxed fMP4 with B-frames delays its audio behind an empty edit (58 ms): the new
    /// audio-only variant starts where the source's audio does, segment by segment, and the
    /// re-check finds the variants aligned.
    @Test func keepsTheAudioStartOfAMuxedFMP4Source() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.fmp4Muxed.make(in: folder)
        let outcome = try await AudioOnlyVariantBuilder(request(multivariant, output: folder.path("out"))).run()
        let verification = try #require(outcome.verification)
        #expect(
            !verification.diagnostics.contains { $0.rule == "timestamps-misaligned" }, "\(verification.diagnostics)")
        let inputFolder = (multivariant as NSString).deletingLastPathComponent
        let outputFolder = (outcome.output as NSString).deletingLastPathComponent
        let variantURI = try #require(outcome.variantURI)
        let source = try playlistEntries(
            (inputFolder as NSString).appendingPathComponent(Ladder.fmp4Muxed.audioPlaylist))
        let new = try playlistEntries((outputFolder as NSString).appendingPathComponent(variantURI))
        let ourFolder = (outputFolder as NSString).appendingPathComponent(
            (variantURI as NSString).deletingLastPathComponent)
        let newInit = (ourFolder as NSString).appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: ourFolder).first { $0.hasPrefix("init") } ?? "none")
        #expect(new.files.count == source.files.count)
        for (index, (sourceFile, newFile)) in zip(source.files, new.files).enumerated() {
            let sourceInit = (sourceFile as NSString).deletingLastPathComponent + "/init.mp4"
            let sourceStart = try #require(
                try Shell.audioPackets(Self.joined(sourceInit, sourceFile, in: folder)).first?.pts)
            let newStart = try #require(try Shell.audioPackets(Self.joined(newInit, newFile, in: folder)).first?.pts)
            if index == 0 {
                #expect(sourceStart > 0.04, "the source's audio starts at \(sourceStart) s: no edit to keep")
            }
            #expect(
                abs(newStart - sourceStart) <= Self.frame,
                "segment \(index): starts at \(newStart), the source at \(sourceStart)")
        }
    }

    static func joined(_ initSection: String, _ fragment: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path("joined-\(UUID().uuidString).mp4")
        try Data(
            try Data(contentsOf: URL(fileURLWithPath: initSection)) + Data(contentsOf: URL(fileURLWithPath: fragment))
        ).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The RFC 8216 §3.4 timestamp of a packed-audio segment, in seconds.
    static func privTimestamp(_ path: String) throws -> Double? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let tag = try? ID3Tag.parse(bytes[...]).tag, let timestamp = TransportStreamTimestamp(tag: tag) else {
            return nil
        }
        return Double(timestamp.pts90k) / 90_000
    }

    @Test func aSecondRunDoesNothingForceRebuildsAndRemoveRestoresTheMultivariantPlaylist() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.tsRendition.make(in: folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: multivariant))
        var request = try request(multivariant, output: folder.path("unused"))
        request.destination = .inPlace
        let first = try await AudioOnlyVariantBuilder(request).run()
        #expect(first.action == .added)
        let stream = (multivariant as NSString).deletingLastPathComponent
        let afterFirst = try files(under: stream)

        let second = try await AudioOnlyVariantBuilder(request).run()
        #expect(second.action == .alreadyPresent)
        #expect(try files(under: stream) == afterFirst)

        request.force = true
        request.audioBitRate = 24_000
        let rebuilt = try await AudioOnlyVariantBuilder(request).run()
        #expect(rebuilt.action == .rebuilt)
        #expect(rebuilt.audioBitRate == 24_000)
        let text = try String(contentsOfFile: multivariant, encoding: .utf8)
        #expect(text.components(separatedBy: "\naudio-only/").count == 2, "one variant of ours: \(text)")
        // The first build's files are gone; only the rebuilt variant's remain.
        let ours = try FileManager.default.contentsOfDirectory(
            atPath: (stream as NSString).appendingPathComponent("audio-only"))
        #expect(ours.count == 4, "\(ours)")

        request.force = false
        request.remove = true
        request.poster = nil
        let removed = try await AudioOnlyVariantBuilder(request).run()
        #expect(removed.action == .removed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: multivariant)) == original)
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: (stream as NSString).appendingPathComponent("audio-only")
            ).isEmpty)
        #expect(try await AudioOnlyVariantBuilder(request).run().action == .nothingToRemove)
    }

    @Test func namesTheVariantsItCouldNotReadInsteadOfSayingThereIsNoAudio() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.tsMuxed.make(in: folder)
        // The same variant named from a subfolder: it lies outside that playlist's root.
        let stream = (multivariant as NSString).deletingLastPathComponent
        let outside = (stream as NSString).appendingPathComponent("sub/master.m3u8")
        try FileManager.default.createDirectory(
            atPath: (outside as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: multivariant, encoding: .utf8)
        try text.replacingOccurrences(of: "\nvideo/index.m3u8", with: "\n../video/index.m3u8")
            .write(toFile: outside, atomically: true, encoding: .utf8)
        let output = folder.path("out")
        do {
            _ = try await AudioOnlyVariantBuilder(request(outside, output: output)).run()
            Issue.record("the only variant lies outside the root: nothing to take audio from")
        } catch let error as EmbedError {
            #expect(
                error.description.contains("not read: ../video/index.m3u8 lies outside the stream's root"),
                "\(error.description)")
            #expect(error.description.contains("--root DIR"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func refusesWithTheNumbersWhenAudioAndPosterCannotFit() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try await Ladder.tsMuxed.make(in: folder)
        let output = folder.path("out")
        do {
            _ = try await AudioOnlyVariantBuilder(request(multivariant, output: output, poster: "poster-large.jpg"))
                .run()
            Issue.record("a 22 KB poster in 2-second segments cannot fit 64 kbit/s")
        } catch let error as EmbedError {
            #expect(
                error.description.contains("poster-large.jpg, 22740 bytes in every segment"), "\(error.description)")
            #expect(error.description.contains("--fit"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))

        var fitting = try request(multivariant, output: output, poster: "poster-large.jpg")
        fitting.fit = true
        let outcome = try await AudioOnlyVariantBuilder(fitting).run()
        #expect(outcome.fittedImage != nil)
        #expect(try #require(outcome.peak) <= 64_000)
        #expect(outcome.verification?.fails(at: .error) == false)
    }
}
