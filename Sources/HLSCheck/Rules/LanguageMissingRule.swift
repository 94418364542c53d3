import HLSPlaylist

// Playlist requirements of Apple's HLS Authoring Specification that RFC 8216 and bis-22 leave
// optional. Like the other Apple rules they are off in audio-only-64k and rfc8216 and errors in
// apple-ios / apple-tvos (their `settings: .appleOnly`, docs/profiles.md).

/// An EXT-X-MEDIA other than TYPE=VIDEO without LANGUAGE.
package struct LanguageMissingRule: Rule {
    package static let description = RuleDescription(
        id: "language-missing", name: "LANGUAGE missing", defaultSeverity: .error, settings: .appleOnly,
        summary: "An EXT-X-MEDIA tag of TYPE AUDIO, SUBTITLES or CLOSED-CAPTIONS has no LANGUAGE attribute.",
        rationale:
            "Apple's authoring specification requires LANGUAGE on every rendition that is not video: players pick audio and subtitles by the user's language preferences and list them by language in their menus.",
        specItems: [
            .apple(
                "8.10", .must, "Every EXT-X-MEDIA tag that does not have TYPE=VIDEO includes the LANGUAGE attribute."),
            .apple("4.4", .must, "Closed captions are declared with an EXT-X-MEDIA tag that carries LANGUAGE."),
            .apple("4.7", .must, "The EXT-X-MEDIA tag of a subtitles track includes LANGUAGE."),
        ],
        triggering: [
            RuleExample(
                "audio rendition without LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"main\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )
            ).expecting(line: 3, "EXT-X-MEDIA TYPE=AUDIO NAME=\"main\" has no")
        ],
        nonTriggering: [
            RuleExample(
                "audio rendition with LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )),
            RuleExample(
                "video rendition without LANGUAGE",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"vid\",NAME=\"angle 1\",DEFAULT=YES,AUTOSELECT=YES\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,VIDEO=\"vid\"\nvideo.m3u8\n"
                )),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        return multivariant.renditions.compactMap { rendition in
            guard let type = rendition.type, type != .video, rendition.language == nil else { return nil }
            return Finding(
                "EXT-X-MEDIA TYPE=\(type.rawValue) NAME=\"\(rendition.name ?? "")\" has no LANGUAGE attribute: add the RFC 5646 tag of its language (LANGUAGE=\"en\")",
                at: stream.root.location(line: rendition.line))
        }
    }
}
