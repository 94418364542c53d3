import Foundation
import HLSCheck
import TestSupport
import Testing

/// A ladder as ffmpeg's HLS muxer cuts it with 6-second segments (made by the ffmpeg CLI at test
/// time): 18 s of picture and 18 s of stereo tone, so the audio playlist ends in the ~21 ms
/// runt that AAC priming leaves (6.016 + 5.995 + 5.995 + 0.021 s). The audio is an AUDIO
/// rendition of the video variant; with `audioOnlyVariant` it is also listed as the audio-only
/// variant (the playlist serves both, as many packagers write it).
struct RuntLadder {
    var audioKbps = 96
    var audioOnlyVariant = false
    /// More audio renditions beside English, each (name, language), with a tone of its own.
    var languages: [(name: String, language: String)] = [("English", "en")]
    /// Audio-only variants the multivariant playlist lists besides the one above, as lines after
    /// #EXTM3U.
    var extraMultivariantLines = ""
    /// fMP4 segments (an init section each) instead of MPEG-TS, and 5.1 audio instead of stereo.
    var fragmentedMP4 = false
    var surround = false

    static let script = #"""
        set -e
        c="-nostdin -hide_banner -loglevel error -y"
        x="-map_metadata -1 -fflags +bitexact -flags:a +bitexact -flags:v +bitexact"
        hls="-f hls -hls_time 6 -hls_playlist_type vod"
        if [ "$1" = fmp4 ]; then ext=m4s; hls="$hls -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4"; else ext=ts; fi
        mkdir -p video
        ffmpeg $c -f lavfi -i testsrc2=size=128x72:rate=25:duration=18 -an -c:v libx264 -threads 1 -profile:v baseline -level 3.0 -pix_fmt yuv420p -g 150 -keyint_min 150 -sc_threshold 0 -b:v 60k $x $hls -hls_segment_filename video/seg%d.$ext video/index.m3u8
        """#

    /// Writes the ladder into `folder/stream` and returns its multivariant playlist, every
    /// BANDWIDTH and AVERAGE-BANDWIDTH set to what the checker measures (so that the source checks
    /// clean).
    func make(in folder: TemporaryFolder) async throws -> String {
        let stream = folder.url.appendingPathComponent("stream")
        try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
        try Shell.run(["/bin/sh", "-c", Self.script, "ladder", fragmentedMP4 ? "fmp4" : "ts"], in: stream)
        let ext = fragmentedMP4 ? "m4s" : "ts"
        let segmenting = fragmentedMP4 ? ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"] : []
        let channels =
            surround
            ? ["-af", "pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0", "-c:a", "aac", "-b:a", "\(audioKbps)k"]
            : ["-c:a", "aac", "-b:a", "\(audioKbps)k", "-ac", "2"]
        var media: [String] = []
        for (index, language) in languages.enumerated() {
            let name = languages.count == 1 ? "audio" : "audio-\(language.language)"
            try FileManager.default.createDirectory(
                at: stream.appendingPathComponent(name), withIntermediateDirectories: true)
            try Shell.run(
                [
                    "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", "sine=frequency=\(440 + 220 * index):beep_factor=4:sample_rate=48000:duration=18",
                ] + channels + [
                    "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact",
                    "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
                ] + segmenting + [
                    "-hls_segment_filename", "\(name)/seg%d.\(ext)", "\(name)/index.m3u8",
                ], in: stream)
            let isDefault = index == 0 ? "YES" : "NO"
            media.append(
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"\(language.name)\",LANGUAGE=\"\(language.language)\",DEFAULT=\(isDefault),AUTOSELECT=YES,CHANNELS=\"\(surround ? 6 : 2)\",URI=\"\(name)/index.m3u8\""
            )
        }
        var text =
            "#EXTM3U\n#EXT-X-VERSION:\(fragmentedMP4 ? 7 : 3)\n" + extraMultivariantLines
            + media.joined(separator: "\n")
            + "\n"
        text +=
            "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42c01e,mp4a.40.2\",RESOLUTION=128x72,AUDIO=\"aud\"\nvideo/index.m3u8\n"
        if audioOnlyVariant {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
        }
        let multivariant = stream.appendingPathComponent("master.m3u8").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        let analysis = try await Checker(configuration: CheckConfiguration()).analyse(multivariant)
        for variant in analysis.variants where variant.stream?.bandwidth == 1 {
            let peak = try #require(variant.measuredPeakBitrate), average = try #require(variant.measuredAverageBitrate)
            if let range = text.range(of: "BANDWIDTH=1,") {
                text.replaceSubrange(range, with: "BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),")
            }
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        return multivariant
    }
}
