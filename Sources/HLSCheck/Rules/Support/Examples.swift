/// Building blocks for rule examples: small, valid playlists that each example bends in one way.
enum Examples {
    /// A VOD media playlist with the given EXTINF durations.
    static func media(_ durations: [Double] = [6, 6], target: Int = 6, version: Int = 3) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (index, duration) in durations.enumerated() {
            text += "#EXTINF:\(duration),\nseg\(index).ts\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// A live media playlist (no EXT-X-PLAYLIST-TYPE, no EXT-X-ENDLIST) with the given EXTINF durations.
    static func live(_ durations: [Double] = [6, 6], target: Int = 6) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
        for (index, duration) in durations.enumerated() {
            text += "#EXTINF:\(duration),\nseg\(index).ts\n"
        }
        return text
    }

    /// A SUBTITLES rendition `subs.m3u8` in group "subs", and a video variant that uses it.
    static let subtitles =
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",URI=\"subs.m3u8\"\n"
    static let subtitledVariant =
        "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,SUBTITLES=\"subs\"\nvideo.m3u8\n"

    static let videoVariant =
        "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360\nvideo.m3u8\n"

    static func audioVariant(bandwidth: Int = 48000) -> String {
        "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"mp4a.40.2\"\naudio.m3u8\n"
    }

    /// A multivariant playlist of one audio-only variant (no EXT-X-VERSION), and `media` as that
    /// variant's playlist, `audio.m3u8`: the stream for examples about one media playlist.
    static func audioStream(_ media: String) -> [String: String] {
        ["master.m3u8": "#EXTM3U\n" + audioVariant(), "audio.m3u8": media]
    }

    /// An EXT-X-I-FRAME-STREAM-INF line for `iframes.m3u8`, with CODECS and RESOLUTION unless nil.
    static func iFrameStream(codecs: String? = "avc1.4d401f", resolution: String? = "640x360") -> String {
        "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000" + (codecs.map { ",CODECS=\"\($0)\"" } ?? "")
            + (resolution.map { ",RESOLUTION=\($0)" } ?? "") + ",URI=\"iframes.m3u8\"\n"
    }

    /// An I-frame media playlist over `seg0.ts` and `seg1.ts`, as I-frame streams need
    /// (EXT-X-I-FRAMES-ONLY, version 4 for it and the byte ranges).
    static let iFrameMedia = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-I-FRAMES-ONLY
        #EXTINF:6,
        #EXT-X-BYTERANGE:5000@0
        seg0.ts
        #EXTINF:6,
        #EXT-X-BYTERANGE:5000@0
        seg1.ts
        #EXT-X-ENDLIST

        """

    /// A multivariant playlist with the given variant lines, plus a media playlist for every URI
    /// they use.
    static func stream(_ variants: String..., header: String = "#EXTM3U\n#EXT-X-VERSION:3\n") -> [String: String] {
        var files = ["master.m3u8": header + variants.joined()]
        for line in variants.joined().split(separator: "\n") {
            if !line.hasPrefix("#") {
                files[String(line)] = media()
            } else if let start = line.firstRange(of: "URI=\"") {
                // An I-frame stream's playlist is an I-frame playlist.
                files[String(line[start.upperBound...].prefix { $0 != "\"" })] =
                    line.hasPrefix("#EXT-X-I-FRAME-STREAM-INF") ? iFrameMedia : media()
            }
        }
        return files
    }
}
