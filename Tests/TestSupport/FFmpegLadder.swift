import Foundation

/// ffmpeg's default multivariant output, written by the ffmpeg CLI into `folder`: two H.264 + AAC
/// variants (640x360 and 320x180, 25 frames per second, a keyframe every 2 s) muxed in MPEG-TS,
/// cut by the HLS muxer with every option at its default but the names (`-master_pl_name`,
/// `-var_stream_map`). What ffmpeg leaves out or gets wrong there is what `hlscheck fix` is for:
/// BANDWIDTH under the peak, no AVERAGE-BANDWIDTH, no FRAME-RATE, no EXT-X-PLAYLIST-TYPE, no
/// EXT-X-INDEPENDENT-SEGMENTS. Returns the multivariant playlist's path.
public func makeFFmpegDefaultLadder(in folder: String, seconds: Int = 6) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try ChildProcess.run(
        [
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000",
            "-t", String(seconds), "-map", "0:v", "-map", "1:a", "-map", "0:v", "-map", "1:a",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-c:a", "aac", "-b:a", "64k",
            "-b:v:0", "600k", "-s:v:1", "320x180", "-b:v:1", "200k",
            "-f", "hls", "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1", "stream_%v.m3u8",
        ], in: folder)
    return (folder as NSString).appendingPathComponent("master.m3u8")
}

/// ffmpeg's `-hls_flags single_file` output, written by the ffmpeg CLI into `folder`: each media
/// playlist's segments are EXT-X-BYTERANGE ranges of one file (after the EXT-X-MAP init section
/// at its start, for fMP4). Three 2-second segments of a 440 Hz tone, AAC-LC 32 kbit/s stereo,
/// bit-exact flags.
public enum SingleFileLadder: String, CaseIterable, Sendable, CustomStringConvertible {
    case transportStream = "ts", fragmentedMP4 = "fmp4"

    public var description: String { rawValue }

    /// The extension of the single file.
    public var fileExtension: String { self == .transportStream ? "ts" : "m4s" }

    /// Writes the ladder into `folder` (created) and returns its multivariant playlist's path:
    /// `audio/index.m3u8` over `audio/audio.EXT`, listed as an audio-only variant when
    /// `audioOnlyVariant`; with `muxed`, `video/index.m3u8` over `video/video.EXT` (H.264
    /// 128x72 and the same AAC in one file) as a variant. BANDWIDTH is a placeholder (1): the
    /// caller measures it if it matters.
    public func make(in folder: String, audioOnlyVariant: Bool = true, muxed: Bool = false) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let common = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        let audioInput = ["-f", "lavfi", "-i", "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=6"]
        let aac = ["-c:a", "aac", "-b:a", "32k", "-ac", "2"]
        let exact = ["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-flags:v", "+bitexact"]
        func hls(_ name: String) -> [String] {
            [
                "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_flags",
                "independent_segments+single_file",
            ]
                + (self == .fragmentedMP4 ? ["-hls_segment_type", "fmp4"] : [])
                + ["-hls_segment_filename", "\(name)/\(name).\(fileExtension)", "\(name)/index.m3u8"]
        }
        var multivariant = "#EXTM3U\n#EXT-X-VERSION:\(self == .fragmentedMP4 ? 7 : 6)\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        if audioOnlyVariant {
            try FileManager.default.createDirectory(
                atPath: (folder as NSString).appendingPathComponent("audio"), withIntermediateDirectories: true)
            try ChildProcess.run(common + audioInput + ["-t", "5.98"] + aac + exact + hls("audio"), in: folder)
            multivariant += "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
        }
        if muxed {
            try FileManager.default.createDirectory(
                atPath: (folder as NSString).appendingPathComponent("video"), withIntermediateDirectories: true)
            try ChildProcess.run(
                common + ["-f", "lavfi", "-i", "testsrc2=size=128x72:rate=25:duration=6"] + audioInput + [
                    "-c:v", "libx264", "-threads", "1", "-profile:v", "baseline", "-level", "3.0", "-pix_fmt",
                    "yuv420p",
                    "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-b:v", "100k",
                ] + aac + exact + hls("video"), in: folder)
            multivariant +=
                "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.42c01e,mp4a.40.2\",RESOLUTION=128x72\nvideo/index.m3u8\n"
        }
        let path = (folder as NSString).appendingPathComponent("master.m3u8")
        try Data(multivariant.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
