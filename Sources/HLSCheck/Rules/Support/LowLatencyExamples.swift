import HLSPlaylist

enum LowLatencyExamples {
    /// A low-latency media playlist: a complete segment of four parts, then `tail` (more
    /// segments, parts or reports), with PART-HOLD-BACK `holdBack`.
    static func media(
        parts: [String] = ["1", "1", "1", "1"], tail: String = "", partTarget: String = "1", holdBack: String = "3"
    ) -> [String: String] {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=\(partTarget)\n"
            + "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=\(holdBack)\n#EXT-X-MEDIA-SEQUENCE:10\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        for (index, part) in parts.enumerated() {
            text += "#EXT-X-PART:DURATION=\(part),URI=\"s10.\(index).mp4\"\(index == 0 ? ",INDEPENDENT=YES" : "")\n"
        }
        return ["master.m3u8": text + "#EXTINF:4,\ns10.mp4\n" + tail]
    }
}
