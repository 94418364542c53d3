import HLSPlaylist
import StreamSources

/// A playlist whose URI path ends neither in .m3u8 nor in .m3u and that no playlist
/// Content-Type identifies either.
package struct PlaylistNotIdentifiableRule: Rule {
    package static let description = RuleDescription(
        id: "playlist-not-identifiable", name: "Playlist identifiable neither by path nor by type",
        defaultSeverity: .error,
        summary:
            "A playlist's URI path ends neither in .m3u8 nor in .m3u, and it was not served with a playlist Content-Type (a local file has none).",
        rationale: """
            bis-22 §4: every playlist must be identifiable either by the path of its URI, ending \
            .m3u8 or .m3u, or by its HTTP Content-Type, application/vnd.apple.mpegurl or \
            audio/mpegurl; clients should refuse a playlist that is neither. A local file has no \
            Content-Type, so its name must identify it: a web server that maps types by extension \
            serves `index.txt` or `live` as something else. Over HTTP the type the server sent \
            counts as well (playlist-content-type judges that type on its own).
            """,
        specItems: [
            .bis(
                "4", rfc: "4", .must,
                "A playlist is identifiable by its URI path (.m3u8 or .m3u) or by its Content-Type (application/vnd.apple.mpegurl or audio/mpegurl)."
            )
        ],
        triggering: [
            RuleExample(
                "a variant playlist named .txt",
                files: [
                    "master.m3u8": "#EXTM3U\n" + Examples.videoVariant.replacing("video.m3u8", with: "video.txt"),
                    "video.txt": Examples.media(),
                ]
            ).expecting(line: 3, "video.txt: the path of this playlist ends neither in .m3u8 nor in .m3u"),
            RuleExample(
                "a rendition playlist without extension",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"audio/en\"\n"
                        + "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aac\"\nvideo.m3u8\n",
                    "audio/en": Examples.media(),
                    "video.m3u8": Examples.media(),
                ]
            ).expecting(line: 2, column: 55, "audio/en: the path of this playlist ends neither in .m3u8 nor in .m3u"),
            RuleExample("the checked file itself", files: ["stream.txt": Examples.media()], entry: "stream.txt")
                .expecting(line: 1, "the path of this playlist ends neither in .m3u8 nor in .m3u"),
        ],
        nonTriggering: [
            RuleExample(
                "every playlist named .m3u8", files: Examples.stream(Examples.videoVariant, Examples.audioVariant())),
            RuleExample(
                "a .m3u playlist with a query",
                files: [
                    "master.m3u8": "#EXTM3U\n"
                        + Examples.videoVariant.replacing("video.m3u8", with: "video.M3U?session=1"),
                    "video.M3U": Examples.media(),
                ]),
        ])

    static func identifiedByPath(_ uri: String) -> Bool {
        let path = URIPath.path(of: uri).lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // The root's finding is located at its first line, where a reader of the file starts.
        var references: [(uri: String, location: SourceLocation)] = [
            (stream.loaded.rootURI, stream.root.location(line: 1))
        ]
        if let multivariant = stream.multivariant {
            for variant in multivariant.variants {
                references.append((stream.loaded.resolvedURI(of: variant), stream.root.location(line: variant.uriLine)))
            }
            for iFrame in multivariant.iFrameVariants {
                references.append(
                    (
                        stream.loaded.resolvedURI(of: iFrame),
                        stream.root.location(line: iFrame.line, column: iFrame.attributes["URI"]?.column ?? 0)
                    ))
            }
            // A CLOSED-CAPTIONS rendition names no playlist (a URI there is a syntax error).
            for rendition in multivariant.renditions where rendition.type != .closedCaptions {
                guard let uri = stream.loaded.resolvedURI(of: rendition) else { continue }
                references.append(
                    (uri, stream.root.location(line: rendition.line, column: rendition.attributes["URI"]?.column ?? 0)))
            }
        }
        var seen: Set<String> = []
        var findings: [Finding] = []
        for (uri, location) in references where seen.insert(uri).inserted && !Self.identifiedByPath(uri) {
            let served = stream.delivery.records.first { $0.uri == uri && $0.kind == .playlist }
            let shown = uri == stream.loaded.rootURI ? "" : "\(Self.written(uri, in: stream)): "
            if let served {
                // Over HTTP: the type, or the path it was redirected to, may identify it.
                if let type = served.contentType.map(PlaylistContentTypeRule.mediaType),
                    PlaylistContentTypeRule.acceptedTypes.contains(type)
                {
                    continue
                }
                if let final = served.redirects.last, Self.identifiedByPath(final) { continue }
                findings.append(
                    Finding(
                        "\(shown)the path of this playlist ends neither in .m3u8 nor in .m3u, and it was served with \(served.contentType.map { "Content-Type \(PlaylistContentTypeRule.mediaType($0))" } ?? "no Content-Type"): nothing identifies it as a playlist; serve it as application/vnd.apple.mpegurl or name it .m3u8 (bis-22 §4)",
                        at: location))
            } else if URIScheme.isRemote(uri) {
                continue  // never fetched: its Content-Type is unknown
            } else {
                findings.append(
                    Finding(
                        "\(shown)the path of this playlist ends neither in .m3u8 nor in .m3u: a file has no Content-Type, so nothing identifies it as a playlist; name it .m3u8, or make sure the server sends Content-Type application/vnd.apple.mpegurl for it (bis-22 §4)",
                        at: location))
            }
        }
        return findings
    }

    /// The reference as the multivariant playlist writes it, for messages: the last path segment
    /// is enough to find the line.
    static func written(_ uri: String, in stream: StreamAnalysis) -> String {
        let multivariant = stream.multivariant
        let candidates =
            (multivariant?.variants.map(\.uri) ?? []) + (multivariant?.iFrameVariants.map(\.uri) ?? [])
            + (multivariant?.renditions.compactMap(\.uri) ?? [])
        return candidates.first { stream.loaded.resolve($0) == uri } ?? uri
    }
}
