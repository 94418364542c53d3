import HLSPlaylist

// Apple authoring MUSTs about the set of variants and renditions a multivariant playlist offers,
// and the fMP4 media playlists' initialization sections. Apple-only (`settings: .appleOnly`).

/// An audio description rendition without AUTOSELECT=YES or without LANGUAGE.
package struct AudioDescriptionInvalidRule: Rule {
    /// bis-22 §4.4.6.1 / Apple 2.12: how an audio description is marked.
    static let describesVideo = "public.accessibility.describes-video"

    static func stream(_ attributes: String) -> [String: String] {
        Examples.stream(
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English (described)\",CHARACTERISTICS=\"\(describesVideo)\"\(attributes),URI=\"described.m3u8\"\n",
            "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
        )
    }

    package static let description = RuleDescription(
        id: "audio-description-invalid", name: "Audio description not selectable", defaultSeverity: .error,
        settings: .appleOnly,
        summary:
            "An EXT-X-MEDIA audio rendition marked public.accessibility.describes-video lacks AUTOSELECT=YES or LANGUAGE.",
        rationale:
            "Apple's authoring specification: audio description must have AUTOSELECT=YES, so that players pick it for viewers who ask for described video, and LANGUAGE naming the language of the descriptions, so that they pick the right one.",
        specItems: [
            .apple("2.13", .must, "An audio description rendition has AUTOSELECT=YES."),
            .apple(
                "2.27", .must,
                "An audio description rendition has a LANGUAGE attribute naming the language of the descriptions."),
        ],
        triggering: [
            RuleExample("described audio without AUTOSELECT", files: stream(",LANGUAGE=\"en\"")).expecting(
                line: 4, "lacks AUTOSELECT=YES"),
            RuleExample("described audio without LANGUAGE", files: stream(",AUTOSELECT=YES")),
        ],
        nonTriggering: [RuleExample("described audio with both", files: stream(",LANGUAGE=\"en\",AUTOSELECT=YES"))])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        return multivariant.renditions.compactMap { rendition in
            guard rendition.type == .audio,
                rendition.characteristics?.split(separator: ",").contains(where: {
                    $0.filter { !$0.isWhitespace } == Self.describesVideo
                }) == true
            else { return nil }
            var missing: [String] = []
            if !rendition.autoselect { missing.append("AUTOSELECT=YES") }
            if rendition.language == nil { missing.append("LANGUAGE (the language of the descriptions)") }
            guard !missing.isEmpty else { return nil }
            return Finding(
                "audio description NAME=\"\(rendition.name ?? "")\" lacks \(missing.joined(separator: " and ")): players select described audio for viewers who ask for it only with both",
                at: stream.root.location(line: rendition.line))
        }
    }
}
