import HLSPlaylist
import StreamSources

/// A URI that names a local file outside the stream's folder. The file is never read, and the
/// finding never quotes it: a playlist must not turn the checker into a way to print
/// `/etc/passwd` into a CI log.
package struct URIOutsideRootRule: Rule {
    package static let description = RuleDescription(
        id: "uri-outside-root", name: "URI outside the stream's root", defaultSeverity: .error,
        summary:
            "A playlist, rendition, segment, EXT-X-MAP or EXT-X-SESSION-DATA URI names a local file outside the stream's folder (after percent-decoding and resolving `..` and symlinks; an escape decoding to '/' or NUL names no file at all), or a playlist read over http(s) names a local file or another scheme.",
        rationale: """
            A stream is published as one folder: a URI that climbs out of it (`../../…`, an absolute \
            path, a symlink pointing elsewhere) breaks once the folder is copied to a server, and \
            lets a hostile playlist make the checker read files it was never meant to. Such files \
            are not read; choose another root with --root DIR or allow it with --allow-outside-root.
            """,
        triggering: [
            RuleExample(
                "variant climbs out with ..",
                files: [
                    "stream/master.m3u8":
                        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n../secret.m3u8\n",
                    "secret.m3u8": Examples.media(),
                ], entry: "stream/master.m3u8"
            ).expecting(line: 3, column: 1, "../secret.m3u8 lies outside the stream's root"),
            RuleExample(
                "absolute variant path",
                files: [
                    "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n/etc/hostname\n"
                ]),
            RuleExample(
                "segment outside the folder",
                files: [
                    "stream/index.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n../../seg0.ts\n#EXT-X-ENDLIST\n"
                ], entry: "stream/index.m3u8"),
            RuleExample(
                "session data outside the folder",
                files: [
                    "stream/master.m3u8":
                        "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",URI=\"../../secret.json\"\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
                    "stream/audio.m3u8": Examples.media(),
                ], entry: "stream/master.m3u8"
            ).expecting(line: 2, column: 0, "../../secret.json lies outside the stream's root"),
            RuleExample(
                "an encoded '/' climbs out",
                files: [
                    "stream/index.m3u8":
                        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n..%2F..%2Fseg0.ts\n#EXT-X-ENDLIST\n"
                ], entry: "stream/index.m3u8"),
        ],
        nonTriggering: [
            RuleExample("everything inside the folder", files: Examples.stream(Examples.audioVariant())),
            RuleExample(
                ".. that stays inside",
                files: [
                    "stream/master.m3u8":
                        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/../audio.m3u8\n",
                    "stream/audio.m3u8": Examples.media(),
                ], entry: "stream/master.m3u8"),
            RuleExample(
                "percent-encoding and a query inside the folder",
                files: [
                    "stream/index.m3u8":
                        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nlo%20001.ts?token=1\n#EXT-X-ENDLIST\n"
                ], entry: "stream/index.m3u8"),
        ]
    )

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.loaded.outsideRoot.map { reference in
            if URIScheme.isRemote(reference.root) {
                return Finding(
                    "\(reference.uri) is not an http or https URL, and \(reference.root) was read from the network: a remote playlist may name only http(s) resources, never local files or other schemes; it was not read",
                    at: reference.location)
            }
            if let refusal = reference.refusal {
                return Finding(
                    "\(reference.uri) names no file inside the stream's root \(reference.root): \(refusal); it was not read",
                    at: reference.location)
            }
            return Finding(
                "\(reference.uri) lies outside the stream's root \(reference.root); it was not read (choose the root with --root DIR, or pass --allow-outside-root)",
                at: reference.location)
        }
    }
}
