public import Foundation

/// ffmpeg's default multivariant output, written by the ffmpeg CLI into `folder`: two H.264 + AAC
/// variants (640x360 and 320x180, 25 frames per second, a keyframe every 2 s) muxed in MPEG-TS,
/// cut by the HLS muxer with every option at its default but the names (`-master_pl_name`,
/// `-var_stream_map`). What ffmpeg leaves out or gets wrong there is what `hlscheck fix` is for:
/// BANDWIDTH under the peak, no AVERAGE-BANDWIDTH, no FRAME-RATE, no EXT-X-PLAYLIST-TYPE, no
/// EXT-X-INDEPENDENT-SEGMENTS. Returns the multivariant playlist's path.
public func makeFFmpegDefaultLadder(in folder: String, seconds: Int = 6) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try ToolProcess.run([
        "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
        "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
        "-t", String(seconds), "-map", "0:v", "-map", "1:a", "-map", "0:v", "-map", "1:a",
        "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-c:a", "aac", "-b:a", "64k",
        "-b:v:0", "600k", "-s:v:1", "320x180", "-b:v:1", "200k",
        "-f", "hls", "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1", "stream_%v.m3u8",
    ], in: folder)
    return (folder as NSString).appendingPathComponent("master.m3u8")
}
