import HLSPlaylist

// bis-22 §6.2.4: the media playlists of one multivariant playlist describe the same
// presentation, so what they say about it as a whole (its type, its clock, its server
// control, its date ranges, its discontinuities) must agree.

/// EXT-X-SERVER-CONTROL on some media playlists but not all, or with other attributes.
package struct ServerControlInconsistentRule: Rule {
    static func files(_ video: String, _ audio: String) -> [String: String] {
        [
            "master.m3u8": "#EXTM3U\n#EXT-X-VERSION:9\n" + Examples.videoVariant + Examples.audioVariant(),
            "video.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n\(video)#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n",
            "audio.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n\(audio)#EXTINF:6,\nseg0.ts\n#EXTINF:6,\nseg1.ts\n#EXTINF:6,\nseg2.ts\n",
        ]
    }

    package static let description = RuleDescription(
        id: "server-control-inconsistent", name: "EXT-X-SERVER-CONTROL differs between media playlists",
        defaultSeverity: .error,
        summary:
            "One media playlist of the stream has EXT-X-SERVER-CONTROL and another has none, or one with other attributes.",
        rationale:
            "bis-22 §6.2.4: if any media playlist has EXT-X-SERVER-CONTROL, all have the same one; the hold-back and the delivery directives a player relies on must not change when it switches variants.",
        specItems: [
            .bis(
                "6.2.4", .must,
                "If any media playlist has EXT-X-SERVER-CONTROL, every media playlist has the same EXT-X-SERVER-CONTROL."
            )
        ],
        triggering: [
            RuleExample(
                "HOLD-BACK 18 in one playlist, 24 in the other",
                files: files(
                    "#EXT-X-SERVER-CONTROL:HOLD-BACK=18\n", "#EXT-X-SERVER-CONTROL:HOLD-BACK=24\n")
            ).expecting(line: 4, "differs in HOLD-BACK from audio.m3u8")
        ],
        nonTriggering: [
            RuleExample(
                "the same server control in both",
                files: files(
                    "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=18\n",
                    "#EXT-X-SERVER-CONTROL:HOLD-BACK=18.0,CAN-BLOCK-RELOAD=YES\n"))
        ])

    /// The attributes, each with its value as written or, for numbers, as a number.
    static func normalised(_ list: AttributeList) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list.attributes {
            result[attribute.name] = list.decimalFloatingPoint(attribute.name).map { "\($0)" } ?? attribute.rawValue
        }
        return result
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.siblingMediaPlaylists
        guard let reference = playlists.first(where: { $0.media.serverControl != nil }),
            let control = reference.media.serverControl
        else { return [] }
        let expected = Self.normalised(control)
        return playlists.compactMap { uri, playlist, media in
            let own = media.serverControl.map(Self.normalised)
            guard own != expected else { return nil }
            let line = playlist.tagLines(named: "#EXT-X-SERVER-CONTROL").first ?? 1
            let what: String
            if let own {
                let differing = Set(own.keys).union(expected.keys).sorted().filter { own[$0] != expected[$0] }
                what = "its EXT-X-SERVER-CONTROL differs in \(differing.joined(separator: ", ")) from"
            } else {
                what = "it has no EXT-X-SERVER-CONTROL, unlike"
            }
            return Finding(
                "\(what) \(stream.shortName(ofPlaylist: reference.uri)): every media playlist of the stream carries the same EXT-X-SERVER-CONTROL",
                at: playlist.location(line: line))
        }
    }
}
