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

    static let videoVariant =
        "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360\nvideo.m3u8\n"

    static func audioVariant(bandwidth: Int = 48000) -> String {
        "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"mp4a.40.2\"\naudio.m3u8\n"
    }

    /// A master with the given variant lines, plus a media playlist for every URI they use.
    static func stream(_ variants: String..., header: String = "#EXTM3U\n#EXT-X-VERSION:3\n") -> [String: String] {
        var files = ["master.m3u8": header + variants.joined()]
        for line in variants.joined().split(separator: "\n") {
            if !line.hasPrefix("#") {
                files[String(line)] = media()
            } else if let start = line.range(of: "URI=\"") {
                files[String(line[start.upperBound...].prefix { $0 != "\"" })] = media()
            }
        }
        return files
    }
}
